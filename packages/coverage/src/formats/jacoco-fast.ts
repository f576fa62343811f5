import type { CounterKind, LineCoverage } from '../model/coverage.ts';
import { bytesEqual } from '../xml/byte-strings.ts';
import { ascii, digits, digitsEnd, expect } from '../xml/fast-bytes.ts';
import { KINDS, kindSlot } from './jacoco-counters.ts';

/**
 * JaCoCo's three commonest elements exactly as JaCoCo writes them, read straight from the bytes
 * (the parser's `fastOpen`). Each reader returns the offset after the element and leaves what it
 * read in its fields object, or returns -1 for anything else, which the general path then reads.
 */

const LINE_NR = ascii('line nr="');
const MI = ascii('" mi="');
const CI = ascii('" ci="');
const MB = ascii('" mb="');
const CB = ascii('" cb="');
const COUNTER_TYPE = ascii('counter type="');
const MISSED = ascii('" missed="');
const COVERED = ascii('" covered="');
const CLOSE = ascii('"/>');
const METHOD_NAME = ascii('method name="');
const DESC = ascii('" desc="');
const LINE_ATTRIBUTE = ascii('" line="');
const OPEN_END = ascii('">');

/** A <line>: JaCoCo's hits say only whether an instruction ran. */
export function jacocoLine(nr: number, mi: number, ci: number, mb: number, cb: number): LineCoverage {
  return {
    line: nr,
    hits: ci > 0 ? 1 : 0,
    branchesCovered: cb,
    branchesTotal: cb + mb,
    instructionsCovered: ci,
    instructionsMissed: mi,
  };
}

/** What `readLine` read. */
export const lineFields = { nr: 0, mi: 0, ci: 0, mb: 0, cb: 0 };

/**
 * `<line nr="N" mi="N" ci="N" mb="N" cb="N"/>` after `lastLine` (a line the general path would
 * refuse as out of order is left to it).
 */
export function readLine(b: Uint8Array, lt: number, lastLine: number): number {
  let i = expect(b, lt + 1, LINE_NR);
  const nr = i === -1 ? -1 : digits(b, i);
  if (nr < 1 || nr <= lastLine) return -1;
  i = expect(b, digitsEnd, MI);
  const mi = i === -1 ? -1 : digits(b, i);
  i = mi < 0 ? -1 : expect(b, digitsEnd, CI);
  const ci = i === -1 ? -1 : digits(b, i);
  i = ci < 0 ? -1 : expect(b, digitsEnd, MB);
  const mb = i === -1 ? -1 : digits(b, i);
  i = mb < 0 ? -1 : expect(b, digitsEnd, CB);
  const cb = i === -1 ? -1 : digits(b, i);
  const end = cb < 0 ? -1 : expect(b, digitsEnd, CLOSE);
  if (end === -1) return -1;
  lineFields.nr = nr;
  lineFields.mi = mi;
  lineFields.ci = ci;
  lineFields.mb = mb;
  lineFields.cb = cb;
  return end;
}

/** What `readMethodHead` read: where the name and descriptor lie in the buffer, and the line. */
export const methodFields = { nameStart: 0, nameEnd: 0, descStart: 0, descEnd: 0, startLine: null as number | null };

/** Where a double-quoted value starting at `at` ends, or -1 when it holds `&` or `<` or b ends first. */
function plainValueEnd(b: Uint8Array, at: number): number {
  for (let i = at; i < b.length; i++) {
    const c = b[i] as number;
    if (c === 34) return i;
    if (c === 38 || c === 60) return -1;
  }
  return -1;
}

/**
 * `<method name="…" desc="…" line="N">` (line optional) with no reference in the values
 * (constructors' `&lt;init&gt;` take the general path).
 */
export function readMethodHead(b: Uint8Array, lt: number): number {
  const nameStart = expect(b, lt + 1, METHOD_NAME);
  const nameEnd = nameStart === -1 ? -1 : plainValueEnd(b, nameStart);
  const descStart = nameEnd === -1 ? -1 : expect(b, nameEnd, DESC);
  const descEnd = descStart === -1 ? -1 : plainValueEnd(b, descStart);
  if (descEnd === -1 || nameEnd === nameStart) return -1;
  let startLine: number | null = null;
  let end = expect(b, descEnd, OPEN_END);
  if (end === -1) {
    const lineStart = expect(b, descEnd, LINE_ATTRIBUTE);
    const line = lineStart === -1 ? -1 : digits(b, lineStart);
    end = line < 0 ? -1 : expect(b, digitsEnd, OPEN_END);
    if (end === -1) return -1;
    startLine = line || null;
  }
  methodFields.nameStart = nameStart;
  methodFields.nameEnd = nameEnd;
  methodFields.descStart = descStart;
  methodFields.descEnd = descEnd;
  methodFields.startLine = startLine;
  return end;
}

/** What `readCounter` read. */
export const counterFields = { kind: 'instruction' as CounterKind, missed: 0, covered: 0 };

/** `<counter type="KIND" missed="N" covered="N"/>`. */
export function readCounter(b: Uint8Array, lt: number): number {
  const typeStart = expect(b, lt + 1, COUNTER_TYPE);
  if (typeStart === -1) return -1;
  const typeEnd = b.indexOf(34, typeStart);
  if (typeEnd === -1 || typeEnd - typeStart > 11) return -1;
  const entry = KINDS[kindSlot(typeEnd - typeStart, b[typeStart] ?? 0)];
  if (!entry || !bytesEqual(b, typeStart, typeEnd, entry[0])) return -1;
  let i = expect(b, typeEnd, MISSED);
  const missed = i === -1 ? -1 : digits(b, i);
  i = missed < 0 ? -1 : expect(b, digitsEnd, COVERED);
  const covered = i === -1 ? -1 : digits(b, i);
  const end = covered < 0 ? -1 : expect(b, digitsEnd, CLOSE);
  if (end === -1) return -1;
  counterFields.kind = entry[1];
  counterFields.missed = missed;
  counterFields.covered = covered;
  return end;
}
