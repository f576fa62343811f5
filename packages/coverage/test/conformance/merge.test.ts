import { beforeAll, describe, expect, it } from 'vitest';
import {
  COUNTER_KINDS,
  type CounterBounds,
  type CounterKind,
  type Counters,
  type Coverage,
  counterTotal,
  type LineCoverage,
  type MethodCoverage,
  mergeCoverage,
} from '../../src/index.ts';
import { readCoverageFile } from '../../src/node/index.ts';
import { fixturePath, parseLcovSummary, readFixture } from './tool-output.ts';

// The real tools merge too: JaCoCo's report over both runs' exec files, and `lcov -a` over two
// tracefiles. The library's mergeCoverage of the separate reports is compared with them.
//
// JaCoCo merges probes; its XML keeps only per-line and per-method sums, so where two runs covered
// different parts of one line the union cannot be known from the XML. mergeCoverage then reports
// the lower bound as `covered` and the upper bound in `bounds` (package README, "Merge"). So every
// figure is compared with JaCoCo's: equal where the merge claims it exact, inside the bounds where not.
const JACOCO_EXACT: readonly CounterKind[] = ['line', 'method', 'class'];

type Bounded = { counters: Counters; bounds?: CounterBounds };

/** Each counter that is JaCoCo's exactly, or brackets it; returns the kinds that are bounds. */
function expectAgrees(ours: Bounded, tool: Bounded, where: string): CounterKind[] {
  const inexact: CounterKind[] = [];
  for (const kind of COUNTER_KINDS) {
    const mine = ours.counters[kind];
    const theirs = tool.counters[kind];
    expect(mine && counterTotal(mine), `${where} ${kind} total`).toBe(theirs && counterTotal(theirs));
    const bound = ours.bounds?.[kind];
    if (!bound) {
      expect(mine, `${where} ${kind}`).toEqual(theirs);
      continue;
    }
    inexact.push(kind);
    expect(mine!.covered, `${where} ${kind} lower bound`).toBeLessThanOrEqual(theirs!.covered);
    expect(bound.coveredAtMost, `${where} ${kind} upper bound`).toBeGreaterThanOrEqual(theirs!.covered);
  }
  return inexact;
}

function coveredLines(coverage: Coverage): Record<string, number[]> {
  return Object.fromEntries(
    coverage.files.map((f) => [f.path, f.lines.filter((l) => l.hits > 0).map((l) => l.line)] as const),
  );
}

describe('JaCoCo: merging the XML of two runs against JaCoCo’s report over both exec files', () => {
  let runs: Coverage[];
  let jacoco: Coverage;

  // Only the reading happens here: each test merges itself, so that scripts/mutation.mjs (Stryker,
  // coverage per test) runs for a mutant of merge.ts only the tests that reach it.
  beforeAll(async () => {
    runs = await Promise.all(
      ['jacoco-main.xml', 'jacoco-cli.xml'].map((name) => readCoverageFile(fixturePath(`jacoco/${name}`))),
    );
    jacoco = await readCoverageFile(fixturePath('jacoco/jacoco.xml'));
  });

  it('covers exactly the lines JaCoCo covers, with the same instructions per line', () => {
    const merged = mergeCoverage(runs);
    expect(coveredLines(merged)).toEqual(coveredLines(jacoco));
    const instructions = (coverage: Coverage) =>
      Object.fromEntries(
        coverage.files.map((f) => [
          f.path,
          f.lines.map((l) => (l.instructionsCovered ?? 0) + (l.instructionsMissed ?? 0)),
        ]),
      );
    expect(instructions(merged)).toEqual(instructions(jacoco));
  });

  for (const kind of JACOCO_EXACT) {
    it(`has JaCoCo’s ${kind} counter exactly`, () => {
      const merged = mergeCoverage(runs);
      expect(merged.bounds?.[kind]).toBeUndefined();
      expect(merged.counters[kind]).toEqual(jacoco.counters[kind]);
    });
  }

  it('brackets JaCoCo’s instruction, branch and complexity counters, and says they are bounds', () => {
    const merged = mergeCoverage(runs);
    expect(expectAgrees(merged, jacoco, 'report')).toEqual(['instruction', 'branch', 'complexity']);
  });

  it('is JaCoCo’s figure, or brackets it, for every file, class and method', () => {
    const merged = mergeCoverage(runs);
    for (const file of merged.files) {
      const toolFile = jacoco.files.find((f) => f.path === file.path)!;
      expectAgrees(file, toolFile, file.path);
      for (const cls of file.classes) {
        const toolClass = toolFile.classes.find((c) => c.name === cls.name)!;
        expectAgrees(cls, toolClass, cls.name);
        for (const method of cls.methods) {
          const key = (m: MethodCoverage) => `${m.name}${m.signature}@${m.startLine}`;
          const toolMethod = toolClass.methods.find((m) => key(m) === key(method))!;
          expectAgrees(method, toolMethod, `${cls.name}#${key(method)}`);
        }
      }
    }
  });

  it('gives a range exactly on the lines where the runs’ best is not JaCoCo’s merged figure', () => {
    const merged = mergeCoverage(runs);
    // Lines where the union is more than the larger run: the XML cannot tell, so they must be bounds.
    for (const file of jacoco.files) {
      const mine = merged.files.find((f) => f.path === file.path)!;
      for (const line of file.lines) {
        const runLines = runs.map((r) =>
          r.files.find((f) => f.path === file.path)?.lines.find((l) => l.line === line.line),
        );
        const best = (pick: (l: LineCoverage) => number) => Math.max(...runLines.map((l) => (l ? pick(l) : 0)));
        const ours = mine.lines.find((l) => l.line === line.line)!;
        expect(ours.instructionsCovered).toBe(best((l) => l.instructionsCovered ?? 0));
        expect(ours.branchesCovered).toBe(best((l) => l.branchesCovered));
        if (line.instructionsCovered! > ours.instructionsCovered!) {
          expect(ours.bounds?.instruction?.coveredAtMost).toBeGreaterThanOrEqual(line.instructionsCovered!);
        }
        if (line.branchesCovered > ours.branchesCovered) {
          expect(ours.bounds?.branch?.coveredAtMost).toBeGreaterThanOrEqual(line.branchesCovered);
        }
      }
    }
  });
});

describe('LCOV: merging two tracefiles against `lcov -a`', () => {
  let runs: Coverage[];
  const summary = parseLcovSummary(readFixture('c/lcov-merged-summary.txt'));

  beforeAll(async () => {
    runs = await Promise.all(
      ['lcov-run-a.info', 'lcov-run-b.info'].map((name) => readCoverageFile(fixturePath(`c/${name}`))),
    );
  });

  it('adds line hits as lcov does', async () => {
    const merged = mergeCoverage(runs);
    const lcov = await readCoverageFile(fixturePath('c/lcov-merged.info'));
    const hits = (coverage: Coverage) => coverage.files.map((f) => [f.path, f.lines.map((l) => [l.line, l.hits])]);
    expect(hits(merged)).toEqual(hits(lcov));
  });

  it('has the line and function totals `lcov --summary` prints for the merged tracefile', () => {
    const merged = mergeCoverage(runs);
    const total = (kind: 'line' | 'method') => {
      const counter = merged.counters[kind]!;
      return { covered: counter.covered, total: counter.covered + counter.missed };
    };
    expect({ lines: total('line'), functions: total('method') }).toEqual({
      lines: summary.lines,
      functions: summary.functions,
    });
  });

  // lcov -a adds each BRDA (line, block, branch) separately; so does the merge of identified branches.
  it('has the branch total `lcov --summary` prints for the merged tracefile', () => {
    const merged = mergeCoverage(runs);
    const counter = merged.counters.branch!;
    expect({ covered: counter.covered, total: counter.covered + counter.missed }).toEqual(summary.branches);
    expect(merged.bounds).toBeUndefined();
  });

  it('has the taken counts and per-line branches of the tracefile `lcov -a` wrote', async () => {
    const merged = mergeCoverage(runs);
    const lcov = await readCoverageFile(fixturePath('c/lcov-merged.info'));
    const branches = (coverage: Coverage) =>
      coverage.files.map((f) => [
        f.path,
        [...(f.branches ?? [])].sort((a, b) => a.line - b.line || a.id.localeCompare(b.id)),
        f.lines.map((l) => [l.line, l.branchesCovered, l.branchesTotal]),
      ]);
    expect(branches(merged)).toEqual(branches(lcov));
  });
});
