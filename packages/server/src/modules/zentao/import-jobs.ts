import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { startJobQueue } from '../../lib/job-queue.ts';
import type { ZentaoService } from './service.ts';

/** ZenTao's stories and cases imported on the schedule (`SEXTANT_ZENTAO_IMPORT_CRON`). */
export const ZENTAO_IMPORT_QUEUE = 'zentao-import';
export const DEFAULT_ZENTAO_IMPORT_CRON = '0 * * * *';

/**
 * The scheduled import as a pg-boss cron job on the database, so one instance among several runs each
 * once. Until ZenTao is configured the job does nothing; a failure is logged and the next run retries.
 */
export class ZentaoImportJobs {
  private boss: PgBoss | null = null;

  constructor(
    private readonly opts: {
      pool: pg.Pool;
      zentao: Pick<ZentaoService, 'importOnSchedule'>;
      runJobs: boolean;
      cron: string;
      log: FastifyBaseLogger;
    },
  ) {}

  async start(): Promise<void> {
    if (!this.opts.runJobs) return;
    try {
      const boss = await startJobQueue({
        pool: this.opts.pool,
        log: this.opts.log,
        what: 'zentao import',
        schedule: true,
        supervise: true,
        queues: [{ name: ZENTAO_IMPORT_QUEUE, retryLimit: 0, expireInSeconds: 60 * 60 }],
      });
      this.boss = boss;
      await boss.work(ZENTAO_IMPORT_QUEUE, { pollingIntervalSeconds: 2 }, () => this.run());
      await boss.schedule(ZENTAO_IMPORT_QUEUE, this.opts.cron, {}, { tz: 'UTC' });
    } catch (error) {
      this.opts.log.error({ err: error }, 'zentao import queue did not start');
    }
  }

  async stop(): Promise<void> {
    await this.boss?.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
  }

  /** One scheduled run (the job's work). */
  async run(): Promise<void> {
    try {
      const summary = await this.opts.zentao.importOnSchedule();
      if (summary) this.opts.log.info({ requirements: summary.requirements, cases: summary.cases }, 'zentao imported');
    } catch (error) {
      this.opts.log.warn({ err: error }, 'zentao not imported');
    }
  }
}
