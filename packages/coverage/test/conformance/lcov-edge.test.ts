import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Counter, type Coverage, mergeCoverage } from '../../src/index.ts';
import { readCoverageFile } from '../../src/node/index.ts';
import { type Figure, fixturePath, parseLcovSummary, readFixture } from './tool-output.ts';

// lcov 1.16's own `--summary` of seeded tracefiles that exercise what real tools write rarely:
// one path over several records, repeated entries, stale LF/LH-style totals, paths with no DA
// line (lcov leaves them out, their functions and branches too). Totals must be lcov's.

const tracefiles = readdirSync(fixturePath('lcov')).filter((name) => name.endsWith('.info'));
const pairs = readdirSync(fixturePath('lcov')).filter((name) => /^pair-\d+\.txt$/.test(name));

/** lcov prints "no data found" for a total of nothing. */
const asLcov = (counter: Counter | null): Figure | null =>
  counter && counter.covered + counter.missed > 0
    ? { covered: counter.covered, total: counter.covered + counter.missed }
    : null;

describe('seeded edge-case tracefiles against lcov --summary', () => {
  it('has the forty tracefiles, some of which lcov refuses whole', () => {
    expect(tracefiles).toHaveLength(40);
    const refused = tracefiles.filter((name) => readFixture(`lcov/${summaryOf(name)}`).includes('no valid records'));
    expect(refused.length).toBeGreaterThan(0);
  });

  it.each(tracefiles)('%s: the totals lcov prints', async (name) => {
    const summary = readFixture(`lcov/${summaryOf(name)}`);
    const coverage = await readCoverageFile(fixturePath(`lcov/${name}`));
    if (summary.includes('no valid records')) {
      expect(coverage.files).toEqual([]);
      return;
    }
    expect(lcovFigures(coverage)).toEqual(parseLcovSummary(summary));
  });
});

describe('seeded pairs merged, against lcov -a and --summary', () => {
  const merged = pairs.filter((pair) => !readFixture(`lcov/${summaryOf(pair)}`).includes('refused'));

  it('has twenty pairs, most of which lcov merges', () => {
    expect(pairs).toHaveLength(20);
    expect(merged.length).toBeGreaterThan(15);
  });

  // lcov -a adds hits per line and per branch, and knows a file's functions by name alone.
  it.each(merged)('%s: the totals of lcov’s merge', async (pair) => {
    const names = readFixture(`lcov/${pair}`).trim().split(' ');
    const runs = await Promise.all(names.map((name) => readCoverageFile(fixturePath(`lcov/${name}`))));
    expect(lcovFigures(mergeCoverage(runs))).toEqual(parseLcovSummary(readFixture(`lcov/${summaryOf(pair)}`)));
  });
});

function lcovFigures(coverage: Coverage) {
  return {
    lines: asLcov(coverage.counters.line),
    functions: asLcov(coverage.counters.method),
    branches: asLcov(coverage.counters.branch),
  };
}

function summaryOf(name: string): string {
  return name.replace(/\.(info|txt)$/, '-summary.txt');
}
