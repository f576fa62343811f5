import {
  envelopeSchema,
  IdParamsSchema,
  PATHS,
  pageSchema,
  VersionInputSchema,
  VersionQuerySchema,
  VersionSchema,
  VersionUpdateSchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/actor.ts';
import type { VersionsService } from './service.ts';

export function versionsRoutes(app: FastifyInstance, versions: VersionsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['versions'];
  r.get(PATHS.versions, {
    config: { access: { action: 'read', resource: 'Version' } },
    schema: { tags, querystring: VersionQuerySchema, response: { 200: envelopeSchema(pageSchema(VersionSchema)) } },
    handler: async (req) => ({ code: 200, message: 'OK', data: await versions.list(req.query) }),
  });
  r.get(PATHS.version, {
    config: { access: { action: 'read', resource: 'Version' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(VersionSchema) } },
    handler: async (req) => ({ code: 200, message: 'OK', data: await versions.get(req.params.id) }),
  });
  r.post(PATHS.versions, {
    config: { access: { action: 'create', resource: 'Version' } },
    schema: { tags, body: VersionInputSchema, response: { 200: envelopeSchema(VersionSchema) } },
    handler: async (req) => ({
      code: 200,
      message: 'Version created.',
      data: await versions.create(req.body, actorOf(req)),
    }),
  });
  r.patch(PATHS.version, {
    config: { access: { action: 'update', resource: 'Version' } },
    schema: {
      tags,
      params: IdParamsSchema,
      body: VersionUpdateSchema,
      response: { 200: envelopeSchema(VersionSchema) },
    },
    handler: async (req) => ({
      code: 200,
      message: 'Version saved.',
      data: await versions.update(req.params.id, req.body, actorOf(req)),
    }),
  });
  r.delete(PATHS.version, {
    config: { access: { action: 'delete', resource: 'Version' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await versions.remove(req.params.id, actorOf(req));
      return { code: 200, message: 'Version deleted.', data: null };
    },
  });
}
