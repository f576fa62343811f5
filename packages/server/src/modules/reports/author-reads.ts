import type { IdentityKeys, MyCoverageReport } from '@sextant/api';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authorIsSql } from '../../lib/git-authors.ts';
import { AT, fraction, int, iso, type ReportScope, scopeFilter, testTypeOf } from './analytics-scope.ts';

/**
 * One person's changed methods over time (issue 34, `/dashboard/myAnalytic`): per latest successful
 * incremental report of each app, version, test type and environment in scope, the committer summaries
 * (report_committers) of the blame authors that are this person, summed; newest first.
 */
export async function authorReports(
  db: Db,
  scope: ReportScope,
  keys: IdentityKeys,
  limit: number,
): Promise<{ reports: Omit<MyCoverageReport, 'appName'>[]; authors: string[] }> {
  if (scope.apps.length === 0 || keys.emails.length + keys.names.length === 0) return { reports: [], authors: [] };
  const result = await db.execute(sql`with latest as (
      select distinct on (r.app_id, r.new_version, r.test_type, r.env_type)
        r.id, r.app_id, r.new_version, r.test_type, r.env_type, ${AT} as at
      from reports r where ${scopeFilter(scope)} and r.coverage_type = 'incremental'
      order by r.app_id, r.new_version, r.test_type, r.env_type, ${AT} desc, r.id desc)
    select l.id, l.app_id, l.new_version, l.test_type, l.env_type, l.at,
      sum(c.changed_methods)::int as changed, sum(c.covered_methods)::int as covered,
      sum(c.line_covered)::int8 as line_covered, sum(c.line_total)::int8 as line_total,
      array_agg(distinct c.author) as authors
    from latest l join report_committers c on c.report_id = l.id
    where ${authorIsSql(sql`c.author`, keys)}
    group by l.id, l.app_id, l.new_version, l.test_type, l.env_type, l.at
    order by l.at desc, l.id desc
    limit ${limit}`);
  const authors = new Set<string>();
  const reports = result.rows.map((r) => {
    for (const a of r.authors as string[]) authors.add(a);
    const changed = int(r.changed);
    const covered = int(r.covered);
    return {
      reportId: String(r.id),
      appId: String(r.app_id),
      version: String(r.new_version),
      testType: testTypeOf(r.test_type),
      envType: String(r.env_type),
      at: iso(r.at),
      changedMethods: changed,
      coveredMethods: covered,
      methodCoverage: fraction(covered, changed),
      lineCovered: int(r.line_covered),
      lineTotal: int(r.line_total),
      lineCoverage: fraction(r.line_covered, r.line_total),
    };
  });
  return { reports, authors: [...authors].sort() };
}
