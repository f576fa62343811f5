import { describe, expect, it } from 'vitest';
import { catchError } from '../../test/fixtures/catch-error.ts';
import type { Counters, Coverage, FileCoverage } from '../model/coverage.ts';
import { mergeCoverage } from './merge.ts';

// What mergeCoverage does around the figures: which files and source roots the merged report
// keeps, in which order, and how it refuses reports it cannot merge. merge.test.ts and the
// property tests check the figures; scripts/mutation.mjs runs this file with them against merge.ts.

const none: Counters = { instruction: null, branch: null, line: null, complexity: null, method: null, class: null };
const file = (path: string, covered: number, missed: number): FileCoverage => ({
  path,
  language: 'c',
  lines: [],
  classes: [],
  counters: { ...none, line: { covered, missed } },
});
const report = (files: FileCoverage[], sourceRoots?: string[]): Coverage => ({
  format: 'cobertura',
  files,
  counters: none,
  ...(sourceRoots ? { sourceRoots } : {}),
});

describe('mergeCoverage around the figures', () => {
  it('keeps every source root once, sorted, and none when no report names one', () => {
    const merged = mergeCoverage([report([], ['/b/src', '/a/src']), report([]), report([], ['/a/src'])]);
    expect(merged.sourceRoots).toEqual(['/a/src', '/b/src']);
    expect('sourceRoots' in mergeCoverage([report([]), report([])])).toBe(false);
  });

  it('orders the files by path and keeps a file only one report has as that report gave it', () => {
    const lone = file('z/only.c', 1, 2);
    const merged = mergeCoverage([report([file('m.c', 1, 0), lone]), report([file('a.c', 0, 3)])]);
    expect(merged.files.map((f) => f.path)).toEqual(['a.c', 'm.c', 'z/only.c']);
    expect(merged.files[2]).toBe(lone);
  });

  it('sums the files’ counters into the report’s, leaving a counter no file has absent', () => {
    const merged = mergeCoverage([report([file('a.c', 1, 2), file('b.c', 3, 4)]), report([])]);
    expect(merged.counters).toEqual({ ...none, line: { covered: 4, missed: 6 } });
    expect(merged.bounds).toBeUndefined();
  });

  it('names both formats and the odd one out when the formats differ', () => {
    const error = catchError(() => mergeCoverage([report([]), { ...report([]), format: 'lcov' }]));
    expect([error.code, error.format, error.reason]).toEqual([
      'format-mismatch',
      'lcov',
      'cannot merge lcov with cobertura',
    ]);
    expect(catchError(() => mergeCoverage([])).reason).toBe('nothing to merge');
  });
});
