import {
  AppInputSchema,
  AppQuerySchema,
  AppSchema,
  AppUpdateSchema,
  AppWithTokenSchema,
  ConnectionCheckSchema,
  envelopeSchema,
  IdParamsSchema,
  PATHS,
  pageSchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/actor.ts';
import type { AppsService } from './service.ts';

/** `created`: told each new app's id once it is stored (its branches are fetched then). */
export function appsRoutes(app: FastifyInstance, apps: AppsService, created: (appId: string) => void = () => {}): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['apps'];
  r.get(PATHS.apps, {
    config: { access: { action: 'read', resource: 'App' } },
    schema: { tags, querystring: AppQuerySchema, response: { 200: envelopeSchema(pageSchema(AppSchema)) } },
    handler: async (req) => ({ code: 200, message: 'OK', data: await apps.list(req.query) }),
  });
  r.get(PATHS.app, {
    config: { access: { action: 'read', resource: 'App' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(AppSchema) } },
    handler: async (req) => ({ code: 200, message: 'OK', data: await apps.get(req.params.id) }),
  });
  r.post(PATHS.apps, {
    config: { access: { action: 'create', resource: 'App' } },
    schema: { tags, body: AppInputSchema, response: { 200: envelopeSchema(AppWithTokenSchema) } },
    handler: async (req) => {
      const data = await apps.create(req.body, actorOf(req));
      created(data.id);
      return { code: 200, message: 'App created. Copy the ingestion token now: it is not shown again.', data };
    },
  });
  r.patch(PATHS.app, {
    config: { access: { action: 'update', resource: 'App' } },
    schema: { tags, params: IdParamsSchema, body: AppUpdateSchema, response: { 200: envelopeSchema(AppSchema) } },
    handler: async (req) => ({
      code: 200,
      message: 'App saved.',
      data: await apps.update(req.params.id, req.body, actorOf(req)),
    }),
  });
  r.post(PATHS.appRotateToken, {
    config: { access: { action: 'update', resource: 'App' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(AppWithTokenSchema) } },
    handler: async (req) => ({
      code: 200,
      message: 'New ingestion token issued; the old one no longer works. Copy it now: it is not shown again.',
      data: await apps.rotateToken(req.params.id, actorOf(req)),
    }),
  });
  r.post(PATHS.appTestConnection, {
    config: { access: { action: 'update', resource: 'App' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(ConnectionCheckSchema) } },
    handler: async (req) => {
      const check = await apps.testConnection(req.params.id);
      return { code: 200, message: check.ok ? `Connected: ${check.refs} refs.` : 'Connection failed.', data: check };
    },
  });
  r.delete(PATHS.app, {
    config: { access: { action: 'delete', resource: 'App' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await apps.remove(req.params.id, actorOf(req));
      return { code: 200, message: 'App deleted.', data: null };
    },
  });
}
