import type { Counter, LineCoverage } from '../model/coverage.ts';

export function counter(covered: number, missed: number): Counter {
  return { covered, missed };
}

/** The line counter of a file's lines: how many were hit, how many not. */
export function lineCounter(lines: readonly LineCoverage[]): Counter {
  let covered = 0;
  for (const line of lines) if (line.hits > 0) covered++;
  return counter(covered, lines.length - covered);
}

/** The branch counter of a file's lines: their covered and missed branches summed. */
export function branchCounter(lines: readonly LineCoverage[]): Counter {
  let covered = 0;
  let total = 0;
  for (const line of lines) {
    covered += line.branchesCovered;
    total += line.branchesTotal;
  }
  return counter(covered, total - covered);
}

/** The sum of counters; null when none is known (a format without that counter). */
export function sumCounters(counters: readonly (Counter | null)[]): Counter | null {
  let result: Counter | null = null;
  for (const c of counters) {
    if (!c) continue;
    result = result ? counter(result.covered + c.covered, result.missed + c.missed) : counter(c.covered, c.missed);
  }
  return result;
}
