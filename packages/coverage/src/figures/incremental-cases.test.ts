import { describe, expect, it } from 'vitest';
import type { ChangedFile } from '../diff/unified.ts';
import type { SourceMethod } from '../methods/types.ts';
import type { Counters, Coverage, LineCoverage, MethodCoverage } from '../model/coverage.ts';
import { type ChangedMethod, changedMethods, incrementalCoverage, LineOwners } from './incremental.ts';

// Incremental counters case by case (DESIGN §4.3b): which report methods a changed JVM method stands
// for, and the line-derived counters of the other formats. Each case is a rule a mutant of
// incremental.ts broke without incremental.test.ts noticing (scripts/mutation.mjs runs both).
// Mutants left alive, each equivalent (same answers, only the work differs):
// - caches recomputed: `if (!keys)`, `if (!owners)`, `if (!found)` and `if (method.file !== path)`
//   made `true`; deletions and function records always sorted (`sorted = false`, `<` made `<=`);
// - `joined` read or written under a null key: a null key is never read back;
// - `matched.has(m)` skipped: the totals come from the Set, the class counter from a Map by class;
// - `?.name` on the class found for a matched method: it comes from that file's classes;
// - `LineOwners.keys` starting non-empty: ids stay the indexes keys were pushed at;
// - a range filled only when `startLine <= endLine`: `fill` of an empty range does nothing;
// - `lineTotals` or `sourceMethods` starting as `["Stryker was here"]`: a string has no counters,
//   and `sourceMethods` is set before its first read;
// - `if (isMeasured)` made `true`: summing no report methods gives the empty counters it replaces;
// - the early `return false` of `ownsLine` for lines outside the range dropped: its callers pass only
//   lines inside it; likewise `m.startLine !== null` beside `inRange(m)`, which is false for null, and
//   `inRange(m) ||` for `&&` there: `ownsLine` itself refuses a start outside the range (each of the
//   two range checks alone keeps the answer; the edges of the one in `ownsLine` are tested above);
// - `m.startLine !== null &&` in `inRange` made `true`: `5 <= null` is already false (lines start at 1);
// - function records without a start line or a method counter kept: `idAt(null)` owns no line and
//   adding a null counter adds nothing;
// - `owner === -1 ||` dropped from `ownsLine` and from `lineCounters`' own-line test: a method's
//   own range is painted with its id, so a line no method holds is in its range only when it is
//   absent from the head's methods, and its id is then -1 too;
// - the instruction counter of `lineCounters` made `false`, `||` or unreachable (line formats carry
//   no instructions: the model has them for JaCoCo only, which takes the other path), and the
//   `?? ''` class name never needed;
// - in that same test, `sums.instructionsCovered !== null` alone (the left operand, not the whole
//   condition) made `true` or `=== null`: a line sum has both instruction sums or neither, so what
//   is left (`true && instructionsMissed !== null`, `=== null && … !== null`) answers as before.
//   These two were once thought to fail "line formats" by hand: that hand mutation made the whole
//   condition `true`, a different mutant, which Stryker also makes and which that test kills.

const c = (covered: number, missed: number) => ({ covered, missed });
const none: Counters = { instruction: null, branch: null, line: null, complexity: null, method: null, class: null };
const jvm = (instruction: [number, number], method: [number, number] | null = [1, 0]): Counters => ({
  instruction: c(...instruction),
  branch: c(0, 0),
  line: c(1, 0),
  complexity: c(1, 0),
  method: method && c(...method),
  class: c(0, 0),
});
const reported = (name: string, signature: string | null, startLine: number | null, counters: Counters) =>
  ({ name, signature, startLine, endLine: null, counters }) as MethodCoverage;
const src = (cls: string | null, name: string, signature: string | null, startLine: number, endLine: number) =>
  ({ class: cls, name, signature, startLine, endLine, bodyHash: '' }) as SourceMethod;
const changed = (m: SourceMethod, file = 'X.java'): ChangedMethod => ({
  ...m,
  file,
  status: 'modified',
  changedLines: [],
});

function jacoco(classes: Record<string, MethodCoverage[]>): Coverage {
  return {
    format: 'jacoco',
    counters: none,
    files: [
      {
        path: 'X.java',
        language: 'java',
        lines: [],
        counters: none,
        classes: Object.entries(classes).map(([name, methods]) => ({ name, methods, counters: none })),
      },
    ],
  };
}

/** The instruction counters each changed method gets, and whether it was measured. */
function instructions(report: Coverage, methods: ChangedMethod[], head: SourceMethod[] = methods) {
  const result = incrementalCoverage(methods, report, new Map([['X.java', head]]));
  return result.methods.map((m) => (m.measured ? m.counters.instruction : 'unmeasured'));
}

describe('JaCoCo: the report methods a changed method stands for', () => {
  it('without a match by name, takes the report methods starting in its range that no nested method claims', () => {
    const outer = src('X', 'outer', '()V', 1, 20);
    const inner = src('X$1', 'call', '()V', 10, 15);
    const report = jacoco({
      X: [
        reported('a', '()V', 3, jvm([2, 1])),
        reported('b', '()V', 12, jvm([5, 0])),
        reported('c', '()V', 25, jvm([7, 0])),
        reported('d', '()V', null, jvm([9, 0])),
      ],
    });
    expect(instructions(report, [changed(outer)], [outer, inner])).toEqual([c(2, 1)]);
    // Without the head's methods nothing is known to be nested: both a and b.
    expect(instructions(report, [changed(outer)], [])).toEqual([c(7, 1)]);
  });

  it('without a match by name, takes the report methods starting on its first and on its last line', () => {
    const outer = src('X', 'outer', '()V', 5, 20);
    const inner = src('X$1', 'call', '()V', 10, 15);
    const report = jacoco({
      X: [
        reported('a', '()V', 4, jvm([64, 0])),
        reported('b', '()V', 5, jvm([1, 0])),
        reported('c', '()V', 10, jvm([32, 0])),
        reported('d', '()V', 20, jvm([0, 2])),
        reported('e', '()V', 21, jvm([16, 0])),
      ],
    });
    expect(instructions(report, [changed(outer)], [outer, inner])).toEqual([c(1, 2)]);
  });

  it('without a descriptor, takes the same-named methods starting in its range, edges included', () => {
    const run = src('X', 'run', null, 5, 10);
    const report = jacoco({
      X: [
        reported('run', '()V', 4, jvm([1, 0])),
        reported('run', '(I)V', 5, jvm([0, 2])),
        reported('helper', '()V', 7, jvm([16, 0])),
        reported('run', '(J)V', 10, jvm([0, 4])),
        reported('run', '(D)V', 11, jvm([8, 0])),
      ],
      Other: [reported('run', '(S)V', 6, jvm([32, 0]))],
    });
    expect(instructions(report, [changed(run)])).toEqual([c(0, 6)]);
  });

  it('without a descriptor, stands for its one same-named method wherever that starts, not for one of two', () => {
    const count = src('X', 'count', null, 2, 2);
    expect(instructions(jacoco({ X: [reported('count', '()I', 40, jvm([3, 1]))] }), [changed(count)])).toEqual([
      c(3, 1),
    ]);
    const two = jacoco({ X: [reported('count', '()I', 40, jvm([3, 1])), reported('count', '(I)I', 50, jvm([1, 1]))] });
    expect(instructions(two, [changed(count)])).toEqual(['unmeasured']);
  });

  it('with a descriptor, takes the report method of that descriptor wherever it starts', () => {
    const run = src('X', 'run', '()V', 5, 10);
    const report = jacoco({ X: [reported('run', '()V', 20, jvm([3, 0])), reported('run', '(I)V', 7, jvm([0, 5]))] });
    expect(instructions(report, [changed(run)])).toEqual([c(3, 0)]);
  });

  it('with a descriptor the report lacks, is unmeasured even when one method has its name', () => {
    const count = src('X', 'count', '(J)I', 2, 3);
    expect(instructions(jacoco({ X: [reported('count', '()I', 40, jvm([3, 1]))] }), [changed(count)])).toEqual([
      'unmeasured',
    ]);
  });

  it('a descriptor-less constructor piece stands for the constructors starting in it, else for all', () => {
    const ctors = [reported('<init>', '()V', 5, jvm([2, 0])), reported('<init>', '(I)V', 20, jvm([0, 3]))];
    const report = jacoco({ X: ctors });
    expect(instructions(report, [changed(src('X', '<init>', null, 4, 6))])).toEqual([c(2, 0)]);
    expect(instructions(report, [changed(src('X', '<init>', null, 1, 1))])).toEqual([c(2, 3)]);
  });

  it('takes the lambdas javac made in it, also when the report lacks the method itself', () => {
    const report = jacoco({
      X: [
        reported('lambda$run$0', '(I)V', 7, jvm([3, 0])),
        reported('other', '()V', 8, jvm([0, 9])),
        reported('lambda$run$1', '(I)V', 30, jvm([0, 5])),
        reported('<init>', '()V', 40, jvm([1, 0])),
        reported('lambda$new$0', '()V', 41, jvm([0, 2])),
        reported('<clinit>', '()V', 50, jvm([4, 0])),
        reported('lambda$static$0', '()V', 51, jvm([0, 6])),
      ],
    });
    const methods = [
      changed(src('X', 'run', '()V', 5, 10)),
      changed(src('X', '<init>', '()V', 40, 45)),
      changed(src('X', '<clinit>', '()V', 50, 55)),
    ];
    expect(instructions(report, methods)).toEqual([c(3, 0), c(1, 2), c(4, 6)]);
  });

  it('counts a class whose matched methods carry no method counter as not covered', () => {
    const report = jacoco({ X: [reported('run', '()V', 5, jvm([2, 0], null))] });
    const run = changed(src('X', 'run', '()V', 5, 6));
    const result = incrementalCoverage([run], report, new Map([['X.java', [run]]]));
    expect(result.totals.class).toEqual(c(0, 1));
    expect(result.methods[0]?.covered).toBe(true);
  });

  it('leaves a method with no report method unmeasured, with no counters', () => {
    const run = changed(src('X', 'run', '()V', 5, 6));
    const [only] = incrementalCoverage([run], jacoco({ X: [] }), new Map([['X.java', [run]]])).methods;
    expect([only?.measured, only?.covered, only?.counters]).toEqual([false, false, none]);
  });
});

describe('line formats: counters from the lines in the range', () => {
  const line = (n: number, hits: number, branchesCovered = 0, branchesTotal = 0): LineCoverage => ({
    line: n,
    hits,
    branchesCovered,
    branchesTotal,
    instructionsCovered: null,
    instructionsMissed: null,
  });
  const lcov = (lines: LineCoverage[], functions: MethodCoverage[] = [], branches = true): Coverage => ({
    format: 'lcov',
    counters: { ...none, line: c(0, 0), branch: branches ? c(0, 0) : null },
    files: [
      {
        path: 'X.js',
        language: 'javascript',
        lines,
        counters: none,
        classes: functions.length ? [{ name: 'X.js', methods: functions, counters: none }] : [],
      },
    ],
  });
  const fn = (startLine: number | null, ran: boolean | null) =>
    reported('f', null, startLine, { ...none, method: ran === null ? null : c(ran ? 1 : 0, ran ? 0 : 1) });
  const measure = (report: Coverage, method: SourceMethod, head: SourceMethod[] = [method]) =>
    incrementalCoverage([changed(method, 'X.js')], report, new Map([['X.js', head]])).methods[0];

  it('leaves a method without coverable lines unmeasured, and counts one that never ran as a missed method', () => {
    const report = lcov([line(2, 0), line(3, 0), line(9, 4)]);
    const empty = measure(report, src(null, 'empty', null, 5, 7));
    expect([empty?.measured, empty?.counters.line, empty?.counters.method]).toEqual([false, null, null]);
    const cold = measure(report, src(null, 'cold', null, 1, 4));
    expect([cold?.measured, cold?.covered, cold?.counters.line, cold?.counters.method]).toEqual([
      true,
      false,
      c(0, 2),
      c(0, 1),
    ]);
    expect(cold?.counters.instruction).toBeNull();
    expect(measure(report, src(null, 'warm', null, 8, 9))?.counters.method).toEqual(c(1, 0));
  });

  it('has no branch counter where the report counts no branches', () => {
    const m = measure(lcov([line(2, 1)], [], false), src(null, 'm', null, 1, 3));
    expect([m?.counters.branch, m?.counters.line]).toEqual([null, c(1, 0)]);
  });

  it('sums the function records starting in its own lines, in any order the report lists them', () => {
    const report = lcov(
      [line(1, 1), line(3, 1), line(6, 1), line(11, 1), line(13, 1)],
      [fn(13, true), fn(3, false), fn(null, true), fn(6, null), fn(1, true), fn(11, true), fn(8, true), fn(12, false)],
    );
    const outer = src(null, 'outer', null, 2, 12);
    const nested = src(null, 'nested', null, 8, 9);
    // outer holds 3 (not run), 6 (no counter), 11 (run) and 12 (its last line, not run); 8 is
    // nested's, 1 and 13 are outside.
    expect(measure(report, outer, [outer, nested])?.counters.method).toEqual(c(1, 2));
  });

  it('gives a changed method missing from the head’s methods only the lines no method holds', () => {
    const report = lcov([line(2, 1), line(7, 1), line(11, 0), line(12, 0)]);
    const head = [src(null, 'a', null, 1, 5), src(null, 'b', null, 6, 10)];
    expect(measure(report, src(null, 'c', null, 1, 12), head)?.counters.line).toEqual(c(0, 2));
  });
});

describe('changed lines and line owners', () => {
  it('sorts the changed lines of a JVM method’s joined pieces by number', () => {
    const head = [src('E', '<clinit>', '()V', 10, 12), src('E', '<clinit>', '()V', 5, 9)];
    const file: ChangedFile = {
      path: 'E.java',
      oldPath: null,
      status: 'modified',
      binary: false,
      lines: [9, 10],
      hunks: [],
      deletions: [],
      diffCoverShiftFrom: null,
    };
    const [joined] = changedMethods([file], new Map([['E.java', { head, base: head }]]));
    expect([joined?.startLine, joined?.endLine, joined?.changedLines]).toEqual([5, 12, [9, 10]]);
  });

  it('owns no line before the first, and line 0 when a method starts there', () => {
    const owners = new LineOwners([src(null, 'top', null, 0, 3)]);
    expect([owners.idAt(-1), owners.idAt(0), owners.idAt(4)]).toEqual([-1, 0, -1]);
  });
});

describe('JaCoCo: ranges a merge of XML reports left', () => {
  const branches = (covered: number, missed: number): Counters => ({ ...jvm([1, 0]), branch: c(covered, missed) });
  const ranged = (name: string, startLine: number, counters: Counters, coveredAtMost: number) =>
    ({ ...reported(name, '()V', startLine, counters), bounds: { branch: { coveredAtMost } } }) as MethodCoverage;

  it("a changed method carries its report methods' upper bounds, the totals their sum, and an exact method none", () => {
    const a = src('X', 'a', '()V', 1, 5);
    const b = src('X', 'b', '()V', 6, 9);
    const report = jacoco({ X: [ranged('a', 2, branches(1, 3), 3), reported('b', '()V', 7, branches(2, 0))] });
    const result = incrementalCoverage([changed(a), changed(b)], report, new Map([['X.java', [a, b]]]));
    const [first, second] = result.methods;
    expect(first?.counters.branch).toEqual(c(1, 3));
    expect(first?.bounds).toEqual({ branch: { coveredAtMost: 3 } });
    expect(Object.keys(second ?? {})).not.toContain('bounds');
    expect(result.totals.branch).toEqual(c(3, 3));
    expect(result.bounds).toEqual({ branch: { coveredAtMost: 5 } });
  });

  it('exact report methods give exact totals, with no bounds at all', () => {
    const a = src('X', 'a', '()V', 1, 5);
    const result = incrementalCoverage(
      [changed(a)],
      jacoco({ X: [reported('a', '()V', 2, branches(1, 1))] }),
      new Map(),
    );
    expect(Object.keys(result)).not.toContain('bounds');
    expect(Object.keys(result.methods[0] ?? {})).not.toContain('bounds');
  });
});
