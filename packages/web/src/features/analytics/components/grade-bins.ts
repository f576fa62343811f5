import type { AppStanding } from '@sextant/api';

export const BINS = ['excellent', 'passing', 'failing', 'noFigure'] as const;
export type Bin = (typeof BINS)[number];
export const BIN_COLORS: Record<Bin, string> = {
  excellent: '#28c76f',
  passing: '#ff9f43',
  failing: '#ea5455',
  noFigure: '#b9b9c3',
};

type Grades = { excellentGrade: number; passingGrade: number };

/** Which grade (specification point 9) an app's latest full line coverage is in. */
export function binOf(value: number | null, grades: Grades): Bin {
  if (value === null) return 'noFigure';
  if (value >= grades.excellentGrade) return 'excellent';
  if (value >= grades.passingGrade) return 'passing';
  return 'failing';
}

/** Apps per grade for each team, teams in name order. */
export function binsByTeam(standings: readonly AppStanding[], grades: Grades) {
  const teams = new Map<string, Record<Bin, number>>();
  for (const s of standings) {
    const row = teams.get(s.teamName) ?? { excellent: 0, passing: 0, failing: 0, noFigure: 0 };
    row[binOf(s.lineCoverage, grades)]++;
    teams.set(s.teamName, row);
  }
  return [...teams.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([team, bins]) => ({ team, ...bins }));
}

/** The standings below the passing grade, furthest below first. */
export function furthestBelow(standings: readonly AppStanding[], grades: Grades, count: number): AppStanding[] {
  return standings
    .filter((s) => s.lineCoverage !== null && s.lineCoverage < grades.passingGrade)
    .sort((a, b) => (a.lineCoverage ?? 0) - (b.lineCoverage ?? 0))
    .slice(0, count);
}
