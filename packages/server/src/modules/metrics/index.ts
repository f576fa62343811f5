import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { Instruments } from './registry.ts';
import { MetricsRepository } from './repository.ts';
import { metricsRoutes } from './routes.ts';

export { Instruments } from './registry.ts';

/** Builds this process's instruments and serves them; the realtime plugin counts sockets on them. */
export function createInstruments(db: Db): Instruments {
  const repository = new MetricsRepository(db);
  return new Instruments(() => repository.reportQueueDepth());
}

export function registerMetrics(app: FastifyInstance, instruments: Instruments, token: string | undefined): void {
  metricsRoutes(app, instruments, token);
}
