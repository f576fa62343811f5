import { type Report, SEARCH_EXACT_TOTAL_BELOW, type SearchReports } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { explainRows, preparedRows } from '../../lib/prepared-read.ts';
import { fractionSql, isUuid, REPORT_COLUMNS, toReport } from './report-row.ts';
import type { SearchTotal, SearchTotals } from './search-totals.ts';

type SortKey = SearchReports['sortBy'];

/**
 * Sort keys as SQL over `reports r join apps a`; fractions are computed here so the database sorts them.
 * Each is backed by an index on (test_type, key, id) (issue 41): a figure that may be absent sorts it last
 * in both directions (an index per direction); a never-null column is read backwards for descending, so
 * its ORDER BY must not ask for `nulls last` (which would no longer match the backward walk).
 */
const SORTS: Record<SortKey, { key: SQL; nullable: boolean }> = {
  lineCoverage: { key: fractionSql('r', 'line'), nullable: true },
  branchCoverage: { key: fractionSql('r', 'branch'), nullable: true },
  instructionCoverage: { key: fractionSql('r', 'instruction'), nullable: true },
  methodCoverage: { key: fractionSql('r', 'method'), nullable: true },
  classCoverage: { key: fractionSql('r', 'class'), nullable: true },
  cxty: { key: fractionSql('r', 'complexity'), nullable: true },
  diffLineCoverage: { key: sql.raw('(r.diff_line_covered::float8 / nullif(r.diff_line_total, 0))'), nullable: true },
  name: { key: sql.raw('r.name'), nullable: false },
  // Apps walked in name order (apps_name_idx), each app's reports by reports_search_idx, a small sort per name.
  appName: { key: sql.raw('a.name'), nullable: false },
  newVersion: { key: sql.raw('r.new_version'), nullable: false },
  createdAt: { key: sql.raw('r.created_at'), nullable: false },
  status: { key: sql.raw('r.status'), nullable: false },
};

/**
 * POST /api/searchReports (specification points 5 and 7): testType always filters; appName, newVersion
 * and envType filter by equality only when given. Reports without a figure sort last in both directions,
 * and the id breaks ties so pages never overlap. The page's ids come first (an index walk), then their
 * rows and open risk counts, so skipped rows of a deep page cost no join and no count.
 */
export async function searchReports(
  db: Db,
  query: SearchReports,
  totals: SearchTotals,
): Promise<{ reports: Report[]; total: number; totalExact: boolean }> {
  const filters: SQL[] = [sql`r.test_type = ${query.testType}`];
  if (query.appName !== undefined) filters.push(sql`a.name = ${query.appName}`);
  if (query.newVersion !== undefined) filters.push(sql`r.new_version = ${query.newVersion}`);
  if (query.envType !== undefined) filters.push(sql`r.env_type = ${query.envType}`);
  const where = sql.join(filters, sql` and `);
  const from =
    query.appName !== undefined || query.sortBy === 'appName'
      ? sql`reports r join apps a on a.id = r.app_id`
      : sql`reports r`;
  const dir = sql.raw(query.sortDesc ? 'desc' : 'asc');
  const sort = SORTS[query.sortBy];
  const nulls = sql.raw(sort.nullable ? ' nulls last' : '');
  const offset = (query.page - 1) * query.perPage;
  const [page, estimated] = await Promise.all([
    preparedRows(
      db,
      sql`select r.id from ${from} where ${where}
      order by ${sort.key} ${dir}${nulls}, r.id ${dir}
      limit ${query.perPage} offset ${offset}`,
    ),
    totals.get(query, () => searchTotal(db, from, where)),
  ]);
  // A page that is not full is the last: it gives the exact total whatever the estimate said.
  const last = page.length < query.perPage && (page.length > 0 || offset === 0);
  const { total, exact: totalExact } = last ? { total: offset + page.length, exact: true } : estimated;
  const ids = page.map((r) => String(r.id));
  if (ids.length === 0) return { reports: [], total, totalExact };
  const rows = await preparedRows(
    db,
    sql`select ${REPORT_COLUMNS} from reports r join apps a on a.id = r.app_id
    where r.id = any(${`{${ids.join(',')}}`}::uuid[])`,
  );
  const byId = new Map(rows.map((row) => [String(row.id), toReport(row)]));
  // A report deleted between the two reads is left out of the page.
  const reports = ids.flatMap((id) => byId.get(id) ?? []);
  return { reports, total, totalExact };
}

/**
 * The planner's estimate of the rows a filter finds (EXPLAIN, no row read); counted exactly only when
 * that is under SEARCH_EXACT_TOTAL_BELOW, so a broad filter never counts 100,000 reports per page (issue 41).
 */
async function searchTotal(db: Db, from: SQL, where: SQL): Promise<SearchTotal> {
  const explained = await explainRows(db, sql`explain (format json) select 1 from ${from} where ${where}`);
  const plan = (explained[0]?.['QUERY PLAN'] as { Plan?: { 'Plan Rows'?: number } }[] | undefined)?.[0]?.Plan;
  const estimate = Math.round(plan?.['Plan Rows'] ?? 0);
  if (estimate >= SEARCH_EXACT_TOTAL_BELOW) return { total: estimate, exact: false };
  const counted = await preparedRows(db, sql`select count(*)::int as n from ${from} where ${where}`);
  return { total: Number(counted[0]?.n ?? 0), exact: true };
}

/** GET /api/getReport: the report, or null for an unknown (or malformed) id. */
export async function findReport(db: Db, reportId: string): Promise<Report | null> {
  if (!isUuid(reportId)) return null;
  const [row] = await preparedRows(
    db,
    sql`select ${REPORT_COLUMNS} from reports r join apps a on a.id = r.app_id where r.id = ${reportId}`,
  );
  return row ? toReport(row) : null;
}
