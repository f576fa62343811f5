import type { CaseImpact, CaseMethods, MethodRef } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { AT, appNames, int, type ReportScope, type Row, reachFilter, scopeFilter } from './analytics-scope.ts';

/**
 * Case analytics (issue 35) over what the pipeline keeps of the methods each case's uploads ran:
 * app_case_method_reach (per app, method, case, test type, environment and version, when the first
 * successful report counted) for what cases reached, report_case_methods (per report) for one report's
 * rows, read by key. A method is (app, file, class, method). The case list is case-page.ts.
 */
/** A method row as the case reads give it (the reference reads of the tests too). */
export const methodRef = (r: Row): MethodRef => ({
  appName: String(r.app_name ?? ''),
  filePath: String(r.file_path),
  className: r.class_name === null || r.class_name === r.file_path ? null : String(r.class_name),
  method: String(r.method),
});

/** At most this many methods in each list of a case's answer. */
export const LIST = 500;

const appIds = (scope: ReportScope) => `{${scope.apps.map((a) => a.id).join(',')}}`;

/**
 * The methods of one case that no other case covered in scope: from app_case_method_reach (by case,
 * then a probe per method), unless days narrow the reports, which that table does not keep apart
 * (then from the method rows of the reports in those days).
 */
function aloneOf(scope: ReportScope, caseKey: string): SQL {
  if (scope.from || scope.to) {
    return sql`with rep as (select r.id, r.app_id from reports r where ${scopeFilter(scope)}),
      m as (select distinct rep.app_id, c.case_key, c.file_path, c.class_name, c.method
        from report_case_methods c join rep on rep.id = c.report_id)
      select m.file_path, m.class_name, m.method, n.app_name from m join ${appNames(scope)} n on n.app_id = m.app_id
      where m.case_key = ${caseKey} and not exists (select 1 from m o where o.app_id = m.app_id
        and o.file_path = m.file_path and o.class_name = m.class_name and o.method = m.method
        and o.case_key <> m.case_key)
      order by m.file_path, m.class_name, m.method, n.app_name limit ${LIST}`;
  }
  const filter = reachFilter(scope, true);
  return sql`with m as (select distinct a.app_id, a.file_path, a.class_name, a.method from app_case_method_reach a
        where a.app_id = any(${appIds(scope)}::uuid[]) and a.case_key = ${caseKey} and ${filter})
    select m.file_path, m.class_name, m.method, n.app_name from m join ${appNames(scope)} n on n.app_id = m.app_id
    where not exists (select 1 from app_case_method_reach a where a.app_id = m.app_id and a.file_path = m.file_path
      and a.class_name = m.class_name and a.method = m.method and a.case_key <> ${caseKey} and ${filter})
    order by m.file_path, m.class_name, m.method, n.app_name limit ${LIST}`;
}

/** One case of one app: the methods no other case covered in scope, and the changed ones of its latest version. */
export async function caseMethods(db: Db, scope: ReportScope, caseKey: string): Promise<CaseMethods> {
  if (scope.apps.length === 0) return { latestVersion: null, alone: [], changed: [] };
  const { rows: alone } = await db.execute(aloneOf(scope, caseKey));
  // The case's latest incremental report, then its changed rows by key (report, case).
  const { rows: changed } = await db.execute(sql`with latest as (select r.id, r.new_version, r.app_id from reports r
      where ${scopeFilter(scope)} and r.coverage_type = 'incremental'
        and exists (select 1 from report_case_summaries s where s.report_id = r.id and s.case_key = ${caseKey})
      order by ${AT} desc, r.id desc limit 1)
    select l.new_version as latest_version, c.file_path, c.class_name, c.method, n.app_name
    from latest l join ${appNames(scope)} n on n.app_id = l.app_id
      left join report_case_methods c on c.report_id = l.id and c.case_key = ${caseKey} and c.changed
    order by c.file_path, c.class_name, c.method limit ${LIST}`);
  const latest = changed[0];
  return {
    latestVersion: latest ? String(latest.latest_version) : null,
    alone: alone.map(methodRef),
    changed: changed.filter((r) => r.file_path !== null).map(methodRef),
  };
}

/**
 * Per app, the version looked at (the scope's, else its latest incremental report's), that version's
 * latest incremental report per test type and environment, and their changed methods.
 */
export function changedOfVersion(scope: ReportScope): SQL {
  const others = { ...scope, version: undefined, from: undefined, to: undefined };
  return sql`target as (select distinct on (r.app_id) r.app_id, r.new_version, ${AT} as at from reports r
      where ${scopeFilter(scope)} and r.coverage_type = 'incremental' order by r.app_id, ${AT} desc, r.id desc),
    treps as (select distinct on (r.app_id, r.test_type, r.env_type) r.id, r.app_id, r.new_version, r.rows_generation
      from reports r
      join target t on t.app_id = r.app_id and t.new_version = r.new_version
      where ${scopeFilter(others)} and r.coverage_type = 'incremental'
      order by r.app_id, r.test_type, r.env_type, ${AT} desc, r.id desc),
    changed as (select distinct on (t.app_id, d.file_path, c.name, d.name) t.app_id, t.new_version,
        d.file_path, c.name as class_name, d.name as method, d.change_status
      from treps t join report_details d on d.report_id = t.id and d.generation = t.rows_generation
        and d.kind = 'method' and d.changed
      join report_details c on c.id = d.class_id
      order by t.app_id, d.file_path, c.name, d.name, d.change_status)`;
}

/**
 * The reach of earlier runs and the gaps, for the changed methods only: `earlier` holds the cases whose
 * coverage in reports of the scope's test type and environment, of other versions, finished before the
 * version's latest report reached a changed method (app_case_method_reach keeps the first such time per
 * version); `reached` flags changed methods an earlier case reached, `gap` those no case ever did.
 */
function reachOfChanged(scope: ReportScope): SQL {
  const filter = reachFilter(scope, false);
  return sql`earlier as (select distinct a.app_id, a.case_key, a.file_path, a.class_name, a.method
      from changed ch join target t on t.app_id = ch.app_id
      join app_case_method_reach a on a.app_id = ch.app_id and a.file_path = ch.file_path
        and a.class_name = ch.class_name and a.method = ch.method
      where a.new_version <> t.new_version and a.first_at < t.at and ${filter}),
    flagged as (select ch.*, exists (select 1 from earlier e where e.app_id = ch.app_id and e.file_path = ch.file_path
        and e.class_name = ch.class_name and e.method = ch.method) as reached,
      not exists (select 1 from app_case_method_reach a where a.app_id = ch.app_id and a.file_path = ch.file_path
        and a.class_name = ch.class_name and a.method = ch.method and ${filter}) as gap
      from changed ch)`;
}

/** The impact answer of a scope that holds no app. */
export const noCaseImpact = (): CaseImpact => ({
  versions: [],
  changedMethods: 0,
  reachedMethods: 0,
  reruns: [],
  gaps: { items: [], total: 0 },
});

/**
 * Cases to re-run and test gaps of the version looked at (issue 35), in one statement: the changed
 * methods are found once, and only they are probed in app_case_method_reach, so the cost follows the
 * changed methods and the versions that reached them, not the case rows of every report.
 */
export async function caseImpact(
  db: Db,
  scope: ReportScope,
  page: { page: number; perPage: number },
): Promise<CaseImpact> {
  if (scope.apps.length === 0) return noCaseImpact();
  const names = appNames(scope);
  const { rows } = await db.execute(sql`with ${changedOfVersion(scope)}, ${reachOfChanged(scope)},
    names as ${names},
    per_case as (select app_id, case_key, count(*)::int as reached from earlier group by 1, 2),
    reruns as (select g.app_id, n.app_name, g.case_key, cs.title, g.reached
      from per_case g join names n on n.app_id = g.app_id
      left join cases cs on cs.app_id = g.app_id and cs.key = g.case_key
      order by g.reached desc, g.case_key, n.app_name limit ${LIST}),
    gaps as (select f.file_path, f.class_name, f.method, f.new_version, f.change_status, n.app_name
      from flagged f join names n on n.app_id = f.app_id where f.gap
      order by n.app_name, f.file_path, f.class_name, f.method
      limit ${page.perPage} offset ${(page.page - 1) * page.perPage})
    select
      (select coalesce(json_agg(json_build_object('appName', n.app_name, 'version', t.new_version)
          order by n.app_name), '[]') from target t join names n on n.app_id = t.app_id) as versions,
      (select count(*)::int from flagged) as changed,
      (select count(*) filter (where reached)::int from flagged) as reached,
      (select count(*) filter (where gap)::int from flagged) as gaps_total,
      (select coalesce(json_agg(json_build_object('appId', app_id, 'appName', app_name, 'caseKey', case_key,
          'title', title, 'reached', reached) order by reached desc, case_key, app_name), '[]') from reruns) as reruns,
      (select coalesce(json_agg(json_build_object('file_path', file_path, 'class_name', class_name, 'method', method,
          'new_version', new_version, 'change_status', change_status, 'app_name', app_name)
          order by app_name, file_path, class_name, method), '[]') from gaps) as gaps`);
  const r = rows[0] ?? {};
  const gaps = r.gaps as Row[];
  return {
    versions: r.versions as CaseImpact['versions'],
    changedMethods: int(r.changed),
    reachedMethods: int(r.reached),
    reruns: r.reruns as CaseImpact['reruns'],
    gaps: {
      items: gaps.map((g) => ({
        ...methodRef(g),
        version: String(g.new_version),
        changeStatus: g.change_status === null ? null : String(g.change_status),
      })),
      total: gaps.length === 0 ? 0 : int(r.gaps_total),
    },
  };
}
