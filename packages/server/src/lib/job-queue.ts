import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import PgBoss from 'pg-boss';

export type QueueDefinition = { name: string; retryLimit: number; expireInSeconds: number };

/**
 * Starts pg-boss on the app's own pool (PGlite behind its socket too: one driver for both engines),
 * with its errors logged under `what`, and creates `queues`. `schedule` runs pg-boss's cron; `supervise`
 * its maintenance (expiry, archiving), which only processes that work jobs need.
 */
export async function startJobQueue(opts: {
  pool: pg.Pool;
  log: FastifyBaseLogger;
  what: string;
  schedule: boolean;
  supervise: boolean;
  queues: QueueDefinition[];
}): Promise<PgBoss> {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => opts.pool.query(text, values) },
    schedule: opts.schedule,
    supervise: opts.supervise,
    migrate: true,
  });
  boss.on('error', (error) => opts.log.error({ err: error }, `${opts.what} queue error`));
  await boss.start();
  for (const queue of opts.queues) await boss.createQueue(queue.name, queue);
  return boss;
}
