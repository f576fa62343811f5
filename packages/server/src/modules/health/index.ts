import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { HealthRepository } from './repository.ts';
import { healthRoutes } from './routes.ts';
import { HealthService, type ReadinessProbe } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Marks the process as shutting down: `/readyz` answers 503 from now on, while the ports still
     * serve (main.ts calls it first on SIGTERM; closing the app calls it too).
     */
    beginShutdown(): void;
  }
}

export function registerHealth(app: FastifyInstance, db: Db, deps: { redis?: ReadinessProbe }): void {
  const health = new HealthService(new HealthRepository(db), deps.redis);
  app.decorate('beginShutdown', () => health.beginShutdown());
  app.addHook('preClose', async () => health.beginShutdown());
  healthRoutes(app, health);
}
