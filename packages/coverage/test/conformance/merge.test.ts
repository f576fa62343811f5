import { beforeAll, describe, expect, it } from 'vitest';
import { COUNTER_KINDS, type CounterKind, type Coverage, mergeCoverage } from '../../src/index.ts';
import { readCoverageFile } from '../../src/node/index.ts';
import { fixturePath, parseLcovSummary, readFixture } from './tool-output.ts';

// The real tools merge too: JaCoCo's report over both runs' exec files, and `lcov -a` over two
// tracefiles. The library's mergeCoverage of the separate reports is compared with them.
//
// Counters marked as gaps differ from the tool today, because mergeCoverage keeps no per-branch or
// per-instruction identity (see the package README, "Merge"). They run as `it.fails`: they still
// compare with the tool, and start failing — to be turned into plain tests — once merge is exact.
const JACOCO_MERGE_GAPS: readonly CounterKind[] = ['instruction', 'branch', 'complexity', 'class'];

function coveredLines(coverage: Coverage): Record<string, number[]> {
  return Object.fromEntries(
    coverage.files.map((f) => [f.path, f.lines.filter((l) => l.hits > 0).map((l) => l.line)] as const),
  );
}

describe('JaCoCo: merging the XML of two runs against JaCoCo’s report over both exec files', () => {
  let merged: Coverage;
  let jacoco: Coverage;

  beforeAll(async () => {
    const runs = await Promise.all(
      ['jacoco-main.xml', 'jacoco-cli.xml'].map((name) => readCoverageFile(fixturePath(`jacoco/${name}`))),
    );
    merged = mergeCoverage(runs);
    jacoco = await readCoverageFile(fixturePath('jacoco/jacoco.xml'));
  });

  it('covers exactly the lines JaCoCo covers, with the same instructions per line', () => {
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

  for (const kind of COUNTER_KINDS) {
    const test = JACOCO_MERGE_GAPS.includes(kind) ? it.fails : it;
    test(`has JaCoCo’s ${kind} counter${JACOCO_MERGE_GAPS.includes(kind) ? ' (known gap)' : ''}`, () => {
      expect(merged.counters[kind]).toEqual(jacoco.counters[kind]);
    });
  }
});

describe('LCOV: merging two tracefiles against `lcov -a`', () => {
  let merged: Coverage;
  const summary = parseLcovSummary(readFixture('c/lcov-merged-summary.txt'));

  beforeAll(async () => {
    const runs = await Promise.all(
      ['lcov-run-a.info', 'lcov-run-b.info'].map((name) => readCoverageFile(fixturePath(`c/${name}`))),
    );
    merged = mergeCoverage(runs);
  });

  it('adds line hits as lcov does', async () => {
    const lcov = await readCoverageFile(fixturePath('c/lcov-merged.info'));
    const hits = (coverage: Coverage) => coverage.files.map((f) => [f.path, f.lines.map((l) => [l.line, l.hits])]);
    expect(hits(merged)).toEqual(hits(lcov));
  });

  it('has the line and function totals `lcov --summary` prints for the merged tracefile', () => {
    const total = (kind: 'line' | 'method') => {
      const counter = merged.counters[kind]!;
      return { covered: counter.covered, total: counter.covered + counter.missed };
    };
    expect({ lines: total('line'), functions: total('method') }).toEqual({
      lines: summary.lines,
      functions: summary.functions,
    });
  });

  // lcov -a adds each BRDA (line, block, branch) separately; the library keeps per-line maxima.
  it.fails('has the branch total `lcov --summary` prints for the merged tracefile (known gap)', () => {
    const counter = merged.counters.branch!;
    expect({ covered: counter.covered, total: counter.covered + counter.missed }).toEqual(summary.branches);
  });
});
