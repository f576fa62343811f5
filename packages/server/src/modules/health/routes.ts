import { LivenessSchema, PATHS, ReadinessSchema } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { HealthService } from './service.ts';

/** Probes for process managers and load balancers: bare JSON, no envelope, no session, not in the API docs. */
export function healthRoutes(app: FastifyInstance, health: HealthService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(PATHS.healthz, {
    config: { access: 'public' },
    schema: { hide: true, response: { 200: LivenessSchema } },
    handler: async () => ({ alive: true as const }),
  });
  r.get(PATHS.readyz, {
    config: { access: 'public' },
    schema: { hide: true, response: { 200: ReadinessSchema, 503: ReadinessSchema } },
    handler: async (_req, reply) => {
      const readiness = await health.readiness();
      return reply.code(readiness.ready ? 200 : 503).send(readiness);
    },
  });
}
