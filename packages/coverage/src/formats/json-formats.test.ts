import { describe, expect, it } from 'vitest';
import { catchError } from '../../test/fixtures/catch-error.ts';
import { parseCoverage } from './parser.ts';

const ISTANBUL = {
  '/repo/src/a.js': {
    path: '/repo/src/a.js',
    statementMap: {
      '0': { start: { line: 1, column: 0 }, end: { line: 1, column: 20 } },
      '1': { start: { line: 2, column: 2 }, end: { line: 2, column: 10 } },
      '2': { start: { line: 2, column: 12 }, end: { line: 2, column: 20 } },
      '3': { start: { line: 4, column: 2 }, end: { line: 4, column: 10 } },
    },
    s: { '0': 1, '1': 3, '2': 0, '3': 0 },
    fnMap: {
      '0': { name: 'f', decl: { start: { line: 1 }, end: { line: 1 } }, loc: { start: { line: 1 }, end: { line: 5 } } },
    },
    f: { '0': 1 },
    branchMap: {
      '0': { type: 'if', loc: { start: { line: 2 }, end: { line: 2 } }, locations: [] },
    },
    b: { '0': [3, 0] },
  },
};

describe('Istanbul coverage-final.json', () => {
  it('maps statements, functions and branches', () => {
    const coverage = parseCoverage(JSON.stringify(ISTANBUL));
    expect(coverage.format).toBe('istanbul');
    expect(coverage.counters).toEqual({
      instruction: { covered: 2, missed: 2 },
      branch: { covered: 1, missed: 1 },
      line: { covered: 2, missed: 1 },
      complexity: null,
      method: { covered: 1, missed: 0 },
      class: null,
    });
    const file = coverage.files[0];
    expect(file?.lines.map((l) => [l.line, l.hits, l.branchesCovered, l.branchesTotal])).toEqual([
      [1, 1, 0, 0],
      [2, 3, 1, 2],
      [4, 0, 0, 0],
    ]);
    expect(file?.classes[0]?.methods[0]).toMatchObject({ name: 'f', startLine: 1, endLine: 5 });
  });

  it('refuses a negative count', () => {
    const bad = structuredClone(ISTANBUL);
    (bad['/repo/src/a.js'].s as Record<string, number>)['1'] = -1;
    expect(catchError(() => parseCoverage(JSON.stringify(bad))).code).toBe('bad-number');
  });
});

describe('coverage.py JSON', () => {
  const report = {
    meta: { format: 3, version: '7.4.0', branch_coverage: true },
    files: {
      'pkg/mod.py': {
        executed_lines: [1, 2, 4],
        missing_lines: [5],
        excluded_lines: [7],
        executed_branches: [[2, 4]],
        missing_branches: [[2, 5]],
        summary: { covered_lines: 3, num_statements: 4, num_branches: 2, covered_branches: 1 },
      },
    },
    totals: { covered_lines: 3, num_statements: 4 },
  };

  it('reads executed and missing lines, branches from arcs, counters from the summary', () => {
    const coverage = parseCoverage(JSON.stringify(report));
    expect(coverage.format).toBe('coveragepy');
    expect(coverage.counters.line).toEqual({ covered: 3, missed: 1 });
    expect(coverage.counters.branch).toEqual({ covered: 1, missed: 1 });
    expect(coverage.counters.instruction).toBeNull();
    expect(coverage.files[0]?.lines.map((l) => [l.line, l.hits, l.branchesCovered, l.branchesTotal])).toEqual([
      [1, 1, 0, 0],
      [2, 1, 1, 2],
      [4, 1, 0, 0],
      [5, 0, 0, 0],
    ]);
  });

  it('has a null branch counter for a report made without --branch', () => {
    const plain = {
      meta: { format: 3 },
      files: { 'a.py': { executed_lines: [1], missing_lines: [], summary: { covered_lines: 1, num_statements: 1 } } },
    };
    expect(parseCoverage(JSON.stringify(plain)).counters.branch).toBeNull();
  });
});
