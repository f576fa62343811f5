import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { JobQueue } from '../../lib/job-queue.ts';
import { ReportOutdated } from './pipeline/pipeline.ts';
import { StepFailure } from './pipeline/step-failure.ts';
import type { ReportRow, ReportsRepository } from './repository.ts';

export const REPORT_QUEUE = 'report-pipeline';

export type JobTiming = {
  /** How often a running job touches its report's `updated_at`. */
  heartbeatMs: number;
  /** A running report whose heart-beat is this old has lost its worker (a killed process). */
  staleMs: number;
  /** How often the sweeper looks for such reports. */
  sweepMs: number;
};

/**
 * Heart-beat every 5 s, stale after 30 s. `SEXTANT_REPORT_HEARTBEAT_S` scales all three (the
 * restart test uses 1 s, so a killed job is taken over within seconds).
 */
export function jobTiming(env: NodeJS.ProcessEnv = process.env): JobTiming {
  const seconds = Number(env.SEXTANT_REPORT_HEARTBEAT_S);
  const heartbeatMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 5000;
  return { heartbeatMs, staleMs: heartbeatMs * 6, sweepMs: heartbeatMs * 2 };
}

type RunJob = (report: ReportRow, signal: AbortSignal) => Promise<void>;
type Failed = (report: ReportRow, failure: StepFailure) => Promise<void>;

/** Why a job's signal was aborted: the process is closing (the report is left for the sweeper). */
class Shutdown extends Error {}

/**
 * Durable report jobs on pg-boss (one queue, `concurrency` workers of one job each) plus the rules
 * pg-boss cannot express:
 *
 * - One job per report at a time: a job first *claims* its report in one UPDATE (still at the run
 *   it was queued for, and QUEUED or abandoned), so a duplicate or outdated job does nothing.
 * - A re-run bumps `run`; the running job sees it at its next heart-beat or step and stops.
 * - Restart: a job touches `reports.updated_at` every heart-beat. The sweeper (every `sweepMs`, and
 *   once at start) re-queues reports in a running status whose heart-beat is older than `staleMs`
 *   — a process killed mid-job — and the new job claims them and runs the pipeline again from the
 *   clone step. Every step is idempotent (fetch into the mirror, a fresh build directory, and
 *   generation replaces the report's rows in one transaction), so no rows are duplicated.
 *   pg-boss's own retry is off (retryLimit 0): the report's state, not the job's, decides.
 *
 * The jobs run on the process's one job queue (app.ts), which starts lazily (first report queued, or
 * reports exist at start), so test apps without reports never create pg-boss's schema. A web process
 * (`--role web`) only queues: its queue has no workers, and it runs no sweeper.
 */
export class ReportJobs {
  private readonly running = new Map<string, { run: number; controller: AbortController; done: Promise<void> }>();
  private readonly queued = new Map<string, string[]>();
  private sweeper: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly opts: {
      queue: JobQueue;
      repository: ReportsRepository;
      concurrency: number;
      timing: JobTiming;
      log: FastifyBaseLogger;
      runJob: RunJob;
      failed: Failed;
    },
  ) {
    const { queue } = opts;
    queue.define({ name: REPORT_QUEUE, retryLimit: 0, expireInSeconds: 4 * 60 * 60 });
    for (let i = 0; i < opts.concurrency; i++) {
      queue.work<{ reportId: string; run: number }>(
        REPORT_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: 2 },
        async ([job]) => {
          if (job) await this.work(job.id, job.data.reportId, job.data.run);
        },
      );
    }
    queue.beforeStop(() => this.stop());
  }

  /**
   * At start, where jobs are worked: the sweeper, and the queue when reports exist (some may be
   * mid-job). The API serves without the queue; reports wait (QUEUED) until a worker starts.
   */
  async resume(): Promise<void> {
    const { queue, timing } = this.opts;
    if (!queue.works) return;
    this.sweeper = setInterval(() => void this.sweep(), timing.sweepMs);
    this.sweeper.unref();
    if (!(await this.opts.repository.anyReport())) return;
    await queue.start().catch((error: unknown) => this.opts.log.error({ err: error }, 'report queue did not start'));
    void this.sweep();
  }

  async enqueue(reportId: string, run: number, singletonSeconds?: number): Promise<void> {
    if (this.closed) throw new Error('report jobs are stopped');
    const options: PgBoss.SendOptions = singletonSeconds
      ? { singletonKey: `${reportId}:${run}:sweep`, singletonSeconds }
      : {};
    const id = await this.opts.queue.send(REPORT_QUEUE, { reportId, run }, options);
    if (id) this.queued.set(reportId, [...(this.queued.get(reportId) ?? []), id]);
  }

  /** A re-run or delete: the job running here stops now, queued jobs sent from here are cancelled. */
  async cancel(reportId: string): Promise<void> {
    this.running.get(reportId)?.controller.abort(new ReportOutdated());
    const ids = this.queued.get(reportId) ?? [];
    this.queued.delete(reportId);
    await this.opts.queue.cancel(REPORT_QUEUE, ids).catch(() => undefined);
  }

  /**
   * Stops the running jobs here and hands their reports over at once: their heart-beat is set back
   * past `staleMs`, so the next process to sweep (this one after a restart, or another) takes them.
   * Run by the job queue before it stops pg-boss.
   */
  private async stop(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    const stopping = [...this.running.entries()];
    for (const [, { controller }] of stopping) controller.abort(new Shutdown('server closing'));
    // A step that cannot be interrupted (a diff, a generation transaction) gets a few seconds.
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(stopping.map(([, job]) => job.done)),
      new Promise((resolve) => {
        grace = setTimeout(resolve, 10_000);
      }),
    ]);
    clearTimeout(grace);
    for (const [id, { run }] of stopping) {
      await this.opts.repository.release(id, run, this.opts.timing.staleMs).catch(() => undefined);
    }
  }

  /** Re-queues reports whose worker died (see the class comment); at most one job per report per window. */
  private async sweep(): Promise<void> {
    try {
      const { staleMs } = this.opts.timing;
      for (const { id, run } of await this.opts.repository.stale(staleMs)) {
        if (this.closed) return;
        if (this.running.has(id)) continue;
        this.opts.log.info({ reportId: id, run }, 'report job lost its worker; queued again');
        await this.enqueue(id, run, Math.max(1, Math.ceil(staleMs / 1000)));
      }
    } catch (error) {
      if (!this.closed) this.opts.log.error({ err: error }, 'report sweep failed');
    }
  }

  private async work(jobId: string, reportId: string, run: number): Promise<void> {
    const ids = this.queued.get(reportId)?.filter((id) => id !== jobId);
    if (ids?.length) this.queued.set(reportId, ids);
    else this.queued.delete(reportId);
    const current = this.running.get(reportId);
    if (current && current.run >= run) return;
    // A re-run here: the outdated job was aborted by cancel(); its end is near.
    if (current) await current.done;
    if (this.closed || this.running.has(reportId)) return;
    const { repository, timing } = this.opts;
    const report = await repository.claim(reportId, run, timing.staleMs);
    if (!report) return;
    const controller = new AbortController();
    let finished = () => {};
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    this.running.set(reportId, { run, controller, done });
    // One heart-beat at a time: while generation holds the report row (FOR UPDATE) a beat waits,
    // and beats piling up would take every pool connection.
    let beating = false;
    const heartbeat = setInterval(() => {
      if (beating) return;
      beating = true;
      repository
        .advance(reportId, run, {})
        .then(
          (current) => {
            if (!current) controller.abort(new ReportOutdated());
          },
          () => undefined,
        )
        .finally(() => {
          beating = false;
        });
    }, timing.heartbeatMs);
    try {
      await this.opts.runJob(report, controller.signal);
    } catch (error) {
      if (error instanceof ReportOutdated || error instanceof Shutdown || controller.signal.aborted) return;
      const failure =
        error instanceof StepFailure
          ? error
          : new StepFailure('GENERATEREPORT_FAIL', error instanceof Error ? error.message : String(error));
      await this.opts.failed(report, failure);
    } finally {
      clearInterval(heartbeat);
      if (this.running.get(reportId)?.controller === controller) this.running.delete(reportId);
      finished();
    }
  }
}
