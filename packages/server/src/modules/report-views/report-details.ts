import type { ReportDetail, ReportDetailsQuerySchema } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import { preparedRows } from '../../lib/prepared-read.ts';
import { type Cursor, decodeCursor, encodeCursor, type KeyType, keysetParts } from './detail-keyset.ts';
import { fractionSql, isUuid, toCoverageFields } from './report-row.ts';

export type ReportDetailsQuery = z.infer<typeof ReportDetailsQuerySchema>;

type SortKey = ReportDetailsQuery['sortBy'];

/**
 * Sort keys over `report_details d`. Each has an index over class rows, (report_id, key, id) where
 * class_id is null (migration 0018), so a page of a 50,000-class report is an index walk in either
 * direction; a class's method rows are few and sorted in memory.
 */
const SORTS: Record<SortKey, { key: SQL; type: KeyType }> = {
  name: { key: sql.raw('d.name'), type: 'text' },
  lineCoverage: { key: fractionSql('d', 'line'), type: 'float8' },
  branchCoverage: { key: fractionSql('d', 'branch'), type: 'float8' },
  instructionCoverage: { key: fractionSql('d', 'instruction'), type: 'float8' },
  methodCoverage: { key: fractionSql('d', 'method'), type: 'float8' },
  cxty: { key: fractionSql('d', 'complexity'), type: 'float8' },
  lineTotal: { key: sql.raw('d.line_total'), type: 'int8' },
  lineCovered: { key: sql.raw('d.line_covered'), type: 'int8' },
  branchTotal: { key: sql.raw('d.branch_total'), type: 'int8' },
  codeAuthor: { key: sql.raw('d.code_author'), type: 'text' },
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
 * Pages by keyset (`after`, issue 41): the first page and every `next` are index walks whatever the depth;
 * `page` > 1 without `after` still skips rows by offset (a link to a numbered page).
 */
export async function reportDetails(
  db: Db,
  query: ReportDetailsQuery,
): Promise<{ reports: ReportDetail[]; total: number | null; next: string | null }> {
  if (!isUuid(query.reportId)) throw notFound('report');
  const classId = query.classId.trim();
  if (classId !== '' && !/^\d{1,18}$/.test(classId)) throw notFound('class');
  const sort = SORTS[query.sortBy];
  const after = query.after === undefined ? undefined : decodeCursor(query.after, sort.type);
  // Only the generation the report shows (a re-run stages the next one beside it: issue 41).
  const filters: SQL[] = [
    sql`d.report_id = ${query.reportId}`,
    sql`d.generation = (select rows_generation from reports where id = ${query.reportId})`,
  ];
  filters.push(classId === '' ? sql`d.class_id is null` : sql`d.class_id = ${classId}`);
  if (query.changedOnly) filters.push(sql`d.changed`);
  // "Uncovered" = at least one coverable line not run (rows without a line counter are left out).
  if (query.uncoveredOnly) filters.push(sql`d.line_covered < d.line_total`);
  if (query.q?.trim()) filters.push(sql`d.name ilike ${containsPattern(query.q.trim())}`);
  const where = sql.join(filters, sql` and `);
  const offset = after ? 0 : (query.page - 1) * query.perPage;
  const page = offset > 0 ? await offsetPage(db, where, query, offset) : await keysetPage(db, where, query, after);
  // Rows found prove the report (and class) exist; a page that is not full is the last, so it gives the total.
  if (page.length === 0 && !after) {
    const parent =
      classId === ''
        ? sql`select 1 from reports where id = ${query.reportId}`
        : sql`select 1 from report_details where id = ${classId} and report_id = ${query.reportId} and class_id is null`;
    if ((await preparedRows(db, parent)).length === 0) throw notFound(classId === '' ? 'report' : 'class');
  }
  const full = page.length === query.perPage;
  const last = page.at(-1);
  const next = full && last ? encodeCursor({ value: sortValue(last.sort_value), id: String(last.id) }) : null;
  let total: number | null = null;
  if (!after) {
    // A page past the end (offset beyond the rows) proves nothing about the total: count.
    total =
      !full && (page.length > 0 || offset === 0)
        ? offset + page.length
        : Number(
            (await preparedRows(db, sql`select count(*)::int as n from report_details d where ${where}`))[0]?.n ?? 0,
          );
  }
  return { reports: page.map(toDetail), total, next };
}

type Row = Record<string, unknown>;

/** The first page, or the one after a cursor: rows with the sort value first, then those without. */
async function keysetPage(db: Db, where: SQL, query: ReportDetailsQuery, after: Cursor | undefined): Promise<Row[]> {
  const sort = SORTS[query.sortBy];
  const parts = keysetParts(sort.key, sort.type, query.sortDesc, after);
  const select = (cond: SQL, order: SQL, limit: number) =>
    preparedRows(
      db,
      sql`select ${DETAIL_COLUMNS}, ${sort.key} as sort_value from report_details d
        where ${where} and ${cond} order by ${order} limit ${limit}`,
    );
  const rows = parts.present ? await select(parts.present, parts.presentOrder, query.perPage) : [];
  if (rows.length === query.perPage) return rows;
  return [...rows, ...(await select(parts.absent, parts.absentOrder, query.perPage - rows.length))];
}

async function offsetPage(db: Db, where: SQL, query: ReportDetailsQuery, offset: number): Promise<Row[]> {
  const { key } = SORTS[query.sortBy];
  const dir = sql.raw(query.sortDesc ? 'desc' : 'asc');
  return preparedRows(
    db,
    sql`select ${DETAIL_COLUMNS}, ${key} as sort_value from report_details d where ${where}
      order by ${key} ${dir} nulls last, d.id ${dir} limit ${query.perPage} offset ${offset}`,
  );
}

/** node-postgres gives float8 as a number, int8 and text as strings: each as its cursor carries it. */
function sortValue(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? value : String(value);
}

function notFound(what: 'report' | 'class'): ApiError {
  return new ApiError(404, 'not-found', what === 'report' ? 'No such report.' : 'No such class in this report.');
}
