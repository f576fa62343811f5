import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../lib/job-queue.ts';
import type { BranchesService } from './service.ts';

/** One app's branches fetched (a new app). */
export const BRANCH_REFRESH_QUEUE = 'branch-refresh';
/** Every app's branches fetched, on the schedule (`SEXTANT_BRANCH_REFRESH_CRON`). */
export const BRANCH_REFRESH_ALL_QUEUE = 'branch-refresh-all';
export const DEFAULT_BRANCH_REFRESH_CRON = '*/30 * * * *';

type Options = {
  /** The process's one job queue (app.ts). */
  queue: JobQueue;
  branches: Pick<BranchesService, 'refresh'>;
  appIds: () => Promise<string[]>;
  /** Off (test apps), nothing is queued, worked or scheduled from this process. */
  enabled: boolean;
  cron: string;
  log: FastifyBaseLogger;
};

/**
 * Branch lists kept fresh by the server itself (issue 37): a new app's branches are fetched as soon as
 * it is created, and every app's on a cron schedule, both as pg-boss jobs on the database, so one
 * instance among several does each once. A web process (`--role web`) only queues; workers fetch.
 * A repository that cannot be read is logged and skipped.
 */
export class BranchRefreshJobs {
  private closed = false;

  constructor(private readonly opts: Options) {
    if (!opts.enabled) return;
    const { queue } = opts;
    for (const name of [BRANCH_REFRESH_QUEUE, BRANCH_REFRESH_ALL_QUEUE]) {
      queue.define({ name, retryLimit: 0, expireInSeconds: 60 * 60 });
    }
    queue.work<{ appId: string }>(BRANCH_REFRESH_QUEUE, { pollingIntervalSeconds: 2 }, async (jobs) => {
      for (const job of jobs) await this.refresh(job.data.appId);
    });
    queue.work(BRANCH_REFRESH_ALL_QUEUE, { pollingIntervalSeconds: 2 }, async () => {
      for (const appId of await opts.appIds()) {
        if (this.closed) return;
        await this.refresh(appId);
      }
    });
    queue.schedule(BRANCH_REFRESH_ALL_QUEUE, opts.cron, { tz: 'UTC' });
    queue.beforeStop(async () => {
      this.closed = true;
    });
  }

  /** At start, where jobs are worked: the queue, its workers and the schedule. */
  async start(): Promise<void> {
    if (!this.opts.enabled || !this.opts.queue.works) return;
    await this.opts.queue
      .start()
      .catch((error: unknown) => this.opts.log.error({ err: error }, 'branch refresh queue did not start'));
  }

  /** Queues the fetch of a new app's branches. */
  async appCreated(appId: string): Promise<void> {
    if (!this.opts.enabled || this.closed) return;
    try {
      await this.opts.queue.send(BRANCH_REFRESH_QUEUE, { appId }, { singletonKey: appId, singletonSeconds: 10 });
    } catch (error) {
      this.opts.log.error({ err: error, appId }, "a new app's branch refresh was not queued");
    }
  }

  private async refresh(appId: string): Promise<void> {
    try {
      const result = await this.opts.branches.refresh(appId, null);
      this.opts.log.info({ appId, ...result }, 'branches refreshed');
    } catch (error) {
      // An unreachable repository, or an app deleted meanwhile: the next schedule tries again.
      this.opts.log.warn({ err: error, appId }, 'branches not refreshed');
    }
  }
}
