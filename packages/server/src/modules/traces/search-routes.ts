import {
  envelopeSchema,
  PATHS,
  TraceDetailSchema,
  TraceParamsSchema,
  TraceQuerySchema,
  TraceSearchQuerySchema,
  TraceSearchResultSchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TraceSearchService } from './search-service.ts';

/** Point 6: the trace screens need ('read', 'Trace'); as with reports, every reader sees every team's apps. */
const readTrace = { access: { action: 'read', resource: 'Trace' } } as const;
const ok = <T>(data: T) => ({ code: 200, message: 'OK', data });

export function traceSearchRoutes(app: FastifyInstance, search: TraceSearchService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['traces'];
  r.get(PATHS.traces, {
    config: readTrace,
    schema: {
      tags,
      description: 'Trace search of one app: time range, service, interface, status, duration, attribute, test case.',
      querystring: TraceSearchQuerySchema,
      response: { 200: envelopeSchema(TraceSearchResultSchema) },
    },
    handler: async (req) => ok({ items: await search.search(req.query) }),
  });
  r.get(PATHS.trace, {
    config: readTrace,
    schema: {
      tags,
      description: "One trace's spans (waterfall, attributes, events, links, exceptions).",
      params: TraceParamsSchema,
      querystring: TraceQuerySchema,
      response: { 200: envelopeSchema(TraceDetailSchema) },
    },
    handler: async (req) => ok(await search.detail(req.query.appId, req.params.traceId)),
  });
}
