import type { CaseImpact, CaseMethods } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { AT, appNames, int, type ReportScope, scopeFilter } from '../../src/modules/reports/analytics-scope.ts';
import { changedOfVersion, LIST, methodRef, noCaseImpact } from '../../src/modules/reports/case-reads.ts';

// The case reads as they were before app_case_method_reach (migration 0029): case impact and a case's
// methods from the method rows of every report in scope. Kept as the tests' reference only: the reads
// of reports/case-reads.ts must give the same figures on the same rows.

/** One case of one app: the methods no other case covered in scope, and the changed ones of its latest version. */
export async function referenceCaseMethods(db: Db, scope: ReportScope, caseKey: string): Promise<CaseMethods> {
  if (scope.apps.length === 0) return { latestVersion: null, alone: [], changed: [] };
  const { rows: alone } = await db.execute(sql`with rep as (
      select r.id, r.app_id from reports r where ${scopeFilter(scope)}),
    m as (select distinct rep.app_id, c.case_key, c.file_path, c.class_name, c.method
      from report_case_methods c join rep on rep.id = c.report_id)
    select m.file_path, m.class_name, m.method, n.app_name from m join ${appNames(scope)} n on n.app_id = m.app_id
    where m.case_key = ${caseKey} and not exists (select 1 from m o where o.app_id = m.app_id
      and o.file_path = m.file_path and o.class_name = m.class_name and o.method = m.method and o.case_key <> m.case_key)
    order by m.file_path, m.class_name, m.method limit ${LIST}`);
  const { rows: latest } = await db.execute(sql`select r.id, r.new_version from reports r
    where ${scopeFilter(scope)} and r.coverage_type = 'incremental'
      and exists (select 1 from report_case_summaries s where s.report_id = r.id and s.case_key = ${caseKey})
    order by ${AT} desc, r.id desc limit 1`);
  const report = latest[0];
  const { rows: changed } = report
    ? await db.execute(sql`select c.file_path, c.class_name, c.method, n.app_name
        from report_case_methods c join reports r on r.id = c.report_id join ${appNames(scope)} n on n.app_id = r.app_id
        where c.report_id = ${String(report.id)} and c.case_key = ${caseKey} and c.changed
        order by c.file_path, c.class_name, c.method limit ${LIST}`)
    : { rows: [] };
  return {
    latestVersion: report ? String(report.new_version) : null,
    alone: alone.map(methodRef),
    changed: changed.map(methodRef),
  };
}

/**
 * Case coverage of an app's reports with the scope's test type and environment: any report, or with
 * `otherThanTarget` those of other versions finished before the version's latest report (earlier runs).
 */
function caseCoverage(scope: ReportScope, otherThanTarget: boolean): SQL {
  const parts: SQL[] = [sql`r.status = 'SUCCESS'`];
  if (otherThanTarget) parts.push(sql`r.new_version <> t.new_version and ${AT} < t.at`);
  if (scope.testType) parts.push(sql`r.test_type = ${scope.testType}`);
  if (scope.envType) parts.push(sql`r.env_type = ${scope.envType}`);
  return sql`select c.case_key, c.file_path, c.class_name, c.method, r.app_id from report_case_methods c
    join reports r on r.id = c.report_id join target t on t.app_id = r.app_id where ${sql.join(parts, sql` and `)}`;
}

export async function referenceCaseImpact(
  db: Db,
  scope: ReportScope,
  page: { page: number; perPage: number },
): Promise<CaseImpact> {
  if (scope.apps.length === 0) return noCaseImpact();
  const names = appNames(scope);
  const [versions, reruns, counts, gaps] = await Promise.all([
    db.execute(sql`with ${changedOfVersion(scope)}
      select n.app_name, t.new_version from target t join ${names} n on n.app_id = t.app_id order by n.app_name`),
    db.execute(sql`with ${changedOfVersion(scope)}, earlier as (${caseCoverage(scope, true)})
      select e.app_id, n.app_name, e.case_key, cs.title, count(distinct (ch.file_path, ch.class_name, ch.method))::int as reached
      from changed ch join earlier e on e.app_id = ch.app_id and e.file_path = ch.file_path
        and e.class_name = ch.class_name and e.method = ch.method
      join ${names} n on n.app_id = e.app_id
      left join cases cs on cs.app_id = e.app_id and cs.key = e.case_key
      group by e.app_id, n.app_name, e.case_key, cs.title
      order by reached desc, e.case_key, n.app_name limit ${LIST}`),
    db.execute(sql`with ${changedOfVersion(scope)}, earlier as (${caseCoverage(scope, true)})
      select count(*)::int as changed, (count(*) filter (where exists (select 1 from earlier e where e.app_id = ch.app_id
        and e.file_path = ch.file_path and e.class_name = ch.class_name and e.method = ch.method)))::int as reached
      from changed ch`),
    db.execute(sql`with ${changedOfVersion(scope)}, ever as (${caseCoverage(scope, false)})
      select ch.*, n.app_name, count(*) over ()::int as total from changed ch join ${names} n on n.app_id = ch.app_id
      where not exists (select 1 from ever e where e.app_id = ch.app_id and e.file_path = ch.file_path
        and e.class_name = ch.class_name and e.method = ch.method)
      order by n.app_name, ch.file_path, ch.class_name, ch.method
      limit ${page.perPage} offset ${(page.page - 1) * page.perPage}`),
  ]);
  return {
    versions: versions.rows.map((r) => ({ appName: String(r.app_name), version: String(r.new_version) })),
    changedMethods: int(counts.rows[0]?.changed),
    reachedMethods: int(counts.rows[0]?.reached),
    reruns: reruns.rows.map((r) => ({
      appId: String(r.app_id),
      appName: String(r.app_name),
      caseKey: String(r.case_key),
      title: r.title === null ? null : String(r.title),
      reached: int(r.reached),
    })),
    gaps: {
      items: gaps.rows.map((r) => ({
        ...methodRef(r),
        version: String(r.new_version),
        changeStatus: r.change_status === null ? null : String(r.change_status),
      })),
      total: int(gaps.rows[0]?.total),
    },
  };
}
