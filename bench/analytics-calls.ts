import type pg from 'pg';
import { PROJECT_ID } from './gen/analytics-rows.ts';

/**
 * The calls: each analytics read with the filters its screen sends (one team, one app, a version, a type).
 * Team 2 and its app 21 (bench/gen: report n is app n % 1000 + 1's, incremental when n % 4 = 0, with case
 * rows when n % 5 = 0): their reports are incremental and carry case rows, so the committer, case and
 * impact reads have figures to find (team 1's apps have no incremental report, app 5's no case rows).
 */
export async function analyticsCalls(pool: pg.Pool): Promise<Record<string, string>> {
  const { rows } = await pool.query(
    `select md5('t2')::uuid as team, md5('a21')::uuid as app, ${PROJECT_ID('1')} as project`,
  );
  const { team, app, project } = rows[0];
  const a = '/api/analytics';
  return {
    'apps: versions page (one team)': `${a}/apps?teamId=${team}`,
    'apps: versions page (every app, by line coverage)': `${a}/apps?sortBy=lineCoverage&sortDesc=true`,
    'apps: overview (one team)': `${a}/apps/overview?teamId=${team}`,
    'apps: overview (one app, unit)': `${a}/apps/overview?appId=${app}&testType=1`,
    'committers: table (every app, by uncovered)': `${a}/committers?sortBy=uncoveredMethods&sortDesc=true`,
    'committers: table (one team, unit tests)': `${a}/committers?teamId=${team}&testType=1`,
    'committers: trend (one team)': `${a}/committers/trend?teamId=${team}`,
    'mine (every app)': `${a}/mine`,
    'requirements (every app)': `${a}/requirements`,
    'requirements (one project, by changed)': `${a}/requirements?projectId=${project}&sortBy=changedMethods&sortDesc=true`,
    'cases (one team)': `${a}/cases?teamId=${team}`,
    'cases (every app, by runs)': `${a}/cases?sortBy=runs&sortDesc=true`,
    'cases/methods (one app, one case)': `${a}/cases/methods?appId=${app}&caseKey=CASE-3`,
    'cases/impact (one team)': `${a}/cases/impact?teamId=${team}`,
    'cases/impact (one app)': `${a}/cases/impact?appId=${app}`,
    'projects (every project)': `${a}/projects`,
    'projects (one team)': `${a}/projects?teamId=${team}`,
    'versions (one team)': `${a}/versions?teamId=${team}`,
    'versions (every app, one version)': `${a}/versions?version=v7`,
    'cockpit (every app)': `${a}/cockpit`,
    'cockpit (one team)': `${a}/cockpit?teamId=${team}`,
    'project dashboard (one project)': `${a}/projects/${project}`,
  };
}
