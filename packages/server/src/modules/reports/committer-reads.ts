import type { CommitterQuery, CommitterRow, CommitterTrend } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { AT, fraction, int, type ReportScope, type Row, scopeFilter } from './analytics-scope.ts';

/**
 * Committer analytics over report_committers (issue 35): the summaries the generation wrote, of the
 * latest successful incremental report of each app, version, test type and environment in scope (a
 * re-run or a second report of the same version must not count a method twice).
 */
function latestIncremental(scope: ReportScope): SQL {
  return sql`select distinct on (r.app_id, r.new_version, r.test_type, r.env_type)
      r.id, r.new_version, ${AT} as at
    from reports r where ${scopeFilter(scope)} and r.coverage_type = 'incremental'
    order by r.app_id, r.new_version, r.test_type, r.env_type, ${AT} desc, r.id desc`;
}

const SORTS: Record<CommitterQuery['sortBy'], string> = {
  author: 'author',
  changedMethods: 'changed',
  coveredMethods: 'covered',
  uncoveredMethods: 'changed - covered',
  methodCoverage: 'covered::float8 / nullif(changed, 0)',
  lineCoverage: 'line_covered::float8 / nullif(line_total, 0)',
};

function toCommitter(r: Row): CommitterRow {
  const changed = int(r.changed);
  const covered = int(r.covered);
  return {
    author: r.author === '' ? null : String(r.author),
    changedMethods: changed,
    measuredMethods: int(r.measured),
    coveredMethods: covered,
    uncoveredMethods: changed - covered,
    methodCoverage: fraction(covered, changed),
    lineCovered: int(r.line_covered),
    lineTotal: int(r.line_total),
    lineCoverage: fraction(r.line_covered, r.line_total),
    reports: int(r.reports),
  };
}

export async function committerPage(
  db: Db,
  scope: ReportScope,
  page: Pick<CommitterQuery, 'page' | 'perPage' | 'sortBy' | 'sortDesc'>,
): Promise<{ items: CommitterRow[]; total: number }> {
  if (scope.apps.length === 0) return { items: [], total: 0 };
  const direction = sql.raw(page.sortDesc ? 'desc nulls last' : 'asc nulls first');
  const result = await db.execute(sql`with latest as (${latestIncremental(scope)}),
    by_author as (
      select c.author, sum(c.changed_methods)::int as changed, sum(c.measured_methods)::int as measured,
        sum(c.covered_methods)::int as covered, sum(c.line_covered)::int8 as line_covered,
        sum(c.line_total)::int8 as line_total, count(*)::int as reports
      from report_committers c join latest l on l.id = c.report_id group by c.author)
    select *, count(*) over ()::int as total from by_author
    order by ${sql.raw(SORTS[page.sortBy])} ${direction}, author asc
    limit ${page.perPage} offset ${(page.page - 1) * page.perPage}`);
  return { items: result.rows.map(toCommitter), total: int(result.rows[0]?.total) };
}

/** Method coverage per version of the given authors (versions in the order their latest reports finished). */
export async function committerTrend(db: Db, scope: ReportScope, authors: readonly string[]): Promise<CommitterTrend> {
  if (scope.apps.length === 0 || authors.length === 0) return { versions: [], series: [] };
  const result = await db.execute(sql`with latest as (${latestIncremental({ ...scope, version: undefined })})
    select l.new_version, min(l.at) over (partition by l.new_version) as first_at, c.author,
      sum(c.changed_methods) over (partition by l.new_version, c.author) as changed,
      sum(c.covered_methods) over (partition by l.new_version, c.author) as covered
    from report_committers c join latest l on l.id = c.report_id
    where c.author in (select jsonb_array_elements_text(${JSON.stringify(authors)}::jsonb))
    order by first_at asc, l.new_version asc`);
  const versions = [...new Set(result.rows.map((r) => String(r.new_version)))];
  const series = authors.map((author) => ({
    author: author === '' ? null : author,
    methodCoverage: versions.map((version) => {
      const row = result.rows.find((r) => r.author === author && r.new_version === version);
      return row ? fraction(row.covered, row.changed) : null;
    }),
  }));
  return { versions, series };
}
