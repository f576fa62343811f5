import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../lib/job-queue.ts';

/** Turns the latest spans into exception and performance risks (every five minutes, and after trace intake). */
export const TRACE_RISKS_QUEUE = 'risk-trace-risks';
/** Rewrites the stored severity of items younger than four weeks (its age part), daily. */
export const SEVERITY_QUEUE = 'risk-severity';

/**
 * The risks module's scheduled work on the shared job queue (issue 34), worked and scheduled where
 * jobs run; `soon()` asks for a trace-risk run after an intake batch, at most one per half minute (a
 * debounced singleton), from any process (a web process queues it for a worker).
 */
export class RiskJobs {
  constructor(
    private readonly queue: JobQueue,
    work: { traceRisks: () => Promise<unknown>; severity: () => Promise<unknown> },
    private readonly log: FastifyBaseLogger,
  ) {
    for (const name of [TRACE_RISKS_QUEUE, SEVERITY_QUEUE]) {
      queue.define({ name, retryLimit: 1, expireInSeconds: 15 * 60 });
    }
    queue.schedule(TRACE_RISKS_QUEUE, '*/5 * * * *');
    queue.schedule(SEVERITY_QUEUE, '17 3 * * *');
    queue.work(TRACE_RISKS_QUEUE, { batchSize: 1, pollingIntervalSeconds: 5 }, () => work.traceRisks());
    queue.work(SEVERITY_QUEUE, { batchSize: 1, pollingIntervalSeconds: 60 }, () => work.severity());
  }

  /** At start, where jobs are worked: the schedules and workers. */
  async start(): Promise<void> {
    if (!this.queue.works) return;
    await this.queue.start().catch((error: unknown) => this.log.error({ err: error }, 'risk jobs not started'));
  }

  async soon(): Promise<void> {
    try {
      // One run per half-minute slot; a batch arriving while this slot's run is taken books the next
      // slot's, so the spans of the last batch are always read (a plain singleton dropped it).
      await this.queue.send(
        TRACE_RISKS_QUEUE,
        {},
        { singletonKey: 'after-intake', singletonSeconds: 30, singletonNextSlot: true },
      );
    } catch (error) {
      this.log.error({ err: error }, 'trace risk run not queued');
    }
  }
}
