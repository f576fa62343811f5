import { DEFAULT_SETTINGS } from '@sextant/api';
import { emptyCounters } from '@sextant/coverage';
import type { Phase } from '@sextant/coverage/node';
import { describe, expect, it } from 'vitest';
import { phaseSummary } from '../src/commands/coverage.ts';
import { DEFAULT_GRADES } from '../src/grades.ts';
import { candidatesText, counted, coverageTable } from '../src/table.ts';

const grades = { excellent: 0.8, passing: 0.6 };
const report = {
  coverage: {
    format: 'lcov' as const,
    files: [],
    counters: {
      ...emptyCounters(),
      line: { covered: 80, missed: 20 },
      branch: { covered: 7, missed: 3 },
      method: { covered: 59, missed: 41 },
    },
  },
  unmappedFiles: ['../outside.js'],
};

describe('coverage table', () => {
  it('grades with the system settings’ defaults', () => {
    expect(DEFAULT_GRADES).toEqual({
      excellent: DEFAULT_SETTINGS.excellentGrade,
      passing: DEFAULT_SETTINGS.passingGrade,
    });
  });

  it('colours each figure by grade: ≥ excellent green, ≥ passing yellow, else red', () => {
    const text = coverageTable(report, null, { grades, colour: true });
    expect(text).toContain('\u001b[32m80.0%\u001b[0m');
    expect(text).toContain('\u001b[33m70.0%\u001b[0m');
    expect(text).toContain('\u001b[31m59.0%\u001b[0m');
  });

  it('counts the files in words', () => {
    const one = { ...report, coverage: { ...report.coverage, files: [{ path: 'a.js' }] } };
    expect(coverageTable(one as unknown as typeof report, null, { grades, colour: false })).toMatch(
      /^Coverage \(lcov, 1 file\)\n/,
    );
    expect(coverageTable(report, null, { grades, colour: false })).toMatch(/^Coverage \(lcov, 0 files\)\n/);
  });

  it('shows an absent counter as a dash, never 0 %, and lists unmapped files', () => {
    const text = coverageTable(report, null, { grades, colour: false });
    expect(text).toMatch(/ {2}instruction +— +—\n/);
    expect(text).toContain('Not in the repository (1):\n  ../outside.js');
    expect(text).not.toContain('\u001b[');
  });

  it('counts in the singular for one and the plural otherwise', () => {
    expect(counted(1, 'more changed method')).toBe('1 more changed method');
    expect(counted(2, 'file')).toBe('2 files');
    expect(counted(0, 'file')).toBe('0 files');
    expect(counted(3, 'copy', 'copies')).toBe('3 copies');
  });
});

describe('--verbose steps', () => {
  it('lists the steps in the order they finished, rounded to whole ms', () => {
    const times = new Map<Phase, number>([
      ['figures', 30.4],
      ['diff', 10],
      ['report', 20.6],
    ]);
    expect(phaseSummary(times)).toBe('git diff at 10 ms, report read at 21 ms, figures at 30 ms');
  });
});

describe('candidatesText', () => {
  it('names every candidate of an ambiguous path up to four, then the first three and how many more', () => {
    expect(candidatesText(['a', 'b'])).toBe('a or b');
    expect(candidatesText(['a', 'b', 'c', 'd'])).toBe('a or b or c or d');
    expect(candidatesText(['a', 'b', 'c', 'd', 'e'])).toBe('a or b or c or 2 more');
  });
});
