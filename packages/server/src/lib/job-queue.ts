import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import PgBoss from 'pg-boss';

export type QueueDefinition = { name: string; retryLimit: number; expireInSeconds: number };

type Worker = {
  queue: string;
  options: PgBoss.WorkOptions;
  handler: (jobs: PgBoss.Job<object>[]) => Promise<unknown>;
};
type Schedule = { queue: string; cron: string; options?: PgBoss.ScheduleOptions };

/**
 * The process's one job queue: a single pg-boss instance on the app's own pool (PGlite behind its
 * socket too: one driver for both engines), built once in app.ts and handed to the modules.
 *
 * Modules declare their queues, workers and schedules up front; the queue starts once, on the first
 * job sent or when a module asks (`start`), so test apps and instances that never queue anything
 * never create pg-boss's schema. Where `works` is false (a web process, `--role web`) jobs are only
 * sent: no worker, no schedule and no maintenance run here, another process works them.
 *
 * `stop` runs the modules' `beforeStop` hooks first (a report job hands its report back), then stops
 * pg-boss gracefully (workers finish the job in hand, within a timeout).
 */
export class JobQueue {
  private readonly queues = new Map<string, QueueDefinition>();
  private readonly workers: Worker[] = [];
  private readonly schedules: Schedule[] = [];
  private readonly workerIds = new Map<string, string[]>();
  private readonly stopHooks: (() => Promise<void>)[] = [];
  private boss: Promise<PgBoss> | null = null;
  private closed = false;

  constructor(
    private readonly opts: {
      pool: pg.Pool;
      log: FastifyBaseLogger;
      /** Whether this process works jobs and runs the schedules (roles `worker` and `all`). */
      works: boolean;
    },
  ) {}

  get works(): boolean {
    return this.opts.works;
  }

  /** A queue created when the queue starts. */
  define(queue: QueueDefinition): void {
    this.assertNotStarted(queue.name);
    this.queues.set(queue.name, queue);
  }

  /** A worker on `queue`, attached at start where this process works jobs (else ignored). */
  work<T extends object>(
    queue: string,
    options: PgBoss.WorkOptions,
    handler: (jobs: PgBoss.Job<T>[]) => Promise<unknown>,
  ): void {
    this.assertNotStarted(queue);
    if (this.opts.works) this.workers.push({ queue, options, handler: handler as Worker['handler'] });
  }

  /** A cron schedule of `queue`, kept where this process works jobs (pg-boss sends each once). */
  schedule(queue: string, cron: string, options?: PgBoss.ScheduleOptions): void {
    this.assertNotStarted(queue);
    if (this.opts.works) this.schedules.push({ queue, cron, ...(options ? { options } : {}) });
  }

  /** Run when the queue stops, before pg-boss does, in the order given. */
  beforeStop(hook: () => Promise<void>): void {
    this.stopHooks.push(hook);
  }

  /** Starts pg-boss once (later calls share the first); refused once stopping. */
  start(): Promise<PgBoss> {
    // Never (re)started once stopping: the pool ends right after, and pg-boss would query an ended pool.
    if (this.closed) return Promise.reject(new Error('the job queue is stopped'));
    this.boss ??= this.startBoss().catch((error: unknown) => {
      this.boss = null;
      throw error;
    });
    return this.boss;
  }

  /** Sends a job (starting the queue if needed) and wakes this process's workers of that queue. */
  async send(queue: string, data: object, options: PgBoss.SendOptions = {}): Promise<string | null> {
    const boss = await this.start();
    const id = await boss.send(queue, data, options);
    for (const worker of this.workerIds.get(queue) ?? []) boss.notifyWorker(worker);
    return id;
  }

  /** Cancels queued jobs; nothing to do before the queue has started. */
  async cancel(queue: string, ids: string[]): Promise<void> {
    if (!this.boss || ids.length === 0) return;
    await (await this.boss).cancel(queue, ids);
  }

  async stop(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const hook of this.stopHooks) {
      await hook().catch((error: unknown) => this.opts.log.error({ err: error }, 'job queue stop hook failed'));
    }
    const boss = await this.boss?.catch(() => null);
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
  }

  private assertNotStarted(queue: string): void {
    if (this.boss) throw new Error(`queue ${queue} declared after the job queue started`);
  }

  private async startBoss(): Promise<PgBoss> {
    const boss = new PgBoss({
      db: { executeSql: (text, values) => this.opts.pool.query(text, values) },
      schedule: this.opts.works,
      supervise: this.opts.works,
      migrate: true,
    });
    boss.on('error', (error) => this.opts.log.error({ err: error }, 'job queue error'));
    await boss.start();
    for (const queue of this.queues.values()) await boss.createQueue(queue.name, queue);
    for (const { queue, cron, options } of this.schedules) await boss.schedule(queue, cron, {}, options);
    for (const { queue, options, handler } of this.workers) {
      const id = await boss.work(queue, options, handler);
      this.workerIds.set(queue, [...(this.workerIds.get(queue) ?? []), id]);
    }
    return boss;
  }
}
