import type { Report, SearchReports } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { fractionSql, isUuid, REPORT_COLUMNS, toReport } from './report-row.ts';

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
 * and the id breaks ties so pages never overlap.
 */
export async function searchReports(db: Db, query: SearchReports): Promise<{ reports: Report[]; total: number }> {
  const filters: SQL[] = [sql`r.test_type = ${query.testType}`];
  if (query.appName !== undefined) filters.push(sql`a.name = ${query.appName}`);
  if (query.newVersion !== undefined) filters.push(sql`r.new_version = ${query.newVersion}`);
  if (query.envType !== undefined) filters.push(sql`r.env_type = ${query.envType}`);
  const where = sql.join(filters, sql` and `);
  const dir = sql.raw(query.sortDesc ? 'desc' : 'asc');
  const [page, counted] = await Promise.all([
    db.execute(sql`select ${REPORT_COLUMNS} from reports r join apps a on a.id = r.app_id where ${where}
      order by ${SORTS[query.sortBy]} ${dir} nulls last, r.id ${dir}
      limit ${query.perPage} offset ${(query.page - 1) * query.perPage}`),
    // The join is needed only to filter by app name.
    query.appName === undefined
      ? db.execute(sql`select count(*)::int as n from reports r where ${where}`)
      : db.execute(sql`select count(*)::int as n from reports r join apps a on a.id = r.app_id where ${where}`),
  ]);
  return { reports: page.rows.map(toReport), total: Number(counted.rows[0]?.n ?? 0) };
}

/** GET /api/getReport: the report, or null for an unknown (or malformed) id. */
export async function findReport(db: Db, reportId: string): Promise<Report | null> {
  if (!isUuid(reportId)) return null;
  const result = await db.execute(
    sql`select ${REPORT_COLUMNS} from reports r join apps a on a.id = r.app_id where r.id = ${reportId}`,
  );
  const row = result.rows[0];
  return row ? toReport(row) : null;
}
