import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../lib/job-queue.ts';
import type { ZentaoService } from './service.ts';

/** ZenTao's stories and cases imported on the schedule (`SEXTANT_ZENTAO_IMPORT_CRON`). */
export const ZENTAO_IMPORT_QUEUE = 'zentao-import';
export const DEFAULT_ZENTAO_IMPORT_CRON = '0 * * * *';

/**
 * The scheduled import as a pg-boss cron job on the process's one job queue, so one instance among
 * several runs each once (a web process only queues). Until ZenTao is configured the job does
 * nothing; a failure is logged and the next run retries.
 */
export class ZentaoImportJobs {
  constructor(
    private readonly opts: {
      queue: JobQueue;
      zentao: Pick<ZentaoService, 'importOnSchedule'>;
      /** Off (test apps), nothing is worked or scheduled from this process. */
      enabled: boolean;
      cron: string;
      log: FastifyBaseLogger;
    },
  ) {
    if (!opts.enabled) return;
    opts.queue.define({ name: ZENTAO_IMPORT_QUEUE, retryLimit: 0, expireInSeconds: 60 * 60 });
    opts.queue.work(ZENTAO_IMPORT_QUEUE, { pollingIntervalSeconds: 2 }, () => this.run());
    opts.queue.schedule(ZENTAO_IMPORT_QUEUE, opts.cron, { tz: 'UTC' });
  }

  /** At start, where jobs are worked: the queue, its worker and the schedule. */
  async start(): Promise<void> {
    if (!this.opts.enabled || !this.opts.queue.works) return;
    await this.opts.queue
      .start()
      .catch((error: unknown) => this.opts.log.error({ err: error }, 'zentao import queue did not start'));
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
