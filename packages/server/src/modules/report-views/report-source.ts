import { existsSync } from 'node:fs';
import type { LineMark, ReportFile, SourceView } from '@sextant/api';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import { mirrorDir, type ReportConfig } from '../../lib/data-paths.ts';
import { BlobError, readBlob } from './git-blob.ts';
import { fractionSql, isUuid } from './report-row.ts';

async function reportOf(db: Db, reportId: string) {
  const result = isUuid(reportId)
    ? await db.execute(sql`select app_id, new_commit from reports where id = ${reportId}`)
    : { rows: [] };
  const row = result.rows[0];
  if (!row) throw new ApiError(404, 'not-found', 'No such report.');
  return { appId: String(row.app_id), newCommit: (row.new_commit as string | null) ?? null };
}

const nullableInt = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The deepest of `packages` (repository folders) holding `path`, or null. */
export function packageOf(path: string, deepestFirst: readonly string[]): string | null {
  return deepestFirst.find((folder) => path.startsWith(`${folder}/`)) ?? null;
}

/**
 * GET /api/reports/:id/files: the source view's file tree with per-file figures, by path, each with
 * the monorepo package it belongs to (the report's package folders, issue 39).
 */
export async function reportFiles(db: Db, reportId: string): Promise<ReportFile[]> {
  await reportOf(db, reportId);
  const packages = await db.execute(sql`select packages from reports where id = ${reportId}`);
  const folders = ((packages.rows[0]?.packages as string[] | null) ?? []).sort((a, b) => b.length - a.length);
  const result = await db.execute(sql`select path, language, line_covered, line_total, branch_covered, branch_total,
      changed, diff_line_covered, diff_line_total
    from report_files where report_id = ${reportId}
      and generation = (select rows_generation from reports where id = ${reportId})
    order by path collate "C"`);
  return result.rows.map((r) => ({
    path: String(r.path),
    language: (r.language as string | null) ?? null,
    lineCovered: Number(r.line_covered),
    lineTotal: Number(r.line_total),
    branchCovered: Number(r.branch_covered),
    branchTotal: Number(r.branch_total),
    changed: r.changed === true,
    diffLineCovered: nullableInt(r.diff_line_covered),
    diffLineTotal: nullableInt(r.diff_line_total),
    package: packageOf(String(r.path), folders),
  }));
}

function marksOf(row: Record<string, unknown>): LineMark[] {
  const lines = row.line_numbers as number[];
  const hits = row.line_hits as (string | number)[];
  const covered = row.branches_covered as number[];
  const total = row.branches_total as number[];
  return lines.map((line, i) => ({
    line: Number(line),
    hits: Number(hits[i] ?? 0),
    branchesCovered: Number(covered[i] ?? 0),
    branchesTotal: Number(total[i] ?? 0),
  }));
}

/**
 * GET /api/reports/:id/source?path=: the file's text at the report's new commit, read from the app's
 * mirror. Only a path the report itself recorded reaches git: the client's string is looked up first.
 */
export async function sourceView(db: Db, config: ReportConfig, reportId: string, path: string): Promise<SourceView> {
  const report = await reportOf(db, reportId);
  const fileResult = await db.execute(sql`select path, language, line_numbers, line_hits, branches_covered,
      branches_total, changed_lines, carried_lines from report_files where report_id = ${reportId}
      and generation = (select rows_generation from reports where id = ${reportId}) and path = ${path}`);
  const file = fileResult.rows[0];
  if (!file) throw new ApiError(404, 'not-found', 'This report has no such file.');
  if (!report.newCommit) throw new ApiError(409, 'conflict', 'The report has not resolved its commit yet.');
  const gitDir = mirrorDir(config.dataDir, report.appId);
  if (!existsSync(gitDir)) {
    throw new ApiError(404, 'not-found', "The app's repository mirror is missing; run the report again.");
  }
  const storedPath = String(file.path);
  let text: string;
  try {
    text = await readBlob(gitDir, report.newCommit, storedPath, { timeoutMs: Math.min(config.gitTimeoutMs, 30_000) });
  } catch (e) {
    if (!(e instanceof BlobError)) throw e;
    if (e.reason === 'too-large') throw new ApiError(413, 'payload-too-large', e.message);
    if (e.reason === 'missing') throw new ApiError(404, 'not-found', `The file is not in the mirror: ${e.message}`);
    throw e;
  }
  const methods = await db.execute(sql`select m.name, c.name as class_name, m.start_line, m.end_line, m.changed,
      ${fractionSql('m', 'line')} as line_coverage, ${fractionSql('m', 'branch')} as branch_coverage
    from report_details m join report_details c on c.id = m.class_id
    where m.report_id = ${reportId} and m.start_line is not null
      and c.report_id = ${reportId} and c.class_id is null and c.file_path = ${storedPath}
      and c.generation = (select rows_generation from reports where id = ${reportId})
    order by m.start_line, m.id`);
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return {
    path: storedPath,
    commit: report.newCommit,
    language: (file.language as string | null) ?? null,
    lines,
    marks: marksOf(file),
    changedLines: (file.changed_lines as number[]).map(Number),
    carriedLines: ((file.carried_lines as number[] | null) ?? []).map(Number),
    methods: methods.rows.map((m) => ({
      name: String(m.name),
      className: String(m.class_name),
      startLine: Number(m.start_line),
      endLine: Number(m.end_line ?? m.start_line),
      lineCoverage: m.line_coverage === null ? null : Number(m.line_coverage),
      branchCoverage: m.branch_coverage === null ? null : Number(m.branch_coverage),
      changed: m.changed === true,
    })),
  };
}
