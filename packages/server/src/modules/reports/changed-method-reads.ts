import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** A changed method of a report with its line figures and how many of its lines the change touched. */
export type ChangedMethod = {
  className: string;
  name: string;
  filePath: string;
  startLine: number | null;
  changeStatus: 'added' | 'modified';
  changedLines: number;
  lineCovered: number;
  lineTotal: number;
};

/** The treemap's largest methods first; a version's change rarely touches more. */
const MAX_METHODS = 2000;

/**
 * The changed methods of an app version's latest successful incremental report, for the risks
 * module's home-screen treemap (issue 34). Owned by the risks engineer, on the reports module's tables.
 */
export class ChangedMethodReads {
  constructor(private readonly db: Db) {}

  async latestReport(appId: string, version: string, testType: number | undefined): Promise<string | null> {
    const { rows } = await this.db.execute(sql`
      select r.id from reports r
      where r.app_id = ${appId} and r.new_version = ${version} and r.status = 'SUCCESS'
        and r.coverage_type = 'incremental' ${testType === undefined ? sql`` : sql`and r.test_type = ${testType}`}
      order by coalesce(r.finished_at, r.created_at) desc, r.id desc limit 1`);
    return rows[0] ? String(rows[0].id) : null;
  }

  async changedMethods(reportId: string): Promise<ChangedMethod[]> {
    const { rows } = await this.db.execute(sql`
      select c.name as class_name, d.name, d.file_path, d.start_line, d.change_status,
             d.line_covered, d.line_total,
             (select count(*) from unnest(f.changed_lines) as l(n)
               where l.n between d.start_line and coalesce(d.end_line, d.start_line))::int as changed_lines
      from report_details d
      join report_details c on c.id = d.class_id
      left join report_files f on f.report_id = d.report_id and f.generation = d.generation and f.path = d.file_path
      where d.report_id = ${reportId} and d.kind = 'method' and d.changed
        and d.generation = (select rows_generation from reports where id = ${reportId})
      order by changed_lines desc, d.id
      limit ${MAX_METHODS}`);
    return rows.map((r) => ({
      className: String(r.class_name),
      name: String(r.name),
      filePath: String(r.file_path ?? ''),
      startLine: r.start_line === null ? null : Number(r.start_line),
      changeStatus: r.change_status === 'added' ? 'added' : 'modified',
      changedLines: Number(r.changed_lines ?? 0),
      lineCovered: Number(r.line_covered ?? 0),
      lineTotal: Number(r.line_total ?? 0),
    }));
  }
}
