import {
  envelopeSchema,
  InterfaceDetailQuerySchema,
  InterfaceDetailSchema,
  InterfaceListSchema,
  PATHS,
  TraceWindowQuerySchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { InterfaceService } from './interface-service.ts';

/** Point 6: the interface analytics screens need ('read', 'InterfaceAnalytic'). */
const readAnalytics = { access: { action: 'read', resource: 'InterfaceAnalytic' } } as const;
const ok = <T>(data: T) => ({ code: 200, message: 'OK', data });

export function interfaceRoutes(app: FastifyInstance, interfaces: InterfaceService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['traces'];
  r.get(PATHS.traceInterfaces, {
    config: readAnalytics,
    schema: {
      tags,
      description: "An app's interfaces over a window: calls, error rate, p50/p95/p99.",
      querystring: TraceWindowQuerySchema,
      response: { 200: envelopeSchema(InterfaceListSchema) },
    },
    handler: async (req) => ok({ items: await interfaces.list(req.query) }),
  });
  r.get(PATHS.traceInterface, {
    config: readAnalytics,
    schema: {
      tags,
      description: 'One interface over time: percentiles, histogram, slowest and failing calls, cases, methods.',
      querystring: InterfaceDetailQuerySchema,
      response: { 200: envelopeSchema(InterfaceDetailSchema) },
    },
    handler: async (req) => ok(await interfaces.detail(req.query)),
  });
}
