import { describe, expect, it } from 'vitest';
import type {
  BranchCoverage,
  ClassCoverage,
  Counters,
  Coverage,
  FileCoverage,
  LineCoverage,
} from '../model/coverage.ts';
import { mergeCoverage } from './merge.ts';

// mergeFiles (merge.ts) on runs that do not all carry the same counters: a counter one run has and
// another lacks, a method listed without its own counter, a class counting what its file does not.
// The rules are the package README's (a counter not derived from the lines is the union of the runs
// that have it); every figure below is worked out by hand from the runs written next to it.

const none: Counters = { instruction: null, branch: null, line: null, complexity: null, method: null, class: null };

const line = (n: number, hits: number, covered = 0, total = 0): LineCoverage => ({
  line: n,
  hits,
  branchesCovered: covered,
  branchesTotal: total,
  instructionsCovered: null,
  instructionsMissed: null,
});

const fileOf = (
  lines: LineCoverage[],
  counters: Partial<Counters>,
  extra: { classes?: ClassCoverage[]; branches?: BranchCoverage[] } = {},
): FileCoverage => ({
  path: 'a.py',
  language: 'python',
  lines,
  classes: extra.classes ?? [],
  counters: { ...none, ...counters },
  ...(extra.branches ? { branches: extra.branches } : {}),
});

const arc = (l: number, id: string, hits: number): BranchCoverage => ({ line: l, id, hits });

const merge = (format: Coverage['format'], files: FileCoverage[]) =>
  mergeCoverage(files.map((f) => ({ format, files: [f], counters: none })));

describe('merging runs that do not all carry a counter', () => {
  it('keeps the line figure of the one run that counts lines, as it gave it, when another counts none', () => {
    // Run a counts 1 of its 2 lines; run b lists hits on both lines but no line counter. The merged
    // lines say 2 covered, yet only run a counted: its figure is the union, left as it was.
    const a = fileOf([line(1, 1), line(2, 0)], { line: { covered: 1, missed: 1 } });
    const b = fileOf([line(1, 0), line(2, 3)], {});
    const merged = merge('cobertura', [a, b]);
    expect(merged.files[0]?.lines.map((l) => [l.line, l.hits])).toEqual([
      [1, 1],
      [2, 3],
    ]);
    expect(merged.counters.line).toEqual({ covered: 1, missed: 1 });
    // Exact figures: the report carries no `bounds` key at all (not one set to undefined).
    expect('bounds' in merged).toBe(false);
  });

  it('gives the whole exact file, with neither branch identities nor bounds, when nothing is uncertain', () => {
    const a = fileOf([line(1, 1, 1, 2)], { line: { covered: 1, missed: 0 }, branch: { covered: 1, missed: 1 } });
    const b = fileOf([line(1, 0, 0, 2), line(2, 4)], {
      line: { covered: 1, missed: 1 },
      branch: { covered: 0, missed: 2 },
    });
    expect(merge('cobertura', [a, b]).files[0]).toStrictEqual({
      path: 'a.py',
      language: 'python',
      lines: [line(1, 1, 1, 2), line(2, 4)],
      classes: [],
      counters: { ...none, line: { covered: 2, missed: 0 }, branch: { covered: 1, missed: 1 } },
    });
  });
});

describe('merging runs that do not all carry a counter (more)', () => {
  it('recomputes the lines only when each run’s covered and missed both match its lines', () => {
    // Run a misses 1 line as its lines do, but counts 2 covered out of 3: one covered line is not
    // listed. The merged figure is the union: at least 2 of 3 (run a), at most 3.
    const a = fileOf([line(1, 1), line(2, 0)], { line: { covered: 2, missed: 1 } });
    const b = fileOf([line(1, 0), line(2, 1)], { line: { covered: 1, missed: 1 } });
    const merged = merge('cobertura', [a, b]);
    expect(merged.counters.line).toEqual({ covered: 2, missed: 1 });
    expect(merged.bounds).toEqual({ line: { coveredAtMost: 3 } });
  });

  it('keeps the branch figure of the one run that counts branches when another lists its branches uncounted', () => {
    // Both runs name the two branches of line 1 (LCOV BRDA); only run a has BRF/BRH.
    const a = fileOf(
      [line(1, 1, 1, 2)],
      { branch: { covered: 1, missed: 1 } },
      { branches: [arc(1, '0', 1), arc(1, '1', 0)] },
    );
    const b = fileOf([line(1, 1, 1, 2)], {}, { branches: [arc(1, '0', 0), arc(1, '1', 2)] });
    const merged = merge('lcov', [a, b]);
    expect(merged.files[0]?.branches).toEqual([arc(1, '0', 1), arc(1, '1', 2)]);
    expect(merged.files[0]?.lines).toEqual([line(1, 2, 2, 2)]);
    expect(merged.counters.branch).toEqual({ covered: 1, missed: 1 });
  });

  it('does not count a branch as taken when the runs list only the branch they took', () => {
    // Each run counts 2 branches on line 1, 1 taken, and lists the same taken one only: the other
    // branch is missed by both, so 1 of 2 is covered, not 2 (the misses are not all listed).
    const run = () =>
      fileOf([line(1, 1, 1, 2)], { branch: { covered: 1, missed: 1 } }, { branches: [arc(1, '1>2', 1)] });
    expect(merge('coveragepy', [run(), run()]).counters.branch).toEqual({ covered: 1, missed: 1 });
  });
});

const method = (name: string, signature: string | null, startLine: number, counters: Partial<Counters>) => ({
  name,
  signature,
  startLine,
  endLine: null,
  counters: { ...none, ...counters },
});
const hit = (yes: boolean) => ({ method: { covered: yes ? 1 : 0, missed: yes ? 0 : 1 } });
const classOf = (name: string, methods: ClassCoverage['methods'], counters: Partial<Counters>): ClassCoverage => ({
  name,
  methods,
  counters: { ...none, ...counters },
});

describe('merging methods and classes whose runs count differently', () => {
  it('keeps Java overloads apart: outside LCOV a method is its name, signature and line', () => {
    // Cobertura of a class with put(int) and put(String): two methods, each covered by one run.
    const run = (first: boolean) =>
      fileOf(
        [line(3, first ? 1 : 0), line(7, first ? 0 : 1)],
        { method: { covered: 1, missed: 1 } },
        {
          classes: [
            classOf(
              'C',
              [method('put', '(I)V', 3, hit(first)), method('put', '(Ljava/lang/String;)V', 7, hit(!first))],
              { method: { covered: 1, missed: 1 } },
            ),
          ],
        },
      );
    const merged = merge('cobertura', [run(true), run(false)]);
    const methods = merged.files[0]?.classes[0]?.methods;
    expect(methods?.map((m) => [m.signature, m.startLine, m.counters.method])).toEqual([
      ['(I)V', 3, { covered: 1, missed: 0 }],
      ['(Ljava/lang/String;)V', 7, { covered: 1, missed: 0 }],
    ]);
    expect(merged.counters.method).toEqual({ covered: 2, missed: 0 });
  });

  it('gives no method counter to a file or class that counts none, though their methods do', () => {
    const run = (first: boolean) =>
      fileOf(
        [line(1, 1)],
        {},
        { classes: [classOf('C', [method('m1', null, 1, hit(first)), method('m2', null, 2, hit(!first))], {})] },
      );
    const merged = merge('cobertura', [run(true), run(false)]);
    expect(merged.counters.method).toBeNull();
    const cls = merged.files[0]?.classes[0];
    expect(cls?.counters.method).toBeNull();
    expect(cls?.methods.map((m) => m.counters.method)).toEqual([
      { covered: 1, missed: 0 },
      { covered: 1, missed: 0 },
    ]);
  });

  it('keeps the union when a listed method has no counter of its own in any run', () => {
    // m2 carries no method counter: the sum over the methods is unknown, the runs' figures stand.
    const run = (first: boolean) =>
      fileOf(
        [line(1, 1)],
        { method: { covered: 1, missed: 1 } },
        {
          classes: [
            classOf('C', [method('m1', null, 1, hit(first)), method('m2', null, 2, {})], {
              method: { covered: 1, missed: 1 },
            }),
          ],
        },
      );
    const merged = merge('cobertura', [run(true), run(true)]);
    expect(merged.counters.method).toEqual({ covered: 1, missed: 1 });
    expect(merged.files[0]?.classes[0]?.counters.method).toEqual({ covered: 1, missed: 1 });
  });

  it('reads a method without its own counter in one run as counting nothing there', () => {
    // m is covered in run a; run b lists m without a method counter and counts no methods itself.
    const a = fileOf(
      [line(1, 1)],
      { method: { covered: 1, missed: 0 } },
      {
        classes: [classOf('C', [method('m', null, 1, hit(true))], {})],
      },
    );
    const b = fileOf([line(1, 0)], {}, { classes: [classOf('C', [method('m', null, 1, {})], {})] });
    const merged = merge('cobertura', [a, b]);
    expect(merged.counters.method).toEqual({ covered: 1, missed: 0 });
  });

  it('keeps the runs’ union of methods when only one run counts exactly the methods it lists', () => {
    // Run a counts its 2 listed methods; run b counts 3, one not listed. The merge counts 3 methods.
    const run = (first: boolean, counted: { covered: number; missed: number }) =>
      fileOf(
        [line(1, 1)],
        { method: counted },
        {
          classes: [classOf('C', [method('m1', null, 1, hit(first)), method('m2', null, 2, hit(!first))], {})],
        },
      );
    const merged = merge('cobertura', [run(true, { covered: 1, missed: 1 }), run(false, { covered: 1, missed: 2 })]);
    const counter = merged.counters.method;
    expect((counter?.covered ?? 0) + (counter?.missed ?? 0)).toBe(3);
    expect(merged.bounds?.method?.coveredAtMost).toBeGreaterThanOrEqual(2);
  });

  it('keeps a class’s own method figure when it lists no method', () => {
    const run = () => fileOf([line(1, 1)], {}, { classes: [classOf('C', [], { method: { covered: 1, missed: 1 } })] });
    expect(merge('cobertura', [run(), run()]).files[0]?.classes[0]?.counters.method).toEqual({ covered: 1, missed: 1 });
  });

  it('keeps a class’s union when one run’s file counts more than the class, and a counter the file lacks', () => {
    // Run b's file counts a line outside class C (module code); complexity is the class's alone.
    const cls = (covered: number) =>
      classOf('C', [], { line: { covered, missed: 1 }, complexity: { covered: 0, missed: 2 } });
    const a = fileOf([line(1, 1), line(2, 0)], { line: { covered: 1, missed: 1 } }, { classes: [cls(1)] });
    const b = fileOf([line(1, 0), line(2, 1), line(3, 1)], { line: { covered: 2, missed: 1 } }, { classes: [cls(1)] });
    const merged = merge('cobertura', [a, b]);
    expect(merged.counters.line).toEqual({ covered: 3, missed: 0 });
    const counters = merged.files[0]?.classes[0]?.counters;
    expect(counters?.line).toEqual({ covered: 1, missed: 1 });
    expect(counters?.complexity).toEqual({ covered: 0, missed: 2 });
  });
});
