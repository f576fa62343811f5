import type { ChangedFile } from '../diff/unified.ts';
import type { SourceMethod } from '../methods/types.ts';
import {
  COUNTER_KINDS,
  type Counter,
  type CounterBounds,
  type Counters,
  type Coverage,
  emptyCounters,
  type FileCoverage,
  type MethodCoverage,
} from '../model/coverage.ts';
import { lineColumns } from '../model/line-buffer.ts';
import { ascendingUnique, firstAtLeast, itself } from '../model/sorted.ts';
import { summedBounds } from './bounds.ts';

/**
 * Methods of one changed file at both revisions (base empty for an added file). Only whether the
 * base has a method of a changed head method's class, name and signature is read of the base:
 * an extraction may keep only those (see extractJob).
 */
export interface FileMethods {
  head: readonly SourceMethod[];
  base: readonly SourceMethod[];
  /** Set when tree-sitter gave up on a revision of the file (see ParseBudgetExceeded): no method of it is known. */
  unparsed?: true;
}

export interface ChangedMethod extends SourceMethod {
  /** Repository path at the head revision. */
  file: string;
  /** `added` when the base revision had no method with the same class, name and signature. */
  status: 'added' | 'modified';
  /** Changed (added or modified) head lines inside the method, ascending. */
  changedLines: number[];
}

export interface MeasuredMethod extends ChangedMethod {
  /** The report's counters for the method (see `incrementalCoverage`). */
  counters: Counters;
  /** Whether the report has any data for the method. */
  measured: boolean;
  /** The method ran: its method counter (else a line) is covered. */
  covered: boolean;
  /** Upper bounds of counters a merge left as ranges (JaCoCo XML): `counters` holds the lower bounds. */
  bounds?: CounterBounds;
}

export interface IncrementalCoverage {
  methods: MeasuredMethod[];
  /** The six counters summed over the changed methods (the super-jacoco definition). */
  totals: Counters;
  /** Upper bounds of `totals` that are ranges (see MeasuredMethod.bounds). */
  bounds?: CounterBounds;
}

const startLineOf = (method: MethodCoverage) => method.startLine as number;

export const methodKey = (m: Pick<SourceMethod, 'class' | 'name' | 'signature'>) =>
  `${m.class ?? ''}\u0000${m.name}\u0000${m.signature ?? ''}`;

type Deletions = ChangedFile['deletions'];

/** The file's deletions ascending by `after` (as a diff lists them; sorted only when they are not). */
function deletionsInOrder(deletions: Deletions): Deletions {
  for (let i = 1; i < deletions.length; i++) {
    if ((deletions[i] as Deletions[number]).after < (deletions[i - 1] as Deletions[number]).after) {
      return [...deletions].sort((a, b) => a.after - b.after);
    }
  }
  return deletions;
}

/**
 * Whether base lines were removed from inside the method's body (between two of its lines): the
 * first deletion placed at or after its start line decides, the deletions being in order.
 */
function lostBodyLines(method: SourceMethod, ordered: Deletions): boolean {
  const first = ordered[firstAtLeast(ordered, method.startLine, (d) => d.after)];
  return first !== undefined && first.after + 1 <= method.endLine;
}

/** Copies of a file (same texts, same changes) share one `FileMethods`: its base keys are made once. */
const BASE_KEYS = new WeakMap<FileMethods, Set<string>>();

function baseKeysOf(methods: FileMethods): Set<string> {
  let keys = BASE_KEYS.get(methods);
  if (!keys) {
    keys = new Set(methods.base.map(methodKey));
    BASE_KEYS.set(methods, keys);
  }
  return keys;
}

/**
 * Methods of the head revision that contain a changed line, or lost lines from their body (those
 * count as modified with no changed lines, so no author). Pieces of one JVM method (an enum's or
 * a class's <clinit> spread over several places) are joined into one entry.
 */
export function changedMethods(
  changed: readonly ChangedFile[],
  methods: ReadonlyMap<string, FileMethods>,
): ChangedMethod[] {
  const result: ChangedMethod[] = [];
  for (const file of changed) {
    if (file.status === 'deleted' || file.binary) continue;
    const found = methods.get(file.path);
    if (!found) continue;
    const atBase = baseKeysOf(found);
    const lines = ascendingUnique(file.lines);
    const deletions = deletionsInOrder(file.deletions);
    const joined = new Map<string, ChangedMethod>();
    for (const method of found.head) {
      const from = firstAtLeast(lines, method.startLine, itself);
      const to = firstAtLeast(lines, method.endLine + 1, itself);
      if (from === to && !lostBodyLines(method, deletions)) continue;
      const inside = lines.slice(from, to);
      const key = method.signature === null ? null : methodKey(method);
      const earlier = key === null ? undefined : joined.get(key);
      if (earlier) {
        earlier.startLine = Math.min(earlier.startLine, method.startLine);
        earlier.endLine = Math.max(earlier.endLine, method.endLine);
        earlier.changedLines = [...new Set([...earlier.changedLines, ...inside])].sort((a, b) => a - b);
        continue;
      }
      // Fields written out: a spread (`{ ...method }`) took V8's slow generic path, about 35 of
      // this loop's 45 ms over the 57 MB bench's 27,790 methods; the same in incrementalCoverage.
      const entry: ChangedMethod = {
        class: method.class,
        name: method.name,
        signature: method.signature,
        startLine: method.startLine,
        endLine: method.endLine,
        bodyHash: method.bodyHash,
        file: file.path,
        status: atBase.has(key ?? methodKey(method)) ? 'modified' : 'added',
        changedLines: inside,
      };
      if (key !== null) joined.set(key, entry);
      result.push(entry);
    }
  }
  return result;
}

/**
 * For each line, the key of the innermost source method whose range holds it (nested functions,
 * anonymous classes; among equal ranges the first listed), painted once per file's methods:
 * outer ranges first, so inner ones overwrite them. Keys are numbered (methods with one key share
 * its number), so asking whether a line is a method's own compares numbers, not strings.
 */
export class LineOwners {
  private readonly owner: Int32Array;
  private readonly keys: string[] = [];
  private readonly ids = new Map<string, number>();

  constructor(methods: readonly SourceMethod[]) {
    const idOfMethod = methods.map((m) => {
      const key = methodKey(m);
      let id = this.ids.get(key);
      if (id === undefined) {
        id = this.keys.push(key) - 1;
        this.ids.set(key, id);
      }
      return id;
    });
    const last = methods.reduce((max, m) => Math.max(max, m.endLine), 0);
    this.owner = new Int32Array(last + 2).fill(-1);
    const span = (i: number) => (methods[i] as SourceMethod).endLine - (methods[i] as SourceMethod).startLine;
    const order = methods.map((_, i) => i).sort((a, b) => span(b) - span(a) || b - a);
    for (const i of order) {
      const m = methods[i] as SourceMethod;
      if (m.startLine <= m.endLine) this.owner.fill(idOfMethod[i] as number, Math.max(0, m.startLine), m.endLine + 1);
    }
  }

  /** The number of a method key, -1 when no method here has it. */
  idOf(method: Pick<SourceMethod, 'class' | 'name' | 'signature'>): number {
    return this.ids.get(methodKey(method)) ?? -1;
  }

  /** The innermost method's key number at the line, -1 when no method holds it. */
  idAt(line: number): number {
    return line >= 0 && line < this.owner.length ? (this.owner[line] as number) : -1;
  }

  /** The innermost method's key at the line, null when no method holds it. */
  keyAt(line: number): string | null {
    const id = this.idAt(line);
    return id === -1 ? null : (this.keys[id] as string);
  }
}

const OWNERS = new WeakMap<readonly SourceMethod[], LineOwners>();

function ownersOf(methods: readonly SourceMethod[]): LineOwners {
  let owners = OWNERS.get(methods);
  if (!owners) {
    owners = new LineOwners(methods);
    OWNERS.set(methods, owners);
  }
  return owners;
}

function ownsLine(changed: ChangedMethod, methods: readonly SourceMethod[], line: number): boolean {
  if (line < changed.startLine || line > changed.endLine) return false;
  const owners = ownersOf(methods);
  const owner = owners.idAt(line);
  return owner === -1 || owner === owners.idOf(changed);
}

const JVM_LAMBDA_OWNER: Record<string, string> = { '<init>': 'new', '<clinit>': 'static' };

/**
 * The report methods a changed JVM method stands for: the one with its class, name and descriptor
 * (or, without a descriptor, the same-named ones starting inside its range), plus the
 * `lambda$name$N` methods javac made from lambdas written in it; failing that, report methods
 * starting inside the range that no nested source method claims.
 */
function jvmReportMethods(
  changed: ChangedMethod,
  file: FileCoverage,
  methods: readonly SourceMethod[],
): MethodCoverage[] {
  const inRange = (m: MethodCoverage) =>
    m.startLine !== null && changed.startLine <= m.startLine && m.startLine <= changed.endLine;
  const lambdaPrefix = `lambda$${JVM_LAMBDA_OWNER[changed.name] ?? changed.name}$`;
  const sameClass = file.classes.filter((c) => c.name === changed.class).flatMap((c) => c.methods);
  const named = sameClass.filter((m) => m.name === changed.name);
  let own = changed.signature !== null ? named.filter((m) => m.signature === changed.signature) : named.filter(inRange);
  // A field initialiser runs inside every constructor of its class, so all of them stand for it.
  if (own.length === 0 && changed.signature === null && (named.length === 1 || changed.name === '<init>')) own = named;
  const lambdas = sameClass.filter((m) => m.name.startsWith(lambdaPrefix) && inRange(m));
  if (own.length > 0 || lambdas.length > 0) return [...own, ...lambdas];
  return file.classes
    .flatMap((c) => c.methods)
    .filter((m) => inRange(m) && m.startLine !== null && ownsLine(changed, methods, m.startLine));
}

/** `a + b` into `a` when there is an `a` (a counter this module made), else a copy of `b`. */
function add(a: Counter | null, b: Counter | null): Counter | null {
  if (!b) return a;
  if (!a) return { covered: b.covered, missed: b.missed };
  a.covered += b.covered;
  a.missed += b.missed;
  return a;
}

/** The counters summed kind by kind, into `start`, whose counters must be this module's own. */
function sum(all: readonly Counters[], start: Counters = emptyCounters()): Counters {
  const total = start;
  for (const counters of all) for (const kind of COUNTER_KINDS) total[kind] = add(total[kind], counters[kind]);
  return total;
}

/** JaCoCo's class counter over a set of methods: a class is covered when any of them ran. */
function classCounter(byClass: ReadonlyMap<string, readonly MethodCoverage[]>): Counter {
  let covered = 0;
  for (const methods of byClass.values()) if (methods.some((m) => (m.counters.method?.covered ?? 0) > 0)) covered++;
  return { covered, missed: byClass.size - covered };
}

/** A file's report methods that carry a method counter and a start line, by start line. */
const COUNTED_METHODS = new WeakMap<FileCoverage, MethodCoverage[]>();

function countedMethods(file: FileCoverage): MethodCoverage[] {
  let found = COUNTED_METHODS.get(file);
  if (!found) {
    found = [];
    let sorted = true;
    for (const c of file.classes) {
      for (const m of c.methods) {
        if (m.startLine === null || m.counters.method === null) continue;
        if (
          sorted &&
          found.length > 0 &&
          m.startLine < ((found[found.length - 1] as MethodCoverage).startLine as number)
        )
          sorted = false;
        found.push(m);
      }
    }
    // Tools list a file's functions in source order, so the sort is seldom needed.
    if (!sorted) found.sort((a, b) => (a.startLine as number) - (b.startLine as number));
    COUNTED_METHODS.set(file, found);
  }
  return found;
}

/** Line-derived counters of a method for formats without per-method counters. */
function lineCounters(
  changed: ChangedMethod,
  file: FileCoverage,
  methods: readonly SourceMethod[],
  hasBranches: boolean,
): Counters {
  const counters = emptyCounters();
  const owners = ownersOf(methods);
  // A method absent from `methods` (-1) owns the lines no method holds, as does every method.
  const id = owners.idOf(changed);
  const own = (line: number) => {
    const owner = owners.idAt(line);
    return owner === -1 || owner === id;
  };
  const sums = lineColumns(file).sum(changed.startLine, changed.endLine, own);
  if (sums.lines === 0) return counters;
  const { hit } = sums;
  counters.line = { covered: hit, missed: sums.lines - hit };
  // The report's own function counters (LCOV FN/FNDA, Istanbul fnMap) when it has them here.
  const reported = countedMethods(file);
  let method: Counter | null = null;
  for (let i = firstAtLeast(reported, changed.startLine, startLineOf); i < reported.length; i++) {
    const m = reported[i] as MethodCoverage;
    if ((m.startLine as number) > changed.endLine) break;
    if (own(m.startLine as number)) method = add(method, m.counters.method);
  }
  counters.method = method ?? { covered: hit > 0 ? 1 : 0, missed: hit > 0 ? 0 : 1 };
  if (hasBranches)
    counters.branch = { covered: sums.branchesCovered, missed: sums.branchesTotal - sums.branchesCovered };
  if (sums.instructionsCovered !== null && sums.instructionsMissed !== null)
    counters.instruction = { covered: sums.instructionsCovered, missed: sums.instructionsMissed };
  return counters;
}

/**
 * Incremental counters (DESIGN §4.3b). JaCoCo: each changed method's counters are those of the
 * report methods it stands for, summed; the totals sum every matched report method once, with a
 * class counter over their classes — what JaCoCo would print for a report of only those methods.
 * Other formats: line, branch and (where present) instruction counters from the report's lines in
 * the method's range, excluding nested methods' lines; the method counter is the report's for the
 * functions starting there (LCOV FN/FNDA, Istanbul), else 1, covered when a line ran; complexity and
 * class are absent. `coverage` must be mapped to repository paths.
 */
export function incrementalCoverage(
  changed: readonly ChangedMethod[],
  coverage: Coverage,
  /** The head revision's methods of each file holding a changed method. */
  headMethods: ReadonlyMap<string, readonly SourceMethod[]>,
): IncrementalCoverage {
  const files = new Map(coverage.files.map((f) => [f.path, f]));
  const measured: MeasuredMethod[] = [];
  const matched = new Set<MethodCoverage>();
  const matchedByClass = new Map<string, MethodCoverage[]>();
  const lineTotals: Counters[] = [];
  // A file's changed methods come one after another: its lookups are made once for all of them.
  let path: string | null = null;
  let file: FileCoverage | undefined;
  let sourceMethods: readonly SourceMethod[] = [];
  for (const method of changed) {
    if (method.file !== path) {
      path = method.file;
      file = files.get(path);
      sourceMethods = headMethods.get(path) ?? [];
    }
    let counters = emptyCounters();
    let bounds: CounterBounds | undefined;
    let isMeasured = false;
    if (file && coverage.format === 'jacoco') {
      const own = jvmReportMethods(method, file, sourceMethods);
      isMeasured = own.length > 0;
      if (isMeasured) counters = { ...sum(own.map((m) => m.counters)), class: null };
      bounds = summedBounds(own, counters);
      for (const m of own) {
        if (matched.has(m)) continue;
        matched.add(m);
        const cls = file.classes.find((c) => c.methods.includes(m))?.name ?? '';
        matchedByClass.set(cls, [...(matchedByClass.get(cls) ?? []), m]);
      }
    } else if (file) {
      counters = lineCounters(method, file, sourceMethods, coverage.counters.branch !== null);
      isMeasured = counters.line !== null;
      lineTotals.push(counters);
    }
    const ran = counters.method ?? counters.line;
    measured.push({
      class: method.class,
      name: method.name,
      signature: method.signature,
      startLine: method.startLine,
      endLine: method.endLine,
      bodyHash: method.bodyHash,
      file: method.file,
      status: method.status,
      changedLines: method.changedLines,
      counters,
      measured: isMeasured,
      covered: (ran?.covered ?? 0) > 0,
      ...(bounds && { bounds }),
    });
  }
  if (coverage.format !== 'jacoco') return { methods: measured, totals: sum(lineTotals) };
  // JaCoCo states every counter (an absent one is 0/0), so the totals over no methods are zeros.
  const zero = (): Counter => ({ covered: 0, missed: 0 });
  const start = { instruction: zero(), branch: zero(), line: zero(), complexity: zero(), method: zero(), class: null };
  const totals = sum(
    [...matched].map((m) => m.counters),
    start,
  );
  totals.class = classCounter(matchedByClass);
  const bounds = summedBounds([...matched], totals);
  return { methods: measured, totals, ...(bounds && { bounds }) };
}
