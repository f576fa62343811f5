import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../../test/conformance/tool-output.ts';
import { mergeCoverage } from '../merge/merge.ts';
import type { BranchCoverage, Coverage, FileCoverage } from '../model/coverage.ts';
import { parseCoverage } from './parser.ts';

type IstanbulFile = { path: string; branchMap: Record<string, { loc: Loc }>; b: Record<string, number[]> } & Record<
  string,
  unknown
>;
type Loc = { start: { line: number }; end: { line: number } };
type PyFile = { executed_branches: number[][]; missing_branches: number[][]; summary: Record<string, number> } & Record<
  string,
  unknown
>;
type PyReport = { files: Record<string, PyFile> } & Record<string, unknown>;

const at = (line: number): Loc => ({ start: { line }, end: { line } });

/** An Istanbul file whose statements sit on lines 1–4 and whose branches' counts are the ones given, on lines 2, 3, … */
function istanbul(counts: number[][]): Coverage {
  const branchMap = Object.fromEntries(
    counts.map((_, i) => [String(i), { type: 'if', loc: at(i + 2), locations: [] }]),
  );
  const b = Object.fromEntries(counts.map((c, i) => [String(i), c]));
  const file: IstanbulFile = {
    path: 'src/a.js',
    statementMap: { '0': at(1), '1': at(2), '2': at(3), '3': at(4) },
    s: { '0': 1, '1': 1, '2': 1, '3': 0 },
    fnMap: {},
    f: {},
    branchMap,
    b,
  };
  return parseCoverage(JSON.stringify({ 'src/a.js': file }));
}

/** A coverage.py file whose lines 1–5 ran (5 did not) and whose arcs are split into taken and not taken. */
function coveragePy(taken: number[][], missed: number[][]): Coverage {
  const num = taken.length + missed.length;
  const file: PyFile = {
    executed_lines: [1, 2, 3, 4],
    missing_lines: [5],
    executed_branches: taken,
    missing_branches: missed,
    summary: { covered_lines: 4, num_statements: 5, num_branches: num, covered_branches: taken.length },
  };
  return parseCoverage(JSON.stringify({ meta: { format: 2, branch_coverage: true }, files: { 'pkg/m.py': file } }));
}

/** The same reports as the model held them before branch identities were kept for these formats. */
const withoutIdentities = (report: Coverage): Coverage => ({
  ...report,
  files: report.files.map(({ branches: _, ...file }) => file),
});

/** Per line: [covered, total] counted from the branches, the independent view of the lines' figures. */
function perLine(branches: readonly BranchCoverage[]): Map<number, [number, number]> {
  const byLine = new Map<number, [number, number]>();
  for (const b of branches) {
    const figure = byLine.get(b.line) ?? [0, 0];
    byLine.set(b.line, [figure[0] + (b.hits > 0 ? 1 : 0), figure[1] + 1]);
  }
  return byLine;
}

function expectLinesMatchBranches(file: FileCoverage): void {
  const fromBranches = perLine(file.branches ?? []);
  for (const line of file.lines) {
    const [covered, total] = fromBranches.get(line.line) ?? [0, 0];
    expect([line.line, line.branchesCovered, line.branchesTotal]).toEqual([line.line, covered, total]);
  }
  const covered = (file.branches ?? []).filter((b) => b.hits > 0).length;
  expect(file.counters.branch).toEqual({ covered, missed: (file.branches ?? []).length - covered });
}

describe('Istanbul branch identities', () => {
  it('keeps each outcome of b as branchId,index on its branch’s line, agreeing with the per-line figures', () => {
    const report = istanbul([
      [3, 0],
      [0, 0, 2],
    ]);
    const file = report.files[0] as FileCoverage;
    expect(file.branches).toEqual([
      { line: 2, id: '0,0', hits: 3 },
      { line: 2, id: '0,1', hits: 0 },
      { line: 3, id: '1,0', hits: 0 },
      { line: 3, id: '1,1', hits: 0 },
      { line: 3, id: '1,2', hits: 2 },
    ]);
    expectLinesMatchBranches(file);
  });

  it('merges two runs that took different outcomes of one branch into an exact 2 of 2 (a range without identities)', () => {
    const runs = [istanbul([[1, 0]]), istanbul([[0, 4]])];
    const merged = mergeCoverage(runs);
    const file = merged.files[0] as FileCoverage;
    expect(file.branches).toEqual([
      { line: 2, id: '0,0', hits: 1 },
      { line: 2, id: '0,1', hits: 4 },
    ]);
    expect(file.lines.find((l) => l.line === 2)).toMatchObject({ branchesCovered: 2, branchesTotal: 2 });
    expect(file.lines.some((l) => l.bounds)).toBe(false);
    expect(file.counters.branch).toEqual({ covered: 2, missed: 0 });
    expect(file.bounds?.branch).toBeUndefined();
    expect(merged.bounds?.branch).toBeUndefined();

    const before = mergeCoverage(runs.map(withoutIdentities));
    expect(before.files[0]?.lines.find((l) => l.line === 2)?.bounds).toEqual({ branch: { coveredAtMost: 2 } });
    expect(before.bounds?.branch).toEqual({ coveredAtMost: 2 });
  });

  it('makes no coverable line of a line holding a branch but no statement’s start, as istanbul’s LCOV has no DA there', () => {
    // Statements start on lines 1–4; the third branch is on line 4, the fourth on line 5.
    const report = istanbul([
      [1, 0],
      [0, 0],
      [2, 2],
      [1, 1],
    ]);
    const file = report.files[0] as FileCoverage;
    expect(file.lines.map((l) => [l.line, l.hits, l.branchesCovered, l.branchesTotal])).toEqual([
      [1, 1, 0, 0],
      [2, 1, 1, 2],
      [3, 1, 0, 2],
      [4, 0, 2, 2],
    ]);
    expect(file.counters.line).toEqual({ covered: 3, missed: 1 });
    expect(file.counters.branch).toEqual({ covered: 5, missed: 3 });
    expect(file.branches?.filter((b) => b.line === 5)).toEqual([
      { line: 5, id: '3,0', hits: 1 },
      { line: 5, id: '3,1', hits: 1 },
    ]);
    // Two runs merge: the lines are the statements' lines in both.
    const merged = mergeCoverage([
      report,
      istanbul([
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 0],
      ]),
    ]);
    expect([merged.counters.line, merged.counters.branch]).toEqual([
      { covered: 3, missed: 1 },
      { covered: 5, missed: 3 },
    ]);
    // Statements are not kept one by one, so they make a range; lines and branches are exact.
    expect([merged.bounds?.line, merged.bounds?.branch]).toEqual([undefined, undefined]);
  });

  it('merges two runs that took the same outcome into an exact 1 of 2', () => {
    const merged = mergeCoverage([istanbul([[1, 0]]), istanbul([[5, 0]])]);
    expect(merged.counters.branch).toEqual({ covered: 1, missed: 1 });
    expect(merged.bounds?.branch).toBeUndefined();
    const before = mergeCoverage([istanbul([[1, 0]]), istanbul([[5, 0]])].map(withoutIdentities));
    expect(before.bounds?.branch).toEqual({ coveredAtMost: 2 });
  });

  it('gives, for any runs, each line and the file the union of the outcomes any run took', () => {
    const branchCounts = fc.array(fc.array(fc.nat({ max: 2 }), { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(
        branchCounts.chain((shape) =>
          fc.array(
            fc.tuple(
              ...shape.map((outcomes) =>
                fc.array(fc.nat({ max: 2 }), { minLength: outcomes.length, maxLength: outcomes.length }),
              ),
            ),
            { minLength: 1, maxLength: 4 },
          ),
        ),
        (runs) => {
          const merged = mergeCoverage(runs.map((counts) => istanbul(counts)));
          const file = merged.files[0] as FileCoverage;
          const shape = runs[0] as number[][];
          const taken = shape.map((outcomes, id) =>
            outcomes.map((_, index) => runs.some((run) => ((run[id] as number[])[index] as number) > 0)),
          );
          for (const [id, outcomes] of taken.entries()) {
            const line = file.lines.find((l) => l.line === id + 2);
            // No statement starts on line 5: its branch's outcomes count in the file alone.
            if (id + 2 > 4) {
              expect(line).toBeUndefined();
              continue;
            }
            expect(line && [line.branchesCovered, line.branchesTotal, line.bounds]).toEqual([
              outcomes.filter(Boolean).length,
              outcomes.length,
              undefined,
            ]);
          }
          const covered = taken.flat().filter(Boolean).length;
          expect(merged.counters.branch).toEqual({ covered, missed: taken.flat().length - covered });
          expect(merged.bounds?.branch).toBeUndefined();
        },
      ),
    );
  });

  it('merges c8’s coverage-final.json with a run that took exactly the outcomes it missed: every outcome covered, exactly', () => {
    const text = readFileSync(fixturePath('js/coverage-final.json'), 'utf8');
    const real = JSON.parse(text) as Record<string, IstanbulFile>;
    const other = structuredClone(real);
    for (const file of Object.values(other)) {
      for (const [id, counts] of Object.entries(file.b)) file.b[id] = counts.map((c) => (c > 0 ? 0 : 1));
    }
    const single = parseCoverage(text);
    for (const file of single.files) expectLinesMatchBranches(file);

    const merged = mergeCoverage([single, parseCoverage(JSON.stringify(other))]);
    const outcomes = Object.values(real).reduce((n, f) => n + Object.values(f.b).flat().length, 0);
    expect(merged.counters.branch).toEqual({ covered: outcomes, missed: 0 });
    expect(merged.bounds?.branch).toBeUndefined();
    for (const file of merged.files) {
      expectLinesMatchBranches(file);
      expect(file.lines.every((l) => l.branchesCovered === l.branchesTotal && !l.bounds)).toBe(true);
    }
    // The other run alone covers the complement, so the merged hits per outcome are the sum of both.
    const path = Object.keys(real)[0] as string;
    const hits = (merged.files.find((f) => f.path === path)?.branches ?? []).map((b) => [b.id, b.hits]);
    const expected = Object.entries((real[path] as IstanbulFile).b).flatMap(([id, counts]) =>
      counts.map((c, index) => [`${id},${index}`, c > 0 ? c : 1]),
    );
    expect(new Set(hits.map(String))).toEqual(new Set(expected.map(String)));
  });
});

describe('coverage.py branch identities', () => {
  it('keeps each arc as from->to on its source line, hits 1 taken and 0 missed', () => {
    const report = coveragePy(
      [
        [2, 4],
        [3, -1],
      ],
      [
        [2, 5],
        [3, 4],
      ],
    );
    const file = report.files[0] as FileCoverage;
    expect(file.branches).toEqual([
      { line: 2, id: '2->4', hits: 1 },
      { line: 2, id: '2->5', hits: 0 },
      { line: 3, id: '3->-1', hits: 1 },
      { line: 3, id: '3->4', hits: 0 },
    ]);
    expectLinesMatchBranches(file);
  });

  it('has no branches for a report made without --branch', () => {
    const plain = { files: { 'a.py': { executed_lines: [1], missing_lines: [] } } };
    expect(parseCoverage(JSON.stringify(plain)).files[0]?.branches).toBeUndefined();
  });

  it('merges two runs that took different arcs from one line into an exact 2 of 2 (a range without identities)', () => {
    const runs = [coveragePy([[2, 4]], [[2, 5]]), coveragePy([[2, 5]], [[2, 4]])];
    const merged = mergeCoverage(runs);
    const file = merged.files[0] as FileCoverage;
    expect(file.branches).toEqual([
      { line: 2, id: '2->4', hits: 1 },
      { line: 2, id: '2->5', hits: 1 },
    ]);
    expect(file.lines.find((l) => l.line === 2)).toMatchObject({ branchesCovered: 2, branchesTotal: 2 });
    expect(file.lines.some((l) => l.bounds)).toBe(false);
    expect(merged.counters.branch).toEqual({ covered: 2, missed: 0 });
    expect(merged.bounds?.branch).toBeUndefined();

    const before = mergeCoverage(runs.map(withoutIdentities));
    expect(before.files[0]?.lines.find((l) => l.line === 2)?.bounds).toEqual({ branch: { coveredAtMost: 2 } });
    expect(before.bounds?.branch).toEqual({ coveredAtMost: 2 });
  });

  it('merges two runs that took the same arc into an exact 1 of 2', () => {
    const runs = [coveragePy([[2, 4]], [[2, 5]]), coveragePy([[2, 4]], [[2, 5]])];
    expect(mergeCoverage(runs).counters.branch).toEqual({ covered: 1, missed: 1 });
    expect(mergeCoverage(runs).bounds?.branch).toBeUndefined();
    expect(mergeCoverage(runs.map(withoutIdentities)).bounds?.branch).toEqual({ coveredAtMost: 2 });
  });

  it('merges coverage.py’s own JSON with a run that took exactly the arcs it missed: every line’s arcs covered, exactly', () => {
    const text = readFileSync(fixturePath('python/coverage.json'), 'utf8');
    const real = JSON.parse(text) as PyReport;
    const other = structuredClone(real);
    // The other run took the arcs this one missed and missed the ones it took, but for the
    // self-arcs of generator expressions (24->24), which coverage.py lists as executed only.
    for (const file of Object.values(other.files)) {
      const selfArcs = file.executed_branches.filter(([from, to]) => from === to);
      const taken = file.executed_branches.filter(([from, to]) => from !== to);
      [file.executed_branches, file.missing_branches] = [[...file.missing_branches, ...selfArcs], taken];
      const num = file.summary.num_branches as number;
      file.summary.covered_branches = num - (file.summary.covered_branches as number);
    }
    const single = parseCoverage(text);
    for (const file of single.files) {
      const arcs = real.files[file.path] as PyFile;
      expect(file.branches?.length).toBe(arcs.executed_branches.length + arcs.missing_branches.length);
      const fromBranches = perLine(file.branches ?? []);
      for (const line of file.lines) {
        expect([line.branchesCovered, line.branchesTotal]).toEqual(fromBranches.get(line.line) ?? [0, 0]);
      }
    }

    const merged = mergeCoverage([single, parseCoverage(JSON.stringify(other))]);
    let exactFiles = 0;
    let unpredicted = 0;
    for (const file of merged.files) {
      const arcs = real.files[file.path] as PyFile;
      expect(file.branches?.every((b) => b.hits >= 1)).toBe(true);
      expect(file.branches?.length).toBe(arcs.executed_branches.length + arcs.missing_branches.length);
      for (const line of file.lines) {
        expect(line.bounds).toBeUndefined();
        expect(line.branchesCovered).toBe(line.branchesTotal);
      }
      // coverage.py's summary leaves out arcs its static analysis did not predict (such as 24->24
      // in a comprehension), listed as executed only: the file's counter is exact all the same.
      const summary = arcs.summary as { num_branches: number };
      expect(file.counters.branch).toEqual({ covered: summary.num_branches, missed: 0 });
      expect(file.bounds?.branch).toBeUndefined();
      if (summary.num_branches < arcs.executed_branches.length + arcs.missing_branches.length) unpredicted++;
      if (summary.num_branches > 0) exactFiles++;
    }
    expect(unpredicted).toBeGreaterThan(0);
    expect(exactFiles).toBeGreaterThan(0);
  });
});
