import { describe, expect, it } from 'vitest';
import type { Counter, Coverage } from '../../src/index.ts';
import { readCoverageFile } from '../../src/node/index.ts';
import {
  type Figure,
  fixturePath,
  parseCoverageReport,
  parseLcovSummary,
  readFixture,
  readFixtureJson,
  xmlAttribute,
} from './tool-output.ts';

// coverage.py 6.5 with --branch: its JSON totals and `coverage report` table are the reference.
type CoveragePyFigures = {
  covered_lines: number;
  num_statements: number;
  covered_branches: number;
  num_branches: number;
};
type CoveragePyJson = { totals: CoveragePyFigures; files: Record<string, { summary: CoveragePyFigures }> };

const json = readFixtureJson<CoveragePyJson>('python/coverage.json');
const table = parseCoverageReport(readFixture('python/coverage-report.txt'));

function figure(counter: Counter | null): Figure | null {
  return counter && { covered: counter.covered, total: counter.covered + counter.missed };
}

function lineAndBranch(figures: CoveragePyFigures) {
  return {
    line: { covered: figures.covered_lines, total: figures.num_statements },
    branch: { covered: figures.covered_branches, total: figures.num_branches },
  };
}

function ours(coverage: Coverage) {
  return { line: figure(coverage.counters.line), branch: figure(coverage.counters.branch) };
}

describe('coverage.py JSON', () => {
  it('has the totals coverage.py computed', async () => {
    const coverage = await readCoverageFile(fixturePath('python/coverage.json'));
    expect(ours(coverage)).toEqual(lineAndBranch(json.totals));
  });

  it('has each file’s summary', async () => {
    const coverage = await readCoverageFile(fixturePath('python/coverage.json'));
    const files = Object.fromEntries(
      coverage.files.map((f) => [f.path, { line: figure(f.counters.line), branch: figure(f.counters.branch) }]),
    );
    const theirs = Object.fromEntries(Object.entries(json.files).map(([path, f]) => [path, lineAndBranch(f.summary)]));
    expect(files).toEqual(theirs);
  });

  it('agrees with the `coverage report` table, file by file and in total', async () => {
    const coverage = await readCoverageFile(fixturePath('python/coverage.json'));
    const rows = coverage.files.map((f) => ({
      name: f.path,
      statements: f.counters.line!.covered + f.counters.line!.missed,
      missed: f.counters.line!.missed,
      branches: f.counters.branch!.covered + f.counters.branch!.missed,
    }));
    const total = {
      name: 'TOTAL',
      statements: coverage.counters.line!.covered + coverage.counters.line!.missed,
      missed: coverage.counters.line!.missed,
      branches: coverage.counters.branch!.covered + coverage.counters.branch!.missed,
    };
    expect([...rows, total]).toEqual(table);
  });
});

describe('Cobertura XML made by coverage.py', () => {
  it('has the totals on its root element and in coverage.py’s JSON', async () => {
    const coverage = await readCoverageFile(fixturePath('python/coverage.xml'));
    const xml = readFixture('python/coverage.xml');
    expect(ours(coverage)).toEqual({
      line: {
        covered: xmlAttribute(xml, 'coverage', 'lines-covered'),
        total: xmlAttribute(xml, 'coverage', 'lines-valid'),
      },
      branch: {
        covered: xmlAttribute(xml, 'coverage', 'branches-covered'),
        total: xmlAttribute(xml, 'coverage', 'branches-valid'),
      },
    });
    expect(ours(coverage)).toEqual(lineAndBranch(json.totals));
  });

  it('has each file’s figures from coverage.py’s JSON', async () => {
    const coverage = await readCoverageFile(fixturePath('python/coverage.xml'));
    const files = Object.fromEntries(
      coverage.files.map((f) => [f.path, { line: figure(f.counters.line), branch: figure(f.counters.branch) }]),
    );
    const theirs = Object.fromEntries(Object.entries(json.files).map(([path, f]) => [path, lineAndBranch(f.summary)]));
    expect(files).toEqual(theirs);
  });
});

describe('LCOV made by coverage.py', () => {
  // coverage.py 6.5 writes BRDA records for arcs to the function exit with line 0 and a DA line for
  // an empty __init__.py: `lcov --summary` counts both, so it differs from coverage.py's own table.
  it('has the totals `lcov --summary` prints for it', async () => {
    const coverage = await readCoverageFile(fixturePath('python/coverage.lcov'));
    const summary = parseLcovSummary(readFixture('python/coverage-lcov-summary.txt'));
    expect({
      lines: figure(coverage.counters.line),
      functions: figure(coverage.counters.method),
      branches: figure(coverage.counters.branch),
    }).toEqual({ ...summary, functions: summary.functions ?? { covered: 0, total: 0 } });
  });
});
