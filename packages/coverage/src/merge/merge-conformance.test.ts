import { describe, expect, it } from 'vitest';
import { parseCoverage } from '../formats/parser.ts';
import type { BranchCoverage, Counters, Coverage, FileCoverage, FormatName, LineCoverage } from '../model/coverage.ts';
import { mergeCoverage } from './merge.ts';

// Small worked cases of how the tools merge, one rule of mergeFiles (merge.ts) and of the line walk
// (lines.ts) each, with figures worked out by hand. Each test merges inside itself so that Stryker
// (`npm run mutation`, coverage per test) runs for a mutant only the tests that reach it.
//
// Stryker's last runs: lines.ts 86.09 % (22:25 UTC, 2026-11-28); merge.ts 93.99 % (219 of 233
// killed; 01:18 UTC, 2026-11-29). The survivors cannot change a result (equivalent):
// - lines.ts isSorted (its body emptied, `return false` forced, `return true` → false, `<` → `<=`):
//   the run's lines are then sorted again, which leaves an ordered list as it was (only slower).
// - lines.ts mergeLineDrafts `l.line < line` → `<=`: an equal line sets the same minimum.
// - lines.ts mergeBranches' comparator between ids (`<` → `<=`, and the `a.id > b.id ? 1 : 0` part):
//   two branches with the same line and id are one key of the map, so ids are never equal; and the
//   engine's sort of short lists (binary insertion) only asks whether the comparator is negative.
// - lines.ts `instructionsCovered === null || instructionsMissed === null` variants: the model sets
//   both or neither (JaCoCo lines only), so no report has one without the other.
// - merge.ts guards a later condition already implies (mergeFiles runs on two files or more, and
//   mergeBranches gives branches only when every run has them): `ranges.branch && branches` before
//   missedAreListed (89), which returns true only if every run has branches and a branch counter;
//   missedAreListed's `files[0]?.` (145); branchesOf's `!file.branches` (154, called only when
//   every run has branches); `c.runs[i]?.` (171) behind wholeFile.
// - merge.ts `drafts.length > 0` (92) and `methods.length > 0` (104) → true or `>= 0`: with no line
//   (no method) the partition is empty, its total 0, so it narrows only a range of total 0, which is
//   already [0, 0]; and when every run counts 0 of 0 methods, summing none gives their union's 0 of 0.
// - merge.ts wholeFile (165): `c.runs.length === files.length` → true (or `||`): a class missing
//   from a run has no counters at that run's index, so sameAsFile is false anyway; `every` → `some`
//   or `=== 1` → true: a class equal to its file in every run while the file lists other classes
//   means the others count nothing (a file's figures are its classes' sums), so the file's merged
//   figure is the class's too.
// merge-guards.test.ts kills the others: runs lacking a counter another has, a class counting a
// kind its file does not, methods without their own counter, Java overloads, absent keys.

const none: Counters = { instruction: null, branch: null, line: null, complexity: null, method: null, class: null };

const line = (n: number, hits: number, covered = 0, total = 0): LineCoverage => ({
  line: n,
  hits,
  branchesCovered: covered,
  branchesTotal: total,
  instructionsCovered: null,
  instructionsMissed: null,
});

const fileOf = (lines: LineCoverage[], counters: Partial<Counters>, branches?: BranchCoverage[]): FileCoverage => ({
  path: 'a.py',
  language: 'python',
  lines,
  classes: [],
  counters: { ...none, ...counters },
  ...(branches ? { branches } : {}),
});

const mergeFiles = (format: FormatName, files: FileCoverage[]): Coverage =>
  mergeCoverage(files.map((f) => ({ format, files: [f], counters: none })));

const figures = (c: Coverage) => ({ counters: c.counters, bounds: c.bounds ?? null });

describe('merging lines (Cobertura: lines without branch identities)', () => {
  it('recomputes the line counter from the merged lines when each run counted its lines', () => {
    const a = fileOf([line(1, 1), line(2, 0)], { line: { covered: 1, missed: 1 } });
    const b = fileOf([line(1, 0), line(2, 3)], { line: { covered: 1, missed: 1 } });
    const merged = mergeFiles('cobertura', [a, b]);
    expect(merged.files[0]?.lines.map((l) => [l.line, l.hits])).toEqual([
      [1, 1],
      [2, 3],
    ]);
    expect(figures(merged)).toEqual({ counters: { ...none, line: { covered: 2, missed: 0 } }, bounds: null });
  });

  it('keeps the union of the runs’ line counters when one run counts lines it does not list', () => {
    const a = fileOf([line(1, 1), line(2, 0)], { line: { covered: 1, missed: 1 } });
    const b = fileOf([line(1, 0), line(2, 3)], { line: { covered: 1, missed: 2 } });
    expect(figures(mergeFiles('cobertura', [a, b]))).toEqual({
      counters: { ...none, line: { covered: 1, missed: 2 } },
      bounds: { line: { coveredAtMost: 2 } },
    });
  });

  it('gives no line counter when no run has one, whatever the lines', () => {
    const merged = mergeFiles('cobertura', [fileOf([line(1, 1)], {}), fileOf([line(1, 0)], {})]);
    expect(merged.counters).toEqual(none);
    expect(merged.files[0]?.lines).toEqual([line(1, 1)]);
  });

  it('sorts a run’s lines listed out of order before walking them', () => {
    const a = fileOf([line(2, 1), line(1, 0)], { line: { covered: 1, missed: 1 } });
    const b = fileOf([line(1, 5), line(2, 0), line(3, 0)], { line: { covered: 1, missed: 2 } });
    const merged = mergeFiles('cobertura', [a, b]);
    expect(merged.files[0]?.lines.map((l) => [l.line, l.hits])).toEqual([
      [1, 5],
      [2, 1],
      [3, 0],
    ]);
    expect(merged.counters.line).toEqual({ covered: 2, missed: 1 });
    const c = fileOf([line(3, 1), line(1, 1), line(2, 1)], { line: { covered: 3, missed: 0 } });
    const three = mergeFiles('cobertura', [b, c]).files[0]?.lines.map((l) => [l.line, l.hits]);
    expect(three).toEqual([
      [1, 6],
      [2, 1],
      [3, 1],
    ]);
  });

  it('narrows the file’s branch range to the sum of its lines’ when the lines account for all branches', () => {
    // Line 1: run b took both of its branches; line 2: run a did. The file's union alone says 3 to 4.
    const a = fileOf([line(1, 1, 1, 2), line(2, 1, 2, 2)], { branch: { covered: 3, missed: 1 } });
    const b = fileOf([line(1, 1, 2, 2), line(2, 1, 0, 2)], { branch: { covered: 2, missed: 2 } });
    const merged = mergeFiles('cobertura', [a, b]);
    expect(merged.files[0]?.lines.map((l) => [l.branchesCovered, l.branchesTotal, l.bounds ?? null])).toEqual([
      [2, 2, null],
      [2, 2, null],
    ]);
    expect(figures(merged)).toEqual({ counters: { ...none, branch: { covered: 4, missed: 0 } }, bounds: null });
  });

  it('bounds a line whose runs took different branches, at most the sum of what each took', () => {
    const a = fileOf([line(1, 1, 1, 3)], { branch: { covered: 1, missed: 2 } });
    const b = fileOf([line(1, 1, 1, 3)], { branch: { covered: 1, missed: 2 } });
    const merged = mergeFiles('cobertura', [a, b]);
    expect(merged.files[0]?.lines[0]).toEqual({ ...line(1, 2, 1, 3), bounds: { branch: { coveredAtMost: 2 } } });
    expect(figures(merged)).toEqual({
      counters: { ...none, branch: { covered: 1, missed: 2 } },
      bounds: { branch: { coveredAtMost: 2 } },
    });
    // Merged again with a third run, the line's upper bound is read back: at most 2 + 1.
    const again = mergeFiles('cobertura', [merged.files[0] as FileCoverage, a]);
    expect(again.files[0]?.lines[0]?.bounds).toEqual({ branch: { coveredAtMost: 3 } });
  });
});

const arc = (l: number, id: string, hits: number): BranchCoverage => ({ line: l, id, hits });

describe('merging identified branches', () => {
  it('counts the merged branches exactly when each run counted its listed branches (lcov -a)', () => {
    const a = fileOf([line(1, 1, 1, 2)], { branch: { covered: 1, missed: 1 } }, [arc(1, '0,0', 1), arc(1, '0,1', 0)]);
    const b = fileOf([line(1, 1, 1, 2)], { branch: { covered: 1, missed: 1 } }, [arc(1, '0,0', 0), arc(1, '0,1', 2)]);
    const merged = mergeFiles('lcov', [a, b]);
    expect(merged.files[0]?.branches).toEqual([arc(1, '0,0', 1), arc(1, '0,1', 2)]);
    expect(merged.files[0]?.lines).toEqual([line(1, 2, 2, 2)]);
    // A branch on a line no run lists (BRDA without DA) counts in the file, on no line.
    const gap = (hits: number) =>
      fileOf([line(1, 1), line(3, hits)], { line: { covered: 1 + Math.sign(hits), missed: 1 - Math.sign(hits) } }, [
        arc(2, '0,0', hits),
        arc(3, '0,0', 1),
      ]);
    const lines = mergeFiles('lcov', [gap(0), gap(1)]).files[0]?.lines;
    expect(lines?.map((l) => [l.line, l.branchesCovered, l.branchesTotal])).toEqual([
      [1, 0, 0],
      [3, 1, 1],
    ]);
    expect(figures(merged)).toEqual({ counters: { ...none, branch: { covered: 2, missed: 0 } }, bounds: null });
  });

  it('orders the merged branches by line, then identity, whatever order the runs gave', () => {
    const a = fileOf([], {}, [arc(7, '1', 1), arc(5, 'b', 0), arc(5, 'c', 2), arc(5, 'a', 0)]);
    const b = fileOf([], {}, [arc(12, 'a', 0), arc(2, 'z', 1), arc(5, 'a', 3)]);
    const merged = mergeFiles('lcov', [a, b]);
    expect(merged.files[0]?.branches).toEqual([
      arc(2, 'z', 1),
      arc(5, 'a', 3),
      arc(5, 'b', 0),
      arc(5, 'c', 2),
      arc(7, '1', 1),
      arc(12, 'a', 0),
    ]);
  });

  // coverage.py lists arcs it did not predict (a generator's self-arc) among the executed ones only.
  const predicted = (taken: [number, number], extra: BranchCoverage[] = []) => {
    const covered = taken.filter((hits) => hits > 0).length;
    return fileOf([line(1, 1, covered, 2), line(5, 1)], { branch: { covered, missed: 2 - covered } }, [
      arc(1, '1>2', taken[0]),
      arc(1, '1>3', taken[1]),
      ...extra,
    ]);
  };

  it('counts as missed the branches no run took when each run lists every branch it missed (coverage.py)', () => {
    const merged = mergeFiles('coveragepy', [predicted([1, 0], [arc(5, '5>5', 1)]), predicted([0, 1])]);
    expect(figures(merged)).toEqual({ counters: { ...none, branch: { covered: 2, missed: 0 } }, bounds: null });
    const one = mergeFiles('coveragepy', [predicted([1, 0], [arc(5, '5>5', 1)]), predicted([1, 0])]);
    expect(one.counters.branch).toEqual({ covered: 1, missed: 1 });
  });

  it('does not trust the listed misses when the runs count different numbers of branches', () => {
    const other = fileOf([line(1, 0, 0, 3)], { branch: { covered: 0, missed: 3 } }, [
      arc(1, '1>2', 0),
      arc(1, '1>3', 0),
      arc(1, '1>4', 0),
    ]);
    const merged = mergeFiles('coveragepy', [predicted([1, 0], [arc(5, '5>5', 1)]), other]);
    expect(merged.counters.branch).toEqual({ covered: 1, missed: 2 });
  });
});

describe('merging functions (LCOV)', () => {
  const lcov = (records: string) => parseCoverage(`SF:a.c\n${records}end_of_record\n`);

  it('knows a function by its name alone and counts one only a run lists, as lcov -a does', () => {
    const a = lcov('FN:1,f\nFNDA:1,f\nFNF:1\nFNH:1\nDA:1,1\nDA:2,0\nLF:2\nLH:1\n');
    const b = lcov('FN:2,f\nFN:5,g\nFNDA:0,f\nFNDA:2,g\nFNF:2\nFNH:1\nDA:1,0\nDA:2,0\nDA:5,2\nLF:3\nLH:1\n');
    const merged = mergeCoverage([a, b]);
    expect(merged.counters.method).toEqual({ covered: 2, missed: 0 });
    expect(merged.counters.line).toEqual({ covered: 2, missed: 1 });
    const file = merged.files[0] as FileCoverage;
    expect(file.classes.map((c) => [c.methods.map((m) => [m.name, m.startLine]), c.counters])).toEqual([
      [
        [
          ['f', 1],
          ['g', 5],
        ],
        file.counters,
      ],
    ]);
  });

  it('counts every function any run lists when the runs list different ones, not the larger run’s count', () => {
    const a = lcov('FN:1,f\nFN:3,h\nFNDA:1,f\nFNDA:0,h\nFNF:2\nFNH:1\nDA:1,1\nDA:3,0\n');
    const b = lcov('FN:1,f\nFN:5,g\nFNDA:0,f\nFNDA:4,g\nFNF:2\nFNH:1\nDA:1,0\nDA:5,4\n');
    const merged = mergeCoverage([a, b]);
    expect(figures(merged)).toMatchObject({ counters: { method: { covered: 2, missed: 1 } }, bounds: null });
    const methods = merged.files[0]?.classes[0]?.methods.map((m) => [m.name, m.counters.method]);
    expect(methods).toEqual([
      ['f', { covered: 1, missed: 0 }],
      ['g', { covered: 1, missed: 0 }],
      ['h', { covered: 0, missed: 1 }],
    ]);
  });
});

describe('merging classes and methods (Cobertura: classes with methods, counters as sums)', () => {
  const method = (name: string, hit: boolean) => ({
    name,
    signature: '()V',
    startLine: name === 'm1' ? 1 : 2,
    endLine: null,
    counters: { ...none, method: { covered: hit ? 1 : 0, missed: hit ? 0 : 1 } },
  });
  /** One class C over lines 1 (m1) and 2 (m2); `classLine` is the class's own line counter. */
  const run = (first: boolean, fileMethods: Counters['method'], classLine?: Counters['line']) => {
    const lines = [line(1, first ? 1 : 0), line(2, first ? 0 : 1)];
    const counters = { ...none, line: { covered: 1, missed: 1 }, method: fileMethods };
    const cls = {
      name: 'C',
      methods: [method('m1', first), method('m2', !first)],
      counters: { ...counters, line: classLine ?? counters.line, method: { covered: 1, missed: 1 } },
    };
    return { ...fileOf(lines, counters), classes: [cls] };
  };

  it('gives a class standing for its whole file the merged file’s figures, and its methods’ sum', () => {
    const merged = mergeFiles('cobertura', [
      run(true, { covered: 1, missed: 1 }),
      run(false, { covered: 1, missed: 1 }),
    ]);
    const cls = merged.files[0]?.classes[0];
    expect(figures(merged)).toMatchObject({
      counters: { line: { covered: 2, missed: 0 }, method: { covered: 2, missed: 0 } },
      bounds: null,
    });
    expect(cls?.counters).toEqual({ ...none, line: { covered: 2, missed: 0 }, method: { covered: 2, missed: 0 } });
    expect(cls?.bounds).toBeUndefined();
    expect(cls?.methods.map((m) => [m.name, m.counters.method])).toEqual([
      ['m1', { covered: 1, missed: 0 }],
      ['m2', { covered: 1, missed: 0 }],
    ]);
  });

  it('keeps the union for a class whose figures are not its file’s', () => {
    const own = { covered: 1, missed: 0 };
    const merged = mergeFiles('cobertura', [
      run(true, { covered: 1, missed: 1 }, own),
      run(false, { covered: 1, missed: 1 }, own),
    ]);
    expect(merged.files[0]?.classes[0]?.counters.line).toEqual({ covered: 1, missed: 0 });
    expect(merged.counters.line).toEqual({ covered: 2, missed: 0 });
  });

  it('keeps the file’s method range when its counter counts methods no class lists', () => {
    const merged = mergeFiles('cobertura', [
      run(true, { covered: 1, missed: 2 }),
      run(false, { covered: 1, missed: 2 }),
    ]);
    expect(figures(merged)).toMatchObject({
      counters: { method: { covered: 1, missed: 2 } },
      bounds: { method: { coveredAtMost: 2 } },
    });
    expect(merged.files[0]?.classes[0]?.counters.method).toEqual({ covered: 2, missed: 0 });
  });
});
