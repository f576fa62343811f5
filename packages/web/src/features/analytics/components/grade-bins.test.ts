import type { AppStanding } from '@sextant/api';
import { describe, expect, it } from 'vitest';
import { binOf, binsByTeam, furthestBelow } from './grade-bins.ts';

const grades = { excellentGrade: 0.8, passingGrade: 0.6 };
const standing = (teamName: string, appName: string, lineCoverage: number | null): AppStanding => ({
  appId: appName,
  appName,
  teamId: teamName,
  teamName,
  testType: 1,
  reportId: appName,
  version: 'v1',
  lineCoverage,
  diffLineCoverage: null,
});

describe('grade bins', () => {
  it('puts a value at a grade in that grade, and no figure apart', () => {
    expect([0.8, 0.79, 0.6, 0.59, null].map((v) => binOf(v, grades))).toEqual([
      'excellent',
      'passing',
      'passing',
      'failing',
      'noFigure',
    ]);
  });
  it('counts apps per team and lists those furthest below passing first', () => {
    const all = [standing('b', 'x', 0.1), standing('a', 'y', 0.9), standing('b', 'z', 0.5), standing('a', 'w', null)];
    expect(binsByTeam(all, grades)).toEqual([
      { team: 'a', excellent: 1, passing: 0, failing: 0, noFigure: 1 },
      { team: 'b', excellent: 0, passing: 0, failing: 2, noFigure: 0 },
    ]);
    expect(furthestBelow(all, grades, 5).map((s) => s.appName)).toEqual(['x', 'z']);
  });
});
