import { counter } from '../figures/counters.ts';
import type { Counter, CounterKind, Counters } from '../model/coverage.ts';
import type { XmlAttributes, XmlScanner } from '../xml/scanner.ts';
import { count } from './shared.ts';

/** JaCoCo's counter types, at the slots `kindSlot` finds them. */
export const KINDS: [string, CounterKind][] = [
  ['INSTRUCTION', 'instruction'],
  ['BRANCH', 'branch'],
  ['LINE', 'line'],
  ['COMPLEXITY', 'complexity'],
  ['METHOD', 'method'],
  ['CLASS', 'class'],
];

/** By the value's length and first letter, then checked in full: one comparison instead of six. */
export function counterKind(attributes: XmlAttributes, k: number): CounterKind | undefined {
  const entry = KINDS[kindSlot(attributes.valueLength(k), attributes.valueByte(k, 0) ?? 0)];
  return entry && attributes.valueIs(k, entry[0]) ? entry[1] : undefined;
}

export function kindSlot(length: number, first: number): number {
  if (length === 11) return 0;
  if (length === 6) return first === 66 /* B */ ? 1 : 4;
  if (length === 4) return 2;
  if (length === 10) return 3;
  return length === 5 ? 5 : 6;
}

const SHARED_LIMIT = 128;
const shared: Counter[] = [];

/**
 * Most method and class counters are small: those share one frozen object per value (a large
 * report holds millions of counters), larger ones get their own. Nothing mutates a Counter in
 * place; the freeze makes an attempt fail loudly instead of changing every sharer.
 */
export function smallCounter(covered: number, missed: number): Counter {
  if (covered >= SHARED_LIMIT || missed >= SHARED_LIMIT) return counter(covered, missed);
  const slot = covered * SHARED_LIMIT + missed;
  let value = shared[slot];
  if (value === undefined) {
    value = Object.freeze(counter(covered, missed));
    shared[slot] = value;
  }
  return value;
}

/** Counters being read: filled by <counter> elements, the rest made 0/0 by completeCounters. */
export function openCounters(): Counters {
  return { instruction: null, branch: null, line: null, complexity: null, method: null, class: null };
}

/** JaCoCo writes a counter element only when its total is non-zero, so an absent one is 0/0, not null. */
export function completeCounters(counters: Counters): Counters {
  counters.instruction ??= smallCounter(0, 0);
  counters.branch ??= smallCounter(0, 0);
  counters.line ??= smallCounter(0, 0);
  counters.complexity ??= smallCounter(0, 0);
  counters.method ??= smallCounter(0, 0);
  counters.class ??= smallCounter(0, 0);
  return counters;
}

/** One store per kind rather than target[kind]: a keyed store whose key keeps changing is slow. */
export function setCounter(target: Counters, kind: CounterKind, value: Counter): void {
  if (kind === 'instruction') target.instruction = value;
  else if (kind === 'branch') target.branch = value;
  else if (kind === 'line') target.line = value;
  else if (kind === 'complexity') target.complexity = value;
  else if (kind === 'method') target.method = value;
  else target.class = value;
}

/** The sum of several classes' counters: a file JaCoCo wrote no <sourcefile> for. */
export function summedCounters(all: readonly Counters[]): Counters {
  const into = completeCounters(openCounters());
  for (const from of all) {
    for (const kind of Object.keys(into) as CounterKind[]) {
      const a = into[kind];
      const b = from[kind];
      if (a && b) into[kind] = counter(a.covered + b.covered, a.missed + b.missed);
    }
  }
  return into;
}

/**
 * A count attribute: the k-th attribute when it has the expected name (JaCoCo's own order; k -1
 * for none), else the attribute by name; a bad one fails the scan with bad-number at its place.
 */
export function countAttribute(
  scanner: XmlScanner,
  attributes: XmlAttributes,
  k: number,
  attribute: string,
  what: string,
): number {
  const atK = k >= 0 && k < attributes.count && attributes.nameIs(k, attribute) ? attributes.integerAt(k) : -2;
  if (atK >= 0) return atK;
  const value = attributes.integer(attribute);
  if (value >= 0) return value;
  try {
    return count('jacoco', attributes.get(attribute), what);
  } catch (error) {
    return scanner.fail((error as { code: 'bad-number' }).code, (error as { reason: string }).reason, -1);
  }
}
