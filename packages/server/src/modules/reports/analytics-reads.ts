import type { ActivityDay, AppAnalyticQuery, AppVersionRow, CoverageWeek, GroupFigures } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  AT,
  appNames,
  fraction,
  int,
  iso,
  num,
  type ReportScope,
  type Row,
  scopeFilter,
  testTypeOf,
} from './analytics-scope.ts';

/**
 * The heavy reads of the analytics screens over the reports module's tables (issue 35): figures of the
 * latest successful reports, summed as counters (covered and total added, then divided), never averaged.
 */

/** The columns of `reports` the figures read (not r.*: its width made every sort and hash many times larger). */
const SCOPED_COLUMNS = sql.raw(`r.id, r.app_id, r.new_version, r.test_type, r.env_type, r.coverage_type, r.line_covered,
  r.line_total, r.branch_covered, r.branch_total, r.diff_line_covered, r.diff_line_total`);

/** Changed and covered methods of an incremental report `alias`, from its committer summaries. */
const methodsOf = (alias: string) =>
  sql.raw(`left join lateral (select sum(c.changed_methods)::int as changed, sum(c.covered_methods)::int as covered
    from report_committers c where c.report_id = ${alias}.id) m on true`);

const APP_SORTS: Record<AppAnalyticQuery['sortBy'], string> = {
  appName: 'n.app_name',
  version: 'k.new_version',
  lineCoverage: 'f.line_covered::float8 / nullif(f.line_total, 0)',
  diffLineCoverage: 'i.diff_line_covered::float8 / nullif(i.diff_line_total, 0)',
  finishedAt: 'k.at',
};

/** Per app, version and test type: the latest full and incremental report, paged and sorted. */
export async function appVersionPage(
  db: Db,
  scope: ReportScope,
  page: Pick<AppAnalyticQuery, 'page' | 'perPage' | 'sortBy' | 'sortDesc'>,
): Promise<{ items: AppVersionRow[]; total: number }> {
  if (scope.apps.length === 0) return { items: [], total: 0 };
  const latest = (type: string) => sql`select distinct on (r.app_id, r.new_version, r.test_type) r.*
    from scoped r where r.coverage_type = ${type} order by r.app_id, r.new_version, r.test_type, r.at desc, r.id desc`;
  const direction = sql.raw(page.sortDesc ? 'desc nulls last' : 'asc nulls first');
  // The page is cut before the committer summaries are read: only its incremental reports' (not every key's).
  const result = await db.execute(sql`with scoped as (select ${SCOPED_COLUMNS}, ${AT} as at from reports r
        where ${scopeFilter(scope)}),
      keys as (select app_id, new_version, test_type, count(*)::int as reports, max(at) as at from scoped
        group by app_id, new_version, test_type),
      f as (${latest('full')}), i as (${latest('incremental')}),
      page as (select k.*, n.app_name, n.team_name, f.id as full_id, f.line_covered, f.line_total, f.branch_covered,
          f.branch_total, i.id as inc_id, i.diff_line_covered, i.diff_line_total, count(*) over ()::int as total,
          row_number() over (order by ${sql.raw(APP_SORTS[page.sortBy])} ${direction}, n.app_name, k.new_version,
            k.test_type) as ord
        from keys k join ${appNames(scope)} n on n.app_id = k.app_id
          left join f on f.app_id = k.app_id and f.new_version = k.new_version and f.test_type = k.test_type
          left join i on i.app_id = k.app_id and i.new_version = k.new_version and i.test_type = k.test_type
        order by ord limit ${page.perPage} offset ${(page.page - 1) * page.perPage})
    select page.*, m.changed, m.covered from page
      left join lateral (select sum(c.changed_methods)::int as changed, sum(c.covered_methods)::int as covered
        from report_committers c where c.report_id = page.inc_id) m on true
    order by page.ord`);
  return { items: result.rows.map(toAppVersion), total: int(result.rows[0]?.total) };
}

function toAppVersion(r: Row): AppVersionRow {
  return {
    appId: String(r.app_id),
    appName: String(r.app_name),
    teamName: String(r.team_name),
    version: String(r.new_version),
    testType: testTypeOf(r.test_type),
    fullReportId: r.full_id ? String(r.full_id) : null,
    lineCoverage: fraction(r.line_covered, r.line_total),
    branchCoverage: fraction(r.branch_covered, r.branch_total),
    incrementalReportId: r.inc_id ? String(r.inc_id) : null,
    diffLineCoverage: fraction(r.diff_line_covered, r.diff_line_total),
    changedMethods: num(r.changed),
    coveredMethods: num(r.covered),
    reports: int(r.reports),
    finishedAt: iso(r.at),
  };
}

/** Reports finished per day in scope (successful and failed), the last `days` days when no range is given. */
export async function activityByDay(db: Db, scope: ReportScope, days = 30): Promise<ActivityDay[]> {
  if (scope.apps.length === 0) return [];
  const since = scope.from ? sql`` : sql`and ${AT} >= current_date - ${days - 1}::int`;
  const result = await db.execute(sql`select to_char(${AT}, 'YYYY-MM-DD') as day,
      count(*) filter (where r.status = 'SUCCESS')::int as succeeded,
      count(*) filter (where r.status <> 'SUCCESS')::int as failed
    from reports r where ${scopeFilter(scope, { anyStatus: true })} and r.finished_at is not null ${since}
    group by 1 order by 1`);
  return result.rows.map((r) => ({ day: String(r.day), succeeded: int(r.succeeded), failed: int(r.failed) }));
}

/** Per ISO week and test type: full reports' line counters and incremental reports' diff lines, summed. */
export async function coverageByWeek(db: Db, scope: ReportScope, weeks = 26): Promise<CoverageWeek[]> {
  if (scope.apps.length === 0) return [];
  const since = scope.from
    ? sql``
    : sql`and ${AT} >= date_trunc('week', now()) - ${weeks - 1}::int * interval '1 week'`;
  const result = await db.execute(sql`select to_char(date_trunc('week', ${AT}), 'YYYY-MM-DD') as week, r.test_type,
      sum(r.line_covered) filter (where r.coverage_type = 'full') as lc,
      sum(r.line_total) filter (where r.coverage_type = 'full') as lt,
      sum(r.diff_line_covered) filter (where r.coverage_type = 'incremental') as dc,
      sum(r.diff_line_total) filter (where r.coverage_type = 'incremental') as dt, count(*)::int as n
    from reports r where ${scopeFilter(scope)} ${since} group by 1, 2 order by 1, 2`);
  return result.rows.map((r) => ({
    week: String(r.week),
    testType: testTypeOf(r.test_type),
    lineCoverage: fraction(r.lc, r.lt),
    diffLineCoverage: fraction(r.dc, r.dt),
    reports: int(r.n),
  }));
}

export type Standing = {
  appId: string;
  testType: 1 | 2;
  reportId: string;
  version: string;
  lineCoverage: number | null;
  diffLineCoverage: number | null;
};

/** Per app and test type: the latest successful full report, with the latest incremental report's diff figure. */
export async function latestStandings(db: Db, scope: ReportScope): Promise<Standing[]> {
  if (scope.apps.length === 0) return [];
  const latest = (type: string) => sql`select distinct on (r.app_id, r.test_type) ${SCOPED_COLUMNS}, ${AT} as at
    from reports r where ${scopeFilter(scope)} and r.coverage_type = ${type} order by r.app_id, r.test_type, ${AT} desc, r.id desc`;
  const result = await db.execute(sql`with f as (${latest('full')}), i as (${latest('incremental')})
    select coalesce(f.app_id, i.app_id) as app_id, coalesce(f.test_type, i.test_type) as test_type,
      coalesce(f.id, i.id) as id, coalesce(f.new_version, i.new_version) as version,
      f.line_covered, f.line_total, i.diff_line_covered, i.diff_line_total
    from f full join i on i.app_id = f.app_id and i.test_type = f.test_type`);
  return result.rows.map((r) => ({
    appId: String(r.app_id),
    testType: testTypeOf(r.test_type),
    reportId: String(r.id),
    version: String(r.version),
    lineCoverage: fraction(r.line_covered, r.line_total),
    diffLineCoverage: fraction(r.diff_line_covered, r.diff_line_total),
  }));
}

/**
 * Figures per group: by version (`groups` null: the reports' new version is the key) or by the given
 * groups of apps (projects). Each group's latest full report per app and test type, and latest
 * incremental report per app, test type and environment, summed.
 */
export async function groupFigures(
  db: Db,
  scope: ReportScope,
  groups: { key: string; name: string; appIds: string[] }[] | null,
): Promise<GroupFigures[]> {
  if (scope.apps.length === 0) return [];
  const members = groups?.flatMap((g) => g.appIds.map((appId) => ({ key: g.key, app_id: appId }))) ?? [];
  const keyed: SQL = groups
    ? sql`select ${SCOPED_COLUMNS}, ${AT} as at, g.key as gkey from reports r join json_to_recordset(${JSON.stringify(members)}::json)
        as g(key text, app_id uuid) on g.app_id = r.app_id where ${scopeFilter(scope)}`
    : sql`select ${SCOPED_COLUMNS}, ${AT} as at, r.new_version as gkey from reports r where ${scopeFilter(scope)}`;
  const result = await db.execute(sql`with scoped as (${keyed}),
      lf as (select distinct on (gkey, app_id, test_type) * from scoped where coverage_type = 'full'
        order by gkey, app_id, test_type, at desc, id desc),
      li as (select distinct on (gkey, app_id, test_type, env_type) * from scoped where coverage_type = 'incremental'
        order by gkey, app_id, test_type, env_type, at desc, id desc),
      f as (select gkey, sum(line_covered) filter (where test_type = 1) as uc, sum(line_total) filter (where test_type = 1) as ut,
        sum(line_covered) filter (where test_type = 2) as fc, sum(line_total) filter (where test_type = 2) as ft
        from lf group by gkey),
      i as (select li.gkey, sum(li.diff_line_covered) as dc, sum(li.diff_line_total) as dt,
        coalesce(sum(m.changed), 0)::int as changed, coalesce(sum(m.covered), 0)::int as covered from li ${methodsOf('li')}
        group by li.gkey),
      k as (select gkey, count(distinct app_id)::int as apps, count(*)::int as reports, max(at) as last from scoped group by gkey)
    select k.*, f.uc, f.ut, f.fc, f.ft, i.dc, i.dt, i.changed, i.covered
    from k left join f on f.gkey = k.gkey left join i on i.gkey = k.gkey order by k.last desc, k.gkey`);
  return result.rows.map((r) => ({
    key: String(r.gkey),
    name: String(r.gkey),
    apps: int(r.apps),
    unitLineCoverage: fraction(r.uc, r.ut),
    functionalLineCoverage: fraction(r.fc, r.ft),
    diffLineCoverage: fraction(r.dc, r.dt),
    changedMethods: int(r.changed),
    coveredMethods: int(r.covered),
    reports: int(r.reports),
    lastReportAt: r.last ? iso(r.last) : null,
  }));
}
