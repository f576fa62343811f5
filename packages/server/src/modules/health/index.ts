import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { HealthRepository } from './repository.ts';
import { healthRoutes } from './routes.ts';
import { HealthService, type ReadinessProbe } from './service.ts';

export function registerHealth(app: FastifyInstance, db: Db, deps: { redis?: ReadinessProbe }): void {
  healthRoutes(app, new HealthService(new HealthRepository(db), deps.redis));
}
