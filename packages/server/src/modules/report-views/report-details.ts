import type { ReportDetail, ReportDetailsQuerySchema } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import { preparedRows } from '../../lib/prepared-read.ts';
import { fractionSql, isUuid, toCoverageFields } from './report-row.ts';

export type ReportDetailsQuery = z.infer<typeof ReportDetailsQuerySchema>;

const SORTS: Record<ReportDetailsQuery['sortBy'], SQL> = {
  name: sql.raw('d.name'),
  lineCoverage: fractionSql('d', 'line'),
  branchCoverage: fractionSql('d', 'branch'),
  instructionCoverage: fractionSql('d', 'instruction'),
  methodCoverage: fractionSql('d', 'method'),
  cxty: fractionSql('d', 'complexity'),
  lineTotal: sql.raw('d.line_total'),
  lineCovered: sql.raw('d.line_covered'),
  branchTotal: sql.raw('d.branch_total'),
  codeAuthor: sql.raw('d.code_author'),
};

const DETAIL_COLUMNS = sql.raw(`d.id, d.report_id, d.class_id, d.kind, d.name, d.file_path, d.start_line, d.end_line,
  d.changed, d.change_status, d.method_count, d.instruction_covered, d.instruction_total, d.branch_covered,
  d.branch_total, d.line_covered, d.line_total, d.complexity_covered, d.complexity_total, d.method_covered,
  d.method_total, d.class_covered, d.class_total, d.instruction_covered_at_most, d.branch_covered_at_most,
  d.line_covered_at_most, d.complexity_covered_at_most, d.method_covered_at_most, d.class_covered_at_most,
  d.code_author, d.carried_from`);

function toDetail(row: Record<string, unknown>): ReportDetail {
  const changeStatus = row.change_status;
  return {
    ...toCoverageFields(row),
    id: String(row.id),
    reportId: String(row.report_id),
    classId: row.class_id === null ? '' : String(row.class_id),
    name: String(row.name),
    kind: row.kind === 'method' ? 'method' : 'class',
    filePath: (row.file_path as string | null) ?? null,
    startLine: row.start_line === null ? null : Number(row.start_line),
    endLine: row.end_line === null ? null : Number(row.end_line),
    changed: row.changed === true,
    changeStatus: changeStatus === 'added' || changeStatus === 'modified' ? changeStatus : null,
    methodCount: Number(row.method_count ?? 0),
    carriedFrom: (row.carried_from as string | null) ?? null,
  };
}

/** LIKE matches the text as typed: %, _ and \ in it are not wildcards. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * GET /api/getReportDetails: a report's class rows (classId '') or one class's method rows, sorted by any
 * counter (absent figures last), filtered to changed rows, rows with uncovered lines, or a name match.
 */
export async function reportDetails(
  db: Db,
  query: ReportDetailsQuery,
): Promise<{ reports: ReportDetail[]; total: number }> {
  if (!isUuid(query.reportId)) throw notFound('report');
  const classId = query.classId.trim();
  if (classId !== '' && !/^\d{1,18}$/.test(classId)) throw notFound('class');
  const filters: SQL[] = [sql`d.report_id = ${query.reportId}`];
  filters.push(classId === '' ? sql`d.class_id is null` : sql`d.class_id = ${classId}`);
  if (query.changedOnly) filters.push(sql`d.changed`);
  // "Uncovered" = at least one coverable line not run (rows without a line counter are left out).
  if (query.uncoveredOnly) filters.push(sql`d.line_covered < d.line_total`);
  if (query.q?.trim()) filters.push(sql`d.name ilike ${containsPattern(query.q.trim())}`);
  const where = sql.join(filters, sql` and `);
  const dir = sql.raw(query.sortDesc ? 'desc' : 'asc');
  const offset = (query.page - 1) * query.perPage;
  const page = await preparedRows(
    db,
    sql`select ${DETAIL_COLUMNS} from report_details d where ${where}
      order by ${SORTS[query.sortBy]} ${dir} nulls last, d.id ${dir} limit ${query.perPage} offset ${offset}`,
  );
  // Rows found prove the report (and class) exist; a page that is not full is the last, so it gives the total.
  if (page.length === 0) {
    const parent =
      classId === ''
        ? sql`select 1 from reports where id = ${query.reportId}`
        : sql`select 1 from report_details where id = ${classId} and report_id = ${query.reportId} and class_id is null`;
    if ((await preparedRows(db, parent)).length === 0) throw notFound(classId === '' ? 'report' : 'class');
  }
  const total =
    page.length < query.perPage && (page.length > 0 || offset === 0)
      ? offset + page.length
      : Number(
          (await preparedRows(db, sql`select count(*)::int as n from report_details d where ${where}`))[0]?.n ?? 0,
        );
  return { reports: page.map(toDetail), total };
}

function notFound(what: 'report' | 'class'): ApiError {
  return new ApiError(404, 'not-found', what === 'report' ? 'No such report.' : 'No such class in this report.');
}
