import type { RequirementAnalyticQuery, RequirementAnalyticRow } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  AT,
  appNames,
  fraction,
  int,
  narrowedByAppsOnly,
  type ReportScope,
  type Row,
  scopeFilter,
} from './analytics-scope.ts';
import { uploadFilter } from './case-page.ts';

/**
 * Requirement analytics over report_requirements (issue 35): per requirement key, the summaries of the
 * latest successful incremental report of each app, version, test type and environment in scope.
 * A changed method counts once per app (file, class, method), covered per test type when any report
 * of that type covered it; measured per test type when a report of that type has data for it (a
 * method no coverage file lists, such as a test driver's, is changed but measured by neither).
 * A scope narrowed by apps alone (team, project, app) reads those figures per app and key from
 * requirement_app_summaries (kept with the reports); other filters unpack the reports' method rows.
 * Cases run and open risks are counted for the page's keys only, unless the list is sorted by them.
 */
const appIds = (scope: ReportScope) => `{${scope.apps.map((a) => a.id).join(',')}}`;

type Scope = ReportScope & { projectId?: string };

/** Keys as a relation `(key)`, from a JSON array parameter. */
const wantedKeys = (keys: readonly string[]) =>
  sql`(select jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) as key)`;

/** Keys as a list of parameters, `in (…)`: the planner probes an index with it. */
const keyList = (keys: readonly string[]) =>
  sql`(${sql.join(
    keys.map((k) => sql`${k}`),
    sql`, `,
  )})`;

/** The keys of a page and the scope's apps whose reports have rows for them. */
type PageKeys = { keys: readonly string[]; appIds: readonly string[] };

async function pageKeys(db: Db, scope: Scope, keys: readonly string[]): Promise<PageKeys> {
  const { rows } = await db.execute(sql`select distinct r.app_id from report_requirements q
    join reports r on r.id = q.report_id
    where q.requirement_key in ${keyList(keys)} and r.app_id = any(${appIds(scope)}::uuid[])`);
  return { keys, appIds: rows.map((r) => String(r.app_id)) };
}

/**
 * The latest reports' requirement rows in scope (`rq`) and their methods merged per app (`magg`).
 * With `page`, only its keys' rows, and only the reports of the apps holding rows for them.
 */
function base(scope: Scope, page?: PageKeys): SQL {
  const apps = page ? { ...scope, apps: scope.apps.filter((a) => page.appIds.includes(a.id)) } : scope;
  return sql`latest as (select distinct on (r.app_id, r.new_version, r.test_type, r.env_type)
        r.id, r.app_id, r.test_type from reports r
      where ${scopeFilter(apps)} and r.coverage_type = 'incremental'
      order by r.app_id, r.new_version, r.test_type, r.env_type, ${AT} desc, r.id desc),
    rq as (select q.requirement_key, l.app_id, l.test_type, q.commits, q.methods
      from report_requirements q join latest l on l.id = q.report_id
      ${page ? sql`where q.requirement_key in ${keyList(page.keys)}` : sql``}),
    meth as (select rq.requirement_key as key, rq.app_id, rq.test_type, e->>'filePath' as file_path,
        coalesce(e->>'className', '') as class_name, e->>'method' as method, (e->>'covered')::bool as covered,
        (e->>'measured')::bool as measured
      from rq cross join lateral jsonb_array_elements(rq.methods) e),
    magg as (select key, app_id, file_path, class_name, method,
        bool_or(covered) filter (where test_type = 1 and measured) as unit,
        bool_or(covered) filter (where test_type = 2 and measured) as functional
      from meth group by 1, 2, 3, 4, 5)`;
}

/** The requirements listed (`reqs`): the scope's projects' (or the one project's), and those the reports name. */
function listed(scope: Scope, named: SQL): SQL {
  const projectId = scope.projectId ?? null;
  return sql`reqs as (select q.id, q.key, q.title, q.status from requirements q
      where (${projectId}::uuid is null or q.project_id = ${projectId}::uuid)
        and (q.project_id in (select pa.project_id from project_apps pa where pa.app_id = any(${appIds(scope)}::uuid[]))
          or q.key in (${named})))`;
}

/**
 * Per key its figures (`per_key`), the requirements listed (`reqs`) and the keys listed (`keys`): the
 * requirements of the scope's projects and every key the latest reports name.
 */
function figures(scope: Scope): SQL {
  if (!narrowedByAppsOnly(scope)) {
    return sql`${base(scope)}, ${listed(scope, sql`select requirement_key from rq`)},
    keys as (select key from reqs union select requirement_key from rq),
    per_key as (select key, count(*)::int as changed,
        (count(*) filter (where unit is not null))::int as unit_measured, (count(*) filter (where unit))::int as unit_covered,
        (count(*) filter (where functional is not null))::int as functional_measured,
        (count(*) filter (where functional))::int as functional_covered
      from magg group by key)`;
  }
  return sql`per_key as (select s.requirement_key as key, sum(s.changed_methods)::int as changed,
        sum(s.unit_measured)::int as unit_measured, sum(s.unit_covered)::int as unit_covered,
        sum(s.functional_measured)::int as functional_measured, sum(s.functional_covered)::int as functional_covered
      from requirement_app_summaries s join unnest(${appIds(scope)}::uuid[]) as a(app_id) on a.app_id = s.app_id
      group by 1),
    ${listed(scope, sql`select key from per_key`)},
    keys as (select key from reqs union select key from per_key)`;
}

/**
 * Per key of `keys` (beside `reqs` and `magg`): its cases that ran in scope (`case_runs`) and its open
 * coverage risks, named after it or on one of its changed methods (`risks`).
 */
function casesAndRisks(scope: Scope): SQL {
  return sql`case_runs as (select r.key, (count(*) filter (where exists (select 1 from coverage_uploads u
          where u.app_id = c.app_id and u.case_id = c.key and ${uploadFilter(scope)})))::int as cases_run
      from reqs r join cases c on c.requirement_id = r.id where r.key in (select key from keys) group by r.key),
    open_risk as (select i.id, i.app_id, i.requirement, i.file_path, i.method_name || coalesce(i.signature, '') as method
      from risk_items i where i.app_id = any(${appIds(scope)}::uuid[]) and i.kind = 'coverage' and i.state <> 'resolved'),
    risks as (select x.key, count(distinct x.id)::int as open_risks from (
        select k.key, o.id from keys k join open_risk o on o.requirement = k.key
        union all
        select m.key, o.id from magg m join open_risk o
          on o.app_id = m.app_id and o.file_path = m.file_path and o.method = m.method) x
      group by x.key)`;
}

const SORTS: Record<RequirementAnalyticQuery['sortBy'], string> = {
  key: 'key',
  changedMethods: 'changed',
  unitCoverage: 'unit_covered::float8 / nullif(unit_measured, 0)',
  functionalCoverage: 'functional_covered::float8 / nullif(functional_measured, 0)',
  casesRun: 'cases_run',
  openRisks: 'open_risks',
};

export async function requirementPage(
  db: Db,
  scope: Scope,
  page: Pick<RequirementAnalyticQuery, 'page' | 'perPage' | 'sortBy' | 'sortDesc'>,
): Promise<{ items: RequirementAnalyticRow[]; total: number }> {
  if (scope.apps.length === 0) return { items: [], total: 0 };
  const direction = sql.raw(page.sortDesc ? 'desc nulls last' : 'asc nulls first');
  // Sorted by cases run or open risks, every key's are needed; otherwise only the page's.
  const counted = page.sortBy === 'casesRun' || page.sortBy === 'openRisks';
  const extras = counted
    ? sql`${narrowedByAppsOnly(scope) ? sql`${base(scope)},` : sql``} ${casesAndRisks(scope)}`
    : sql`case_runs as (select null::text as key, 0 as cases_run where false),
      risks as (select null::text as key, 0 as open_risks where false)`;
  const { rows } = await db.execute(sql`with ${figures(scope)}, ${extras},
    shown as (select r.key, r.id, r.title, r.status from reqs r
      union all select k.key, null, null, null from keys k where not exists (select 1 from reqs r where r.key = k.key)),
    rows as (select l.key, l.id as requirement_id, l.title, l.status, coalesce(p.changed, 0) as changed,
        coalesce(p.unit_measured, 0) as unit_measured, coalesce(p.unit_covered, 0) as unit_covered,
        coalesce(p.functional_measured, 0) as functional_measured, coalesce(p.functional_covered, 0) as functional_covered,
        coalesce(cr.cases_run, 0) as cases_run, coalesce(rk.open_risks, 0) as open_risks
      from shown l left join per_key p on p.key = l.key
      left join case_runs cr on cr.key = l.key left join risks rk on rk.key = l.key)
    select *, count(*) over ()::int as total from rows
    order by ${sql.raw(SORTS[page.sortBy])} ${direction}, key asc
    limit ${page.perPage} offset ${(page.page - 1) * page.perPage}`);
  if (rows.length === 0) return { items: [], total: 0 };
  const shownKeys = await pageKeys(
    db,
    scope,
    rows.map((r) => String(r.key)),
  );
  const [details, pageCounts] = await Promise.all([
    requirementDetails(db, scope, shownKeys),
    counted ? Promise.resolve(null) : casesAndRisksOf(db, scope, shownKeys),
  ]);
  const items = rows.map((r) => {
    const key = String(r.key);
    return {
      requirementId: r.requirement_id === null ? null : String(r.requirement_id),
      key,
      title: r.title === null ? null : String(r.title),
      status: r.status === null ? null : String(r.status),
      changedMethods: int(r.changed),
      unitMeasured: int(r.unit_measured),
      unitCovered: int(r.unit_covered),
      unitCoverage: fraction(r.unit_covered, r.unit_measured),
      functionalMeasured: int(r.functional_measured),
      functionalCovered: int(r.functional_covered),
      functionalCoverage: fraction(r.functional_covered, r.functional_measured),
      casesRun: pageCounts ? (pageCounts.get(key)?.casesRun ?? 0) : int(r.cases_run),
      openRisks: pageCounts ? (pageCounts.get(key)?.openRisks ?? 0) : int(r.open_risks),
      commits: details.commits.get(key) ?? [],
      methods: details.methods.get(key) ?? [],
      cases: details.cases.get(key) ?? [],
    };
  });
  return { items, total: int(rows[0]?.total) };
}

/** The page's keys' cases run and open risks. */
async function casesAndRisksOf(db: Db, scope: Scope, page: PageKeys) {
  const { rows } = await db.execute(sql`with ${base(scope, page)},
    ${listed(scope, sql`select requirement_key from rq`)},
    keys as ${wantedKeys(page.keys)}, ${casesAndRisks(scope)}
    select k.key, coalesce(cr.cases_run, 0)::int as cases_run, coalesce(rk.open_risks, 0)::int as open_risks
    from keys k left join case_runs cr on cr.key = k.key left join risks rk on rk.key = k.key`);
  return new Map(rows.map((r) => [String(r.key), { casesRun: int(r.cases_run), openRisks: int(r.open_risks) }]));
}

const group = <T>(rows: Row[], map: (r: Row) => T) => {
  const out = new Map<string, T[]>();
  for (const r of rows) out.set(String(r.key), [...(out.get(String(r.key)) ?? []), map(r)]);
  return out;
};

/** The page's requirements' commits, methods and cases. */
async function requirementDetails(db: Db, scope: Scope, page: PageKeys) {
  const wanted = keyList(page.keys);
  const names = appNames(scope);
  const [commits, methods, cases] = await Promise.all([
    db.execute(sql`with ${base(scope, page)}
      select distinct q.requirement_key as key, n.app_name, c->>'sha' as sha, c->>'subject' as subject
      from rq q cross join lateral jsonb_array_elements(q.commits) c join ${names} n on n.app_id = q.app_id
      where q.requirement_key in ${wanted} order by 1, 2, 3`),
    db.execute(sql`with ${base(scope, page)}
      select m.*, n.app_name from magg m join ${names} n on n.app_id = m.app_id
      where m.key in ${wanted}
      order by m.key, n.app_name, m.file_path, m.class_name, m.method`),
    db.execute(sql`select q.key, c.key as case_key, c.title, n.app_name, (select count(*) from coverage_uploads u
        where u.app_id = c.app_id and u.case_id = c.key and ${uploadFilter(scope)})::int as runs
      from requirements q join cases c on c.requirement_id = q.id join ${names} n on n.app_id = c.app_id
      where q.key in ${wanted} order by q.key, c.key`),
  ]);
  return {
    commits: group(commits.rows, (r) => ({
      appName: String(r.app_name),
      sha: String(r.sha),
      subject: String(r.subject),
    })),
    methods: group(methods.rows, (r) => ({
      appName: String(r.app_name),
      filePath: String(r.file_path),
      className: r.class_name === '' ? null : String(r.class_name),
      method: String(r.method),
      unitCovered: r.unit === null ? null : Boolean(r.unit),
      functionalCovered: r.functional === null ? null : Boolean(r.functional),
    })),
    cases: group(cases.rows, (r) => ({
      key: String(r.case_key),
      title: String(r.title),
      appName: String(r.app_name),
      runs: int(r.runs),
    })),
  };
}
