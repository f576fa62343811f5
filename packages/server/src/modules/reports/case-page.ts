import type { CaseAnalyticQuery, CaseAnalyticRow } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  AT,
  appNames,
  int,
  iso,
  narrowedByAppsOnly,
  type ReportScope,
  reachFilter,
  scopeFilter,
} from './analytics-scope.ts';

/**
 * The case list (issue 35). Per case of an app: runs (uploads carrying its key), reports and the
 * changed methods of its latest incremental report from report_case_summaries (one row per report and
 * case, written with the report; over apps alone, from app_case_summaries, one row per app and case),
 * and the methods its runs covered over the reports in scope, with
 * those no other case covered, from app_case_method_reach (report_case_methods when days narrow the
 * reports). That last pair is a union over reports, so it
 * cannot be summed from per-report counts: it is counted for the page's cases only (their apps'
 * method rows), unless the list is sorted by it.
 */
const appIds = (apps: readonly { id: string }[]) => `{${apps.map((a) => a.id).join(',')}}`;

/** The uploads in scope (app, test type, environment, the day they arrived). */
export function uploadFilter(scope: ReportScope): SQL {
  const parts: SQL[] = [sql`u.app_id = any(${appIds(scope.apps)}::uuid[])`, sql`u.case_id is not null`];
  if (scope.testType) parts.push(sql`u.test_type = ${scope.testType}`);
  if (scope.envType) parts.push(sql`u.env_type = ${scope.envType}`);
  if (scope.from) parts.push(sql`u.created_at >= ${scope.from}::date`);
  if (scope.to) parts.push(sql`u.created_at < ${scope.to}::date + 1`);
  return sql.join(parts, sql` and `);
}

const SORTS: Record<CaseAnalyticQuery['sortBy'], string> = {
  caseKey: 'case_key',
  runs: 'runs',
  methods: 'methods',
  aloneMethods: 'alone',
  changedMethods: 'changed',
  lastRunAt: 'last_run',
};

/**
 * Per (app, case) of the scope's apps: the distinct methods its rows name over the reports in scope,
 * and how many of them no other case of the app names (`covered(app_id, case_key, methods, alone)`).
 */
function covered(scope: ReportScope): SQL {
  // From the reach rows (one per version, test type and environment, not per report), unless days
  // narrow the reports: then each report's rows by its key (a lateral probe).
  const m =
    scope.from || scope.to
      ? sql`select distinct r.app_id, c.case_key, c.file_path, c.class_name, c.method
      from reports r cross join lateral (select c.case_key, c.file_path, c.class_name, c.method
        from report_case_methods c where c.report_id = r.id offset 0) c
      where ${scopeFilter(scope)}`
      : sql`select distinct a.app_id, a.case_key, a.file_path, a.class_name, a.method from app_case_method_reach a
      where a.app_id = any(${appIds(scope.apps)}::uuid[]) and ${reachFilter(scope, true)}`;
  return sql`m as (${m}),
    owners as (select app_id, file_path, class_name, method, count(*) as n from m group by 1, 2, 3, 4),
    covered as (select m.app_id, m.case_key, count(*)::int as methods, (count(*) filter (where o.n = 1))::int as alone
      from m join owners o using (app_id, file_path, class_name, method) group by 1, 2)`;
}

export async function casePage(
  db: Db,
  scope: ReportScope,
  page: Pick<CaseAnalyticQuery, 'page' | 'perPage' | 'sortBy' | 'sortDesc'>,
): Promise<{ items: CaseAnalyticRow[]; total: number }> {
  if (scope.apps.length === 0) return { items: [], total: 0 };
  const direction = sql.raw(page.sortDesc ? 'desc nulls last' : 'asc nulls first');
  const byCoverage = page.sortBy === 'methods' || page.sortBy === 'aloneMethods';
  const perCase = narrowedByAppsOnly(scope)
    ? sql`reps as (select s.* from app_case_summaries s
        join unnest(${appIds(scope.apps)}::uuid[]) as a(app_id) on a.app_id = s.app_id),
      latest as (select app_id, case_key, latest_version as new_version, changed_methods from reps
        where latest_version is not null)`
    : sql`rep as (select r.id, r.app_id, r.new_version, r.coverage_type, ${AT} as at from reports r
        where ${scopeFilter(scope)}),
      sums as (select rep.app_id, rep.id as report_id, rep.new_version, rep.coverage_type, rep.at, s.case_key,
          s.changed_methods
        from report_case_summaries s join rep on rep.id = s.report_id),
      reps as (select app_id, case_key, count(*)::int as reports from sums group by 1, 2),
      latest as (select distinct on (app_id, case_key) app_id, case_key, new_version, changed_methods from sums
        where coverage_type = 'incremental' order by app_id, case_key, at desc, report_id desc)`;
  const { rows } = await db.execute(sql`with ${perCase},
    runs as (select u.app_id, u.case_id as case_key, count(*)::int as runs, max(u.created_at) as last_run
      from coverage_uploads u where ${uploadFilter(scope)} group by 1, 2),
    keys as (select app_id, case_key from runs union select app_id, case_key from reps
      union select app_id, key from cases where app_id = any(${appIds(scope.apps)}::uuid[])),
    ${byCoverage ? covered(scope) : sql`covered as (select null::uuid as app_id, null::text as case_key, 0 as methods, 0 as alone where false)`},
    rows as (select k.app_id, n.app_name, k.case_key, cs.title, coalesce(runs.runs, 0) as runs, runs.last_run,
        coalesce(reps.reports, 0) as reports, coalesce(cv.methods, 0) as methods, coalesce(cv.alone, 0) as alone,
        l.new_version as latest_version, coalesce(l.changed_methods, 0) as changed
      from keys k join ${appNames(scope)} n on n.app_id = k.app_id
      left join cases cs on cs.app_id = k.app_id and cs.key = k.case_key
      left join runs on runs.app_id = k.app_id and runs.case_key = k.case_key
      left join reps on reps.app_id = k.app_id and reps.case_key = k.case_key
      left join covered cv on cv.app_id = k.app_id and cv.case_key = k.case_key
      left join latest l on l.app_id = k.app_id and l.case_key = k.case_key)
    select *, count(*) over ()::int as total from rows
    order by ${sql.raw(SORTS[page.sortBy])} ${direction}, case_key asc, app_name asc
    limit ${page.perPage} offset ${(page.page - 1) * page.perPage}`);
  const coverage = byCoverage ? null : await pageCoverage(db, scope, rows);
  const items = rows.map((r) => {
    const counted = coverage?.get(`${r.app_id}\u0000${r.case_key}`);
    return {
      appId: String(r.app_id),
      appName: String(r.app_name),
      caseKey: String(r.case_key),
      title: r.title === null ? null : String(r.title),
      runs: int(r.runs),
      lastRunAt: r.last_run === null ? null : iso(r.last_run),
      reports: int(r.reports),
      methods: coverage ? (counted?.methods ?? 0) : int(r.methods),
      aloneMethods: coverage ? (counted?.alone ?? 0) : int(r.alone),
      latestVersion: r.latest_version === null ? null : String(r.latest_version),
      changedMethods: int(r.changed),
    };
  });
  return { items, total: int(rows[0]?.total) };
}

/** The page's cases' methods and methods alone, over the method rows of their apps' reports in scope. */
async function pageCoverage(db: Db, scope: ReportScope, rows: Record<string, unknown>[]) {
  const out = new Map<string, { methods: number; alone: number }>();
  const withReports = rows.filter((r) => int(r.reports) > 0);
  if (withReports.length === 0) return out;
  const apps = scope.apps.filter((a) => withReports.some((r) => String(r.app_id) === a.id));
  const pairs = withReports.map((r) => ({ app_id: String(r.app_id), case_key: String(r.case_key) }));
  const { rows: counted } = await db.execute(sql`with ${covered({ ...scope, apps })}
    select c.* from covered c join json_to_recordset(${JSON.stringify(pairs)}::json) as p(app_id uuid, case_key text)
      on p.app_id = c.app_id and p.case_key = c.case_key`);
  for (const r of counted) out.set(`${r.app_id}\u0000${r.case_key}`, { methods: int(r.methods), alone: int(r.alone) });
  return out;
}
