import { type Carried, type ReportJobStatus, RUNNING_STATUSES } from '@sextant/api';
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../../db/client.ts';
import { reports } from '../../db/schema/index.ts';
import type { Executor } from '../audit/service.ts';
import { type Column, type ColumnData, insertColumns } from './generate/bulk-insert.ts';

export type ReportRow = typeof reports.$inferSelect;
export type NewReport = typeof reports.$inferInsert;

const RUNNING: ReportJobStatus[] = [...RUNNING_STATUSES];

/**
 * The only SQL of report create/edit/delete and of the pipeline. Every write a job makes names the
 * run it belongs to, so a job outdated by a re-run (or a deleted report) changes nothing.
 */
/** Told of each status transition a job writes, inside the write's transaction. */
export type StatusChanged = (tx: Executor, reportId: string, from: string, to: string) => Promise<void>;

export class ReportsRepository {
  constructor(
    readonly db: Db,
    private readonly statusChanged?: StatusChanged,
  ) {}

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

  /**
   * The newest reports an agent's coverage feeds (issue 37): of its app and environment (and test
   * type), whose new version is the agent's commit as sent, or whose resolved commit starts with it.
   */
  async servedBy(
    q: { appId: string; envType: string; testType: number | null; commit: string },
    limit: number,
  ): Promise<{ id: string }[]> {
    const commit = q.commit.toLowerCase();
    const sameCommit = /^[0-9a-f]{7,64}$/.test(commit)
      ? or(eq(reports.newVersion, q.commit), sql`${reports.newCommit} like ${`${commit}%`}`)
      : eq(reports.newVersion, q.commit);
    return this.db
      .select({ id: reports.id })
      .from(reports)
      .where(
        and(
          eq(reports.appId, q.appId),
          eq(reports.envType, q.envType),
          q.testType === null ? undefined : eq(reports.testType, q.testType),
          sameCommit,
        ),
      )
      .orderBy(desc(reports.createdAt))
      .limit(limit);
  }

  /**
   * Issue 38: the newest finished report over an older commit of the same app, environment and test
   * type, which a carried figure names as where its coverage was seen.
   */
  async finishedAt(q: { appId: string; envType: string; testType: number; commit: string }) {
    const [row] = await this.db
      .select({ id: reports.id, name: reports.name })
      .from(reports)
      .where(
        and(
          eq(reports.appId, q.appId),
          eq(reports.envType, q.envType),
          eq(reports.testType, q.testType),
          eq(reports.newCommit, q.commit),
          eq(reports.status, 'SUCCESS'),
        ),
      )
      .orderBy(desc(reports.finishedAt))
      .limit(1);
    return row ?? null;
  }

  /**
   * Takes a report for this job: it must still be at `run`, and either waiting (QUEUED) or in a
   * running step whose heart-beat is older than `staleMs` (its worker died). One statement, so two
   * jobs for the same report cannot both take it.
   */
  async claim(id: string, run: number, staleMs: number): Promise<ReportRow | undefined> {
    const stale = sql`now() - make_interval(secs => ${staleMs / 1000})`;
    return this.db.transaction(async (tx) => {
      // The row lock makes a second job wait and then find the report taken (its WHERE no longer holds).
      const [before] = await tx
        .select({ status: reports.status })
        .from(reports)
        .where(and(eq(reports.id, id), eq(reports.run, run)))
        .for('update');
      const [row] = await tx
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
      if (row && before) await this.statusChanged?.(tx, id, before.status, row.status);
      return row;
    });
  }

  /**
   * Writes what a step found; false when the run is outdated or the report deleted. A change of
   * status is handed to `statusChanged` in the same transaction (the audit log: one entry per transition).
   */
  async advance(id: string, run: number, values: Partial<NewReport>): Promise<boolean> {
    const update = (tx: Executor) =>
      tx
        .update(reports)
        .set({ ...values, updatedAt: sql`now()` })
        .where(and(eq(reports.id, id), eq(reports.run, run)))
        .returning({ id: reports.id });
    const { status } = values;
    if (status === undefined || !this.statusChanged) return (await update(this.db)).length > 0;
    const audit = this.statusChanged;
    return this.db.transaction(async (tx) => {
      const [before] = await tx
        .select({ status: reports.status })
        .from(reports)
        .where(and(eq(reports.id, id), eq(reports.run, run)))
        .for('update');
      if (!before) return false;
      await update(tx);
      if (before.status !== status) await audit(tx, id, before.status, status);
      return true;
    });
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

  /** Successful reports whose summaries are older than `version` (and not given up on at it), oldest first. */
  summariesBehind(version: number, limit: number, skip: readonly string[] = []): Promise<ReportRow[]> {
    const behind = sql`abs(coalesce(${reports.summariesVersion}, 0)) < ${version}`;
    const skipped = skip.length > 0 ? sql`not (${reports.id} = any(${`{${skip.join(',')}}`}::uuid[]))` : undefined;
    return this.db
      .select()
      .from(reports)
      .where(and(eq(reports.status, 'SUCCESS'), behind, skipped))
      .orderBy(reports.finishedAt, reports.id)
      .limit(limit);
  }

  /** Marks a report's summaries as not derivable at `version`, so the backfill does not try it again. */
  async summariesGivenUp(id: string, version: number): Promise<void> {
    await this.db
      .update(reports)
      .set({ summariesVersion: -version })
      .where(and(eq(reports.id, id), eq(reports.status, 'SUCCESS')));
  }

  async anyReport(): Promise<boolean> {
    const [row] = await this.db.select({ id: reports.id }).from(reports).limit(1);
    return row !== undefined;
  }
}

/** A report's stored figures: the counter columns (in their order) and the incremental ones. */
export type StoredFigures = {
  counters: { column: Column; value: number | null }[];
  diffLineCovered: number | null;
  diffLineTotal: number | null;
  codeAuthor: string | null;
  newCommit: string | null;
  /** The repository's package folders (a monorepo's); empty elsewhere. */
  packages: string[];
  /** What carry-forward added (issue 38); null: off or nothing carried. */
  carried: Carried | null;
};

/**
 * The report generation's writes (GENERATING_REPORT), through the pg driver rather than the query
 * builder: rows go in column-major, one `unnest` insert per chunk (`generate/bulk-insert.ts`), which
 * the ORM's insert of objects cannot match on a report of 100,000 methods.
 */
export class GeneratedRowsRepository {
  readonly pool: pg.Pool;

  constructor(db: Db) {
    const client = (db as Db & { $client?: unknown }).$client;
    if (!(client instanceof pg.Pool)) throw new Error('generateReport needs a database opened on a pg Pool');
    this.pool = client;
  }

  /**
   * Ids for the class rows, so method rows can name their class row in the same statement batch; taken
   * a chunk per statement (20,000 `nextval`s in one held PGlite for ~100 ms of CPU, issue 41).
   */
  async takeDetailIds(count: number): Promise<number[]> {
    const ids: number[] = [];
    for (let taken = 0; taken < count; taken += ID_CHUNK) {
      const result = await this.pool.query<{ ids: string[] }>(
        `select array_agg(nextval(pg_get_serial_sequence('report_details', 'id'))) as ids from generate_series(1, $1)`,
        [Math.min(ID_CHUNK, count - taken)],
      );
      for (const id of result.rows[0]?.ids ?? []) ids.push(Number(id));
    }
    return ids;
  }

  /** A new generation number for a report's rows: unique, and above every earlier one (the id sequence). */
  async newGeneration(): Promise<number> {
    const result = await this.pool.query<{ g: string }>(
      `select nextval(pg_get_serial_sequence('report_details', 'id')) as g`,
    );
    return Number(result.rows[0]?.g);
  }

  /**
   * Stages a generation's rows beside the shown one, each chunk its own short statement (no transaction):
   * on PGlite other requests run between chunks (issue 41). Readers do not see them until `swap`.
   */
  async stageDetails(reportId: string, generation: number, rows: ColumnData, rowsPerStatement: number): Promise<void> {
    await insertColumns(this.pool, 'report_details', stagedColumns(reportId, generation), rows, rowsPerStatement);
  }

  async stageFiles(reportId: string, generation: number, rows: ColumnData): Promise<void> {
    await insertColumns(this.pool, 'report_files', stagedColumns(reportId, generation), rows, STAGE_FILE_ROWS);
  }

  /**
   * Deletes, a chunk per statement, the report's rows of the generations strictly between `above` and
   * `below` (an index range): once a newer one is shown, those it replaced; before staging, what a
   * killed run staged and never showed.
   */
  async dropGenerations(reportId: string, above: number, below: number): Promise<void> {
    const statements = [
      `delete from report_details where id in (select id from report_details
        where report_id = $1 and generation > $2 and generation < $3 limit ${STAGE_CHUNK_ROWS})`,
      `delete from report_files where ctid in (select ctid from report_files
        where report_id = $1 and generation > $2 and generation < $3 limit ${STAGE_FILE_ROWS})`,
    ];
    const limits = [STAGE_CHUNK_ROWS, STAGE_FILE_ROWS];
    for (const [i, text] of statements.entries()) {
      for (;;) {
        const result = await this.pool.query(text, [reportId, above, below]);
        if ((result.rowCount ?? 0) < (limits[i] ?? 0)) break;
      }
    }
  }

  /** The generation a report shows now; null when the report is gone. */
  async shownGeneration(reportId: string): Promise<number | null> {
    const result = await this.pool.query<{ g: string }>('select rows_generation as g from reports where id = $1', [
      reportId,
    ]);
    const row = result.rows[0];
    return row ? Number(row.g) : null;
  }

  /** One client for the whole transaction (see the CAVEAT in db/client.ts): keep what runs inside it short. */
  async inTransaction<T>(work: (writer: GeneratedRowsWriter) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const result = await work(new GeneratedRowsWriter(client));
      await client.query('commit');
      client.release();
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      client.release();
      throw error;
    }
  }
}

/** The writes of one generation, on the transaction's client. */
export class GeneratedRowsWriter {
  constructor(readonly client: pg.PoolClient) {}

  /** Locks the report (a delete waits for the swap); false when it is gone (deleted while running). */
  async lock(reportId: string): Promise<void> {
    const found = await this.client.query('select id from reports where id = $1 for update', [reportId]);
    if (found.rowCount === 0) throw new Error(`report ${reportId} does not exist (deleted while running?)`);
  }

  /** The report's figures, and its staged generation made the one readers see (the swap). */
  async setFigures(reportId: string, figures: StoredFigures, generation: number): Promise<void> {
    const assigned: [string, unknown][] = [
      ['rows_generation', generation],
      ...figures.counters.map((c): [string, unknown] => [c.column.name, c.value]),
      ['diff_line_covered', figures.diffLineCovered],
      ['diff_line_total', figures.diffLineTotal],
      ['code_author', figures.codeAuthor],
      ['new_commit', figures.newCommit],
      ['packages', figures.packages],
      ['carried', figures.carried === null ? null : JSON.stringify(figures.carried)],
    ];
    // $1 is the report id; each assigned column takes the next placeholder.
    const set = assigned.map(([name], i) => `${name} = $${i + 2}`).join(', ');
    await this.client.query(`update reports set ${set}, updated_at = now() where id = $1`, [
      reportId,
      ...assigned.map(([, value]) => value),
    ]);
  }
}

/**
 * Rows per staging statement: each must stay well under issue 41's 200 ms wait on PGlite. Measured as the
 * PGlite thread's CPU per statement (bench/api-me.ts, at load 20 on 2 cores): 200 method rows ~6 ms, 200
 * class rows ~15 ms (each also goes into the class table's eleven sort indexes), 200 file rows ~5 ms
 * (a file row carries the file's line arrays). Each statement also costs ~4 ms of its own, so chunks
 * are no smaller than they need to be.
 */
export const STAGE_CHUNK_ROWS = 500;
export const STAGE_CLASS_ROWS = 250;
export const STAGE_FILE_ROWS = 100;
/** Class-row ids taken per statement. */
const ID_CHUNK = 2_000;

function stagedColumns(reportId: string, generation: number) {
  return [
    { column: { name: 'report_id', type: 'uuid' as const }, value: reportId },
    { column: { name: 'generation', type: 'int8' as const }, value: generation },
  ];
}
