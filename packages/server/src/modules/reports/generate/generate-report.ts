import type { Counters } from '@sextant/coverage';
import pg from 'pg';
import type { Db } from '../../../db/client.ts';
import { insertColumns } from './bulk-insert.ts';
import { COUNTER_COLUMNS, classEntries, counterValues, detailRows } from './detail-rows.ts';
import { fileRows } from './file-rows.ts';
import { MethodChanges, mostFrequentAuthor } from './method-changes.ts';
import type { CoverageRisks, GenerateInput, GenerateResult } from './types.ts';

/**
 * Stores a report's figures, class and method rows, per-file line data and risk items in one
 * transaction, replacing what an earlier (or killed) run of the same report wrote. Rows are built
 * before the transaction opens: on PGlite an open transaction holds the only connection.
 */
/** Without `risks` (the engine's own tests and bench), no risk item is written. */
export async function generateReport(db: Db, input: GenerateInput, risks?: CoverageRisks): Promise<GenerateResult> {
  if (input.coverageType === 'incremental' && !input.diff) {
    throw new Error('an incremental report needs the diff coverage of its two versions');
  }
  const pool = poolOf(db);
  const entries = classEntries(input.coverage);
  const classIds = await takeDetailIds(pool, entries.length);
  const details = detailRows(entries, classIds, new MethodChanges(input.diff, input.changes));
  const files = fileRows(input.coverage, input.diff, input.changes);
  const figures = reportFigures(input);

  const result = await inTransaction(pool, async (client) => {
    const found = await client.query('select id from reports where id = $1 for update', [input.reportId]);
    if (found.rowCount === 0) throw new Error(`report ${input.reportId} does not exist (deleted while running?)`);
    await client.query('delete from report_details where report_id = $1', [input.reportId]);
    await client.query('delete from report_files where report_id = $1', [input.reportId]);
    const reportId = [{ column: { name: 'report_id', type: 'uuid' as const }, value: input.reportId }];
    await insertColumns(client, 'report_details', reportId, details.classes);
    await insertColumns(client, 'report_details', reportId, details.methods);
    await insertColumns(client, 'report_files', reportId, files);
    await client.query(
      `update reports set ${COUNTER_COLUMNS.map((c, i) => `${c.name} = $${i + 2}`).join(', ')},
         diff_line_covered = $14, diff_line_total = $15, code_author = $16, new_commit = $17, updated_at = now()
       where id = $1`,
      [
        input.reportId,
        ...counterValues(figures.counters),
        figures.diffLineCovered,
        figures.diffLineTotal,
        figures.codeAuthor,
        input.newCommit,
      ],
    );
    const recorded = await risks?.record(client, {
      reportId: input.reportId,
      appId: input.appId,
      version: input.version,
      testType: input.testType ?? null,
      coverage: input.coverage,
      diff: input.coverageType === 'incremental' ? input.diff : null,
      requirement: input.requirements[0] ?? null,
      passingGrade: input.passingGrade,
    });
    return {
      counts: {
        classRows: details.classes.rowCount,
        methodRows: details.methods.rowCount,
        fileRows: files.rowCount,
        riskItemsOpened: recorded?.opened ?? 0,
        riskItemsResolved: recorded?.resolved ?? 0,
      },
      announce: recorded?.announce,
    };
  });
  await result.announce?.();
  return result.counts;
}

type ReportFigures = {
  counters: Counters;
  diffLineCovered: number | null;
  diffLineTotal: number | null;
  codeAuthor: string | null;
};

/** Full: the coverage's totals. Incremental: counters over the changed methods, diff-cover's line figures. */
export function reportFigures(input: GenerateInput): ReportFigures {
  if (input.coverageType === 'full' || !input.diff) {
    return { counters: input.coverage.counters, diffLineCovered: null, diffLineTotal: null, codeAuthor: null };
  }
  return {
    counters: input.diff.incremental.totals,
    diffLineCovered: input.diff.lines.covered,
    diffLineTotal: input.diff.lines.total,
    codeAuthor: mostFrequentAuthor(input.diff.authors),
  };
}

/** The pg pool behind drizzle: bulk writes go through the driver, not the query builder. */
function poolOf(db: Db): pg.Pool {
  const client = (db as Db & { $client?: unknown }).$client;
  if (!(client instanceof pg.Pool)) throw new Error('generateReport needs a database opened on a pg Pool');
  return client;
}

/** Ids for the class rows, so method rows can name their class row in the same statement batch. */
async function takeDetailIds(pool: pg.Pool, count: number): Promise<number[]> {
  if (count === 0) return [];
  const result = await pool.query<{ ids: string[] }>(
    `select array_agg(nextval(pg_get_serial_sequence('report_details', 'id'))) as ids from generate_series(1, $1)`,
    [count],
  );
  return (result.rows[0]?.ids ?? []).map(Number);
}

/** One client for the whole transaction (see the CAVEAT in db/client.ts). */
async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    client.release();
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    client.release();
    throw error;
  }
}
