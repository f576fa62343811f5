import type { CommitterQuery, CommitterRow, CommitterTrend } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authorEmailSql, authorNameSql } from '../../lib/git-authors.ts';
import { AT, fraction, int, type ReportScope, type Row, scopeFilter } from './analytics-scope.ts';

/** A person who lists git identities (users module): their blame authors count as one committer, `label`. */
export type CommitterPerson = { label: string; emails: readonly string[]; names: readonly string[] };

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

/**
 * The summaries of the latest reports with each author that is a listed person's identity replaced
 * by that person's label (issue 34: one person across aliases); other authors stay as blame gave them.
 * Each distinct author is looked up once (not once per summary row: the lookup parses the people); the
 * CTEs are materialized, or the planner pulls the lookup back up into the join's output.
 */
function committerRows(scope: ReportScope, people: readonly CommitterPerson[]): SQL {
  const keys = people.flatMap((p, order) => [
    ...p.emails.map((key) => ({ who: p.label, kind: 'email', key, order })),
    ...p.names.map((key) => ({ who: p.label, kind: 'name', key, order })),
  ]);
  const rows = sql`select c.author, l.new_version, l.at, c.report_id, c.changed_methods, c.measured_methods,
      c.covered_methods, c.line_covered, c.line_total
    from report_committers c join (${latestIncremental(scope)}) l on l.id = c.report_id`;
  if (keys.length === 0) return rows;
  return sql`with x as (${rows}),
      p as materialized (select * from json_to_recordset(${JSON.stringify(keys)}::json) as p(who text, kind text, key text, "order" int)),
      a as materialized (select d.author, coalesce((select p.who from p
          where (p.kind = 'email' and p.key = ${authorEmailSql(sql`d.author`)})
             or (p.kind = 'name' and p.key = ${authorNameSql(sql`d.author`)})
          order by p."order" limit 1), d.author) as person
        from (select distinct author from x) d)
    select a.person as author, x.new_version, x.at, x.report_id, x.changed_methods, x.measured_methods,
      x.covered_methods, x.line_covered, x.line_total
    from x join a on a.author = x.author`;
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
  people: readonly CommitterPerson[] = [],
): Promise<{ items: CommitterRow[]; total: number }> {
  if (scope.apps.length === 0) return { items: [], total: 0 };
  const direction = sql.raw(page.sortDesc ? 'desc nulls last' : 'asc nulls first');
  const result = await db.execute(sql`with rows as (${committerRows(scope, people)}),
    by_author as (
      select c.author, sum(c.changed_methods)::int as changed, sum(c.measured_methods)::int as measured,
        sum(c.covered_methods)::int as covered, sum(c.line_covered)::int8 as line_covered,
        sum(c.line_total)::int8 as line_total, count(distinct c.report_id)::int as reports
      from rows c group by c.author)
    select *, count(*) over ()::int as total from by_author
    order by ${sql.raw(SORTS[page.sortBy])} ${direction}, author asc
    limit ${page.perPage} offset ${(page.page - 1) * page.perPage}`);
  return { items: result.rows.map(toCommitter), total: int(result.rows[0]?.total) };
}

/** Method coverage per version of the given authors (versions in the order their latest reports finished). */
export async function committerTrend(
  db: Db,
  scope: ReportScope,
  authors: readonly string[],
  people: readonly CommitterPerson[] = [],
): Promise<CommitterTrend> {
  if (scope.apps.length === 0 || authors.length === 0) return { versions: [], series: [] };
  const result = await db.execute(sql`with c as (${committerRows({ ...scope, version: undefined }, people)})
    select c.new_version, min(c.at) over (partition by c.new_version) as first_at, c.author,
      sum(c.changed_methods) over (partition by c.new_version, c.author) as changed,
      sum(c.covered_methods) over (partition by c.new_version, c.author) as covered
    from c
    where c.author in (select jsonb_array_elements_text(${JSON.stringify(authors)}::jsonb))
    order by first_at asc, c.new_version asc`);
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
