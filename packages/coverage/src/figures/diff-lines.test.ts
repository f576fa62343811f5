import { describe, expect, it } from 'vitest';
import type { ChangedFile } from '../diff/unified.ts';
import { diffLineCoverage } from './diff-lines.ts';

const file = (path: string, lines: number[], status: ChangedFile['status'] = 'modified'): ChangedFile => ({
  path,
  oldPath: null,
  status,
  binary: false,
  lines,
  hunks: [],
  deletions: [],
  diffCoverShiftFrom: null,
});

describe('diffLineCoverage', () => {
  const hits = new Map([
    [
      'a.py',
      new Map([
        [1, 0],
        [2, 3],
        [4, 0],
      ]),
    ],
  ]);
  it('counts only changed lines the report measures', () => {
    expect(diffLineCoverage([file('a.py', [1, 2, 3])], hits)).toEqual({ covered: 1, total: 2, ratio: 0.5 });
  });
  it('ignores files absent from the report and deleted files', () => {
    expect(diffLineCoverage([file('b.py', [1]), file('a.py', [4], 'deleted')], hits)).toEqual({
      covered: 0,
      total: 0,
      ratio: null,
    });
  });
  it('reads lines from diffCoverShiftFrom on one lower, as diff-cover does', () => {
    const shifted = { ...file('a.py', [1, 2, 3]), diffCoverShiftFrom: 2 };
    // diff-cover looks at lines 1, 3 and 4: two measured, neither covered.
    expect(diffLineCoverage([shifted], hits)).toEqual({ covered: 0, total: 2, ratio: 0 });
  });
  it('gives no ratio, not NaN, for an empty diff', () => {
    expect(diffLineCoverage([], hits).ratio).toBeNull();
  });
});
