import {
  envelopeSchema,
  IdParamsSchema,
  PATHS,
  pageSchema,
  RequirementInputSchema,
  RequirementQuerySchema,
  RequirementSchema,
  RequirementUpdateSchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/actor.ts';
import type { RequirementsService } from './service.ts';

export function requirementsRoutes(app: FastifyInstance, requirements: RequirementsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['requirements'];
  r.get(PATHS.requirements, {
    config: { access: { action: 'read', resource: 'Requirement' } },
    schema: {
      tags,
      querystring: RequirementQuerySchema,
      response: { 200: envelopeSchema(pageSchema(RequirementSchema)) },
    },
    handler: async (req) => ({ code: 200, message: 'OK', data: await requirements.list(req.query) }),
  });
  r.get(PATHS.requirement, {
    config: { access: { action: 'read', resource: 'Requirement' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(RequirementSchema) } },
    handler: async (req) => ({ code: 200, message: 'OK', data: await requirements.get(req.params.id) }),
  });
  r.post(PATHS.requirements, {
    config: { access: { action: 'create', resource: 'Requirement' } },
    schema: { tags, body: RequirementInputSchema, response: { 200: envelopeSchema(RequirementSchema) } },
    handler: async (req) => ({
      code: 200,
      message: 'Requirement created.',
      data: await requirements.create(req.body, actorOf(req)),
    }),
  });
  r.patch(PATHS.requirement, {
    config: { access: { action: 'update', resource: 'Requirement' } },
    schema: {
      tags,
      params: IdParamsSchema,
      body: RequirementUpdateSchema,
      response: { 200: envelopeSchema(RequirementSchema) },
    },
    handler: async (req) => ({
      code: 200,
      message: 'Requirement saved.',
      data: await requirements.update(req.params.id, req.body, actorOf(req)),
    }),
  });
  r.delete(PATHS.requirement, {
    config: { access: { action: 'delete', resource: 'Requirement' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await requirements.remove(req.params.id, actorOf(req));
      return { code: 200, message: 'Requirement deleted.', data: null };
    },
  });
}
