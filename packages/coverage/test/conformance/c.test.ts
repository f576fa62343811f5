import { describe, expect, it } from 'vitest';
import type { Counter } from '../../src/index.ts';
import { readCoverageFile } from '../../src/node/index.ts';
import { type Figure, fixturePath, parseLcovSummary, readFixture, readFixtureJson } from './tool-output.ts';

// C built with gcc --coverage; the same gcov data summarised by lcov 1.16 and by gcovr.
type GcovrFigures = {
  line_covered: number;
  line_total: number;
  branch_covered: number;
  branch_total: number;
  function_covered: number;
  function_total: number;
};
type GcovrSummary = GcovrFigures & { files: (GcovrFigures & { filename: string })[] };

const gcovr = readFixtureJson<GcovrSummary>('c/gcovr-summary.json');

function figure(counter: Counter | null): Figure | null {
  return counter && { covered: counter.covered, total: counter.covered + counter.missed };
}

describe('LCOV tracefile made by lcov 1.16 (geninfo over gcov data)', () => {
  it('has the totals `lcov --summary` prints', async () => {
    const coverage = await readCoverageFile(fixturePath('c/lcov.info'));
    const summary = parseLcovSummary(readFixture('c/lcov-summary.txt'));
    expect(summary.lines?.total).toBeGreaterThan(0);
    expect({
      lines: figure(coverage.counters.line),
      functions: figure(coverage.counters.method),
      branches: figure(coverage.counters.branch),
    }).toEqual(summary);
  });

  it('has the totals gcovr computes from the same gcov data', async () => {
    const coverage = await readCoverageFile(fixturePath('c/lcov.info'));
    expect([
      figure(coverage.counters.line),
      figure(coverage.counters.branch),
      figure(coverage.counters.method),
    ]).toEqual([
      { covered: gcovr.line_covered, total: gcovr.line_total },
      { covered: gcovr.branch_covered, total: gcovr.branch_total },
      { covered: gcovr.function_covered, total: gcovr.function_total },
    ]);
  });
});

describe('Cobertura XML made by gcovr', () => {
  it('has gcovr’s totals and per-file figures from its JSON summary', async () => {
    const coverage = await readCoverageFile(fixturePath('c/gcovr-cobertura.xml'));
    expect([figure(coverage.counters.line), figure(coverage.counters.branch)]).toEqual([
      { covered: gcovr.line_covered, total: gcovr.line_total },
      { covered: gcovr.branch_covered, total: gcovr.branch_total },
    ]);
    const ours = coverage.files.map((file) => ({
      path: file.path,
      line: figure(file.counters.line),
      branch: figure(file.counters.branch),
    }));
    const theirs = gcovr.files.map((file) => ({
      path: file.filename,
      line: { covered: file.line_covered, total: file.line_total },
      branch: { covered: file.branch_covered, total: file.branch_total },
    }));
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect(ours.sort(byPath)).toEqual(theirs.sort(byPath));
  });
});
