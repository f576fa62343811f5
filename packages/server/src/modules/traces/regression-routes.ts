import {
  CreateRegressionSchema,
  envelopeSchema,
  IdParamsSchema,
  PATHS,
  RegressionListQuerySchema,
  RegressionRunDetailSchema,
  RegressionRunListSchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RegressionService } from './regression-service.ts';

const ok = <T>(data: T) => ({ code: 200, message: 'OK', data });

/** Point 6: regression screens need ('read', 'Regression'); making a run stores one, so it needs 'create'. */
export function regressionRoutes(app: FastifyInstance, regressions: RegressionService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['traces'];
  r.get(PATHS.regressions, {
    config: { access: { action: 'read', resource: 'Regression' } },
    schema: {
      tags,
      description: 'Regression runs, newest first.',
      querystring: RegressionListQuerySchema,
      response: { 200: envelopeSchema(RegressionRunListSchema) },
    },
    handler: async (req) => ok({ items: await regressions.list(req.query.appId) }),
  });
  r.post(PATHS.regressions, {
    config: { access: { action: 'create', resource: 'Regression' } },
    schema: {
      tags,
      description: 'Compares a base (version or window) with a candidate and stores the run.',
      body: CreateRegressionSchema,
      response: { 200: envelopeSchema(RegressionRunDetailSchema) },
    },
    handler: async (req) => ok(await regressions.create(req.body, req.principal?.userData.userid ?? null)),
  });
  r.get(PATHS.regression, {
    config: { access: { action: 'read', resource: 'Regression' } },
    schema: {
      tags,
      description: 'One regression run: every interface compared, with its p-values.',
      params: IdParamsSchema,
      response: { 200: envelopeSchema(RegressionRunDetailSchema) },
    },
    handler: async (req) => ok(await regressions.get(req.params.id)),
  });
}
