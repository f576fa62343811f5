import type { Report, SearchReports } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedRows } from '../../lib/prepared-read.ts';
import { fractionSql, isUuid, REPORT_COLUMNS, toReport } from './report-row.ts';
import type { SearchTotals } from './search-totals.ts';

type SortKey = SearchReports['sortBy'];

/** Sort keys as SQL over `reports r join apps a`; fractions are computed here so the database sorts them. */
const SORTS: Record<SortKey, SQL> = {
  lineCoverage: fractionSql('r', 'line'),
  branchCoverage: fractionSql('r', 'branch'),
  instructionCoverage: fractionSql('r', 'instruction'),
  methodCoverage: fractionSql('r', 'method'),
  classCoverage: fractionSql('r', 'class'),
  cxty: fractionSql('r', 'complexity'),
  diffLineCoverage: sql.raw('(r.diff_line_covered::float8 / nullif(r.diff_line_total, 0))'),
  name: sql.raw('r.name'),
  appName: sql.raw('a.name'),
  newVersion: sql.raw('r.new_version'),
  createdAt: sql.raw('r.created_at'),
  status: sql.raw('r.status'),
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
): Promise<{ reports: Report[]; total: number }> {
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
  const [page, total] = await Promise.all([
    preparedRows(
      db,
      sql`select r.id from ${from} where ${where}
      order by ${SORTS[query.sortBy]} ${dir} nulls last, r.id ${dir}
      limit ${query.perPage} offset ${(query.page - 1) * query.perPage}`,
    ),
    totals.get(query, async () => {
      const counted = await preparedRows(db, sql`select count(*)::int as n from ${from} where ${where}`);
      return Number(counted[0]?.n ?? 0);
    }),
  ]);
  const ids = page.map((r) => String(r.id));
  if (ids.length === 0) return { reports: [], total };
  const rows = await preparedRows(
    db,
    sql`select ${REPORT_COLUMNS} from reports r join apps a on a.id = r.app_id
    where r.id = any(${`{${ids.join(',')}}`}::uuid[])`,
  );
  const byId = new Map(rows.map((row) => [String(row.id), toReport(row)]));
  // A report deleted between the two reads is left out of the page.
  const reports = ids.flatMap((id) => byId.get(id) ?? []);
  return { reports, total };
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
