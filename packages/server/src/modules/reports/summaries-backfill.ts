import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../lib/job-queue.ts';
import { type ReportSummaries, SUMMARIES_VERSION, writeSummaries } from './generate/summaries.ts';
import { GeneratedRowsRepository, type ReportRow, type ReportsRepository } from './repository.ts';

export const SUMMARIES_BACKFILL_QUEUE = 'report-summaries-backfill';
const BATCH = 20;

/**
 * Reports that reached SUCCESS before their summaries were kept (before migration 0017, or before a
 * later SUMMARIES_VERSION) have no committer, case or requirement rows: the analytics would under-count
 * them. The backfill derives them again as the pipeline did (pipeline/derive-summaries.ts), one report
 * at a time, oldest first, each in its own transaction; a report re-run or deleted meanwhile is left to
 * its new run. One that cannot be derived (repository or upload gone) is logged and marked given up.
 */
export class SummariesBackfill {
  constructor(
    private readonly deps: {
      db: Db;
      repository: ReportsRepository;
      derive: (report: ReportRow) => Promise<ReportSummaries>;
      log: FastifyBaseLogger;
    },
  ) {}

  async pending(): Promise<boolean> {
    return (await this.deps.repository.summariesBehind(SUMMARIES_VERSION, 1)).length > 0;
  }

  async run(): Promise<{ derived: number; givenUp: number }> {
    const { repository, log } = this.deps;
    const tally = { derived: 0, givenUp: 0 };
    const passed: string[] = [];
    for (;;) {
      const batch = await repository.summariesBehind(SUMMARIES_VERSION, BATCH, passed);
      if (batch.length === 0) break;
      for (const report of batch) {
        passed.push(report.id);
        try {
          if (await this.write(report, await this.deps.derive(report))) tally.derived++;
        } catch (error) {
          log.warn({ err: error, reportId: report.id }, 'report summaries could not be derived again');
          await repository.summariesGivenUp(report.id, SUMMARIES_VERSION);
          tally.givenUp++;
        }
      }
    }
    if (tally.derived + tally.givenUp > 0) log.info(tally, 'report summaries backfilled');
    return tally;
  }

  /** Writes unless the report was re-run, failed or deleted since it was read (its run writes its own). */
  private write(report: ReportRow, summaries: ReportSummaries): Promise<boolean> {
    return new GeneratedRowsRepository(this.deps.db).inTransaction(async ({ client }) => {
      const { rows } = await client.query<{ run: number; status: string }>(
        'select run, status from reports where id = $1 for update',
        [report.id],
      );
      const now = rows[0];
      if (!now || now.run !== report.run || now.status !== 'SUCCESS') return false;
      await writeSummaries(client, report.id, summaries);
      return true;
    });
  }
}

/** The backfill as a job on the shared queue, queued at start where jobs are worked and reports need it. */
export function scheduleSummariesBackfill(queue: JobQueue, backfill: SummariesBackfill, log: FastifyBaseLogger) {
  queue.define({ name: SUMMARIES_BACKFILL_QUEUE, retryLimit: 1, expireInSeconds: 12 * 3600 });
  queue.work(SUMMARIES_BACKFILL_QUEUE, { batchSize: 1, pollingIntervalSeconds: 60 }, () => backfill.run());
  return async () => {
    // Checked first: a database without such reports (every fresh one) never starts the queue for it.
    if (!queue.works || !(await backfill.pending())) return;
    await queue
      .send(SUMMARIES_BACKFILL_QUEUE, {}, { singletonKey: 'at-start', singletonSeconds: 3600 })
      .catch((error: unknown) => log.error({ err: error }, 'report summaries backfill not queued'));
  };
}
