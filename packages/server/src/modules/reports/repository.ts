import { type ReportJobStatus, RUNNING_STATUSES } from '@sextant/api';
import { and, count, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { coverageUploads, reports, riskItems } from '../../db/schema/index.ts';
import type { Executor } from '../audit/service.ts';

export type ReportRow = typeof reports.$inferSelect;
export type NewReport = typeof reports.$inferInsert;
export type UploadRow = typeof coverageUploads.$inferSelect;

const RUNNING: ReportJobStatus[] = [...RUNNING_STATUSES];

/**
 * The only SQL of report create/edit/delete and of the pipeline. Every write a job makes names the
 * run it belongs to, so a job outdated by a re-run (or a deleted report) changes nothing.
 */
export class ReportsRepository {
  constructor(readonly db: Db) {}

  async find(id: string, tx: Executor = this.db): Promise<ReportRow | undefined> {
    const [row] = await tx.select().from(reports).where(eq(reports.id, id));
    return row;
  }

  async insert(tx: Executor, values: NewReport): Promise<ReportRow> {
    const [row] = await tx.insert(reports).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(tx: Executor, id: string, values: Partial<NewReport>): Promise<ReportRow | undefined> {
    const [row] = await tx
      .update(reports)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(reports.id, id))
      .returning();
    return row;
  }

  async delete(tx: Executor, id: string): Promise<void> {
    await tx.delete(reports).where(eq(reports.id, id));
  }

  async openRiskCount(reportId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(riskItems)
      .where(and(eq(riskItems.reportId, reportId), inArray(riskItems.state, ['observing', 'pending'])));
    return row?.n ?? 0;
  }

  /**
   * Takes a report for this job: it must still be at `run`, and either waiting (QUEUED) or in a
   * running step whose heart-beat is older than `staleMs` (its worker died). One statement, so two
   * jobs for the same report cannot both take it.
   */
  async claim(id: string, run: number, staleMs: number): Promise<ReportRow | undefined> {
    const stale = sql`now() - make_interval(secs => ${staleMs / 1000})`;
    const [row] = await this.db
      .update(reports)
      .set({ status: 'CLONING', errMsg: null, finishedAt: null, updatedAt: sql`now()` })
      .where(
        and(
          eq(reports.id, id),
          eq(reports.run, run),
          or(eq(reports.status, 'QUEUED'), and(inArray(reports.status, RUNNING), lt(reports.updatedAt, stale))),
        ),
      )
      .returning();
    return row;
  }

  /** Writes what a step found; false when the run is outdated or the report deleted. */
  async advance(id: string, run: number, values: Partial<NewReport>): Promise<boolean> {
    const rows = await this.db
      .update(reports)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(reports.id, id), eq(reports.run, run)))
      .returning({ id: reports.id });
    return rows.length > 0;
  }

  /** A job stopped by a closing server: its report looks abandoned at once, so a sweeper takes it. */
  async release(id: string, run: number, staleMs: number): Promise<void> {
    await this.db
      .update(reports)
      .set({ updatedAt: sql`now() - make_interval(secs => ${(2 * staleMs) / 1000})` })
      .where(and(eq(reports.id, id), eq(reports.run, run), inArray(reports.status, RUNNING)));
  }

  /** Reports in a running status whose heart-beat stopped `staleMs` ago: their worker died. */
  async stale(staleMs: number): Promise<{ id: string; run: number }[]> {
    const stale = sql`now() - make_interval(secs => ${staleMs / 1000})`;
    return this.db
      .select({ id: reports.id, run: reports.run })
      .from(reports)
      .where(and(inArray(reports.status, RUNNING), lt(reports.updatedAt, stale)))
      .limit(500);
  }

  async anyReport(): Promise<boolean> {
    const [row] = await this.db.select({ id: reports.id }).from(reports).limit(1);
    return row !== undefined;
  }

  /** The uploads that may hold coverage of a report: same app, environment and test type. */
  uploadsFor(appId: string, envType: string, testType: number): Promise<UploadRow[]> {
    return this.db
      .select()
      .from(coverageUploads)
      .where(
        and(
          eq(coverageUploads.appId, appId),
          eq(coverageUploads.envType, envType),
          eq(coverageUploads.testType, testType),
        ),
      )
      .orderBy(coverageUploads.createdAt, coverageUploads.id);
  }

  /** Stores what an upload's commit resolved to, once (an upload names a fixed commit). */
  async setUploadCommits(resolved: { id: string; commitSha: string }[]): Promise<void> {
    for (const upload of resolved) {
      await this.db
        .update(coverageUploads)
        .set({ commitSha: upload.commitSha })
        .where(and(eq(coverageUploads.id, upload.id), isNull(coverageUploads.commitSha)));
    }
  }
}
