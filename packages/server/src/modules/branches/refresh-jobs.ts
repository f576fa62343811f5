import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { startJobQueue } from '../../lib/job-queue.ts';
import type { BranchesService } from './service.ts';

/** One app's branches fetched (a new app). */
export const BRANCH_REFRESH_QUEUE = 'branch-refresh';
/** Every app's branches fetched, on the schedule (`SEXTANT_BRANCH_REFRESH_CRON`). */
export const BRANCH_REFRESH_ALL_QUEUE = 'branch-refresh-all';
export const DEFAULT_BRANCH_REFRESH_CRON = '*/30 * * * *';

type Options = {
  pool: pg.Pool;
  branches: Pick<BranchesService, 'refresh'>;
  appIds: () => Promise<string[]>;
  /** Without workers here (an API-only instance), nothing is queued or scheduled from it. */
  runJobs: boolean;
  cron: string;
  log: FastifyBaseLogger;
};

/**
 * Branch lists kept fresh by the server itself (issue 37): a new app's branches are fetched as soon as
 * it is created, and every app's on a cron schedule, both as pg-boss jobs on the database, so one
 * instance among several does each once. A repository that cannot be read is logged and skipped.
 */
export class BranchRefreshJobs {
  private boss: Promise<PgBoss> | null = null;
  private closed = false;

  constructor(private readonly opts: Options) {}

  /** At start (a worker instance): the queues, their workers and the schedule. */
  async start(): Promise<void> {
    if (!this.opts.runJobs) return;
    await this.started().catch((error: unknown) =>
      this.opts.log.error({ err: error }, 'branch refresh queue did not start'),
    );
  }

  /** Queues the fetch of a new app's branches. */
  async appCreated(appId: string): Promise<void> {
    if (!this.opts.runJobs || this.closed) return;
    try {
      const boss = await this.started();
      await boss.send(BRANCH_REFRESH_QUEUE, { appId }, { singletonKey: appId, singletonSeconds: 10 });
    } catch (error) {
      this.opts.log.error({ err: error, appId }, "a new app's branch refresh was not queued");
    }
  }

  async stop(): Promise<void> {
    this.closed = true;
    const boss = await this.boss?.catch(() => null);
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
  }

  private started(): Promise<PgBoss> {
    if (this.closed) return Promise.reject(new Error('branch refresh jobs are stopped'));
    this.boss ??= this.startBoss().catch((error: unknown) => {
      this.boss = null;
      throw error;
    });
    return this.boss;
  }

  private async startBoss(): Promise<PgBoss> {
    const boss = await startJobQueue({
      pool: this.opts.pool,
      log: this.opts.log,
      what: 'branch refresh',
      schedule: true,
      supervise: true,
      queues: [BRANCH_REFRESH_QUEUE, BRANCH_REFRESH_ALL_QUEUE].map((name) => ({
        name,
        retryLimit: 0,
        expireInSeconds: 60 * 60,
      })),
    });
    await boss.work<{ appId: string }>(BRANCH_REFRESH_QUEUE, { pollingIntervalSeconds: 2 }, async (jobs) => {
      for (const job of jobs) await this.refresh(job.data.appId);
    });
    await boss.work(BRANCH_REFRESH_ALL_QUEUE, { pollingIntervalSeconds: 2 }, async () => {
      for (const appId of await this.opts.appIds()) {
        if (this.closed) return;
        await this.refresh(appId);
      }
    });
    await boss.schedule(BRANCH_REFRESH_ALL_QUEUE, this.opts.cron, {}, { tz: 'UTC' });
    return boss;
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
