import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { startJobQueue } from '../../lib/job-queue.ts';

/** Turns the latest spans into exception and performance risks (every five minutes, and after trace intake). */
export const TRACE_RISKS_QUEUE = 'risk-trace-risks';
/** Rewrites the stored severity of items younger than four weeks (its age part), daily. */
export const SEVERITY_QUEUE = 'risk-severity';

/**
 * The risks module's scheduled work on pg-boss (issue 34). Started only where jobs run (`runJobs`);
 * `soon()` asks for a trace-risk run after an intake batch, at most one per half minute (a singleton).
 */
export class RiskJobs {
  private boss: Promise<PgBoss> | null = null;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly work: { traceRisks: () => Promise<unknown>; severity: () => Promise<unknown> },
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): Promise<PgBoss> {
    // Never (re)started once stopping: the pool ends right after, and pg-boss would query an ended pool.
    if (this.closed) return Promise.reject(new Error('risk jobs are stopped'));
    this.boss ??= this.startBoss().catch((error: unknown) => {
      this.boss = null;
      throw error;
    });
    return this.boss;
  }

  async soon(): Promise<void> {
    try {
      const boss = await this.start();
      await boss.send(TRACE_RISKS_QUEUE, {}, { singletonKey: 'after-intake', singletonSeconds: 30 });
    } catch (error) {
      this.log.error({ err: error }, 'trace risk run not queued');
    }
  }

  async stop(): Promise<void> {
    this.closed = true;
    const boss = await this.boss?.catch(() => null);
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
  }

  private async startBoss(): Promise<PgBoss> {
    const boss = await startJobQueue({
      pool: this.pool,
      log: this.log,
      what: 'risk',
      schedule: true,
      supervise: true,
      queues: [TRACE_RISKS_QUEUE, SEVERITY_QUEUE].map((name) => ({ name, retryLimit: 1, expireInSeconds: 15 * 60 })),
    });
    await boss.schedule(TRACE_RISKS_QUEUE, '*/5 * * * *');
    await boss.schedule(SEVERITY_QUEUE, '17 3 * * *');
    await boss.work(TRACE_RISKS_QUEUE, { batchSize: 1, pollingIntervalSeconds: 5 }, () => this.work.traceRisks());
    await boss.work(SEVERITY_QUEUE, { batchSize: 1, pollingIntervalSeconds: 60 }, () => this.work.severity());
    return boss;
  }
}
