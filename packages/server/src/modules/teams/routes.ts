import {
  envelopeSchema,
  IdParamsSchema,
  PATHS,
  pageSchema,
  TeamInputSchema,
  TeamQuerySchema,
  TeamSchema,
  TeamUpdateSchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/actor.ts';
import type { TeamsService } from './service.ts';

export function teamsRoutes(app: FastifyInstance, teams: TeamsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['teams'];
  r.get(PATHS.teams, {
    config: { access: { action: 'read', resource: 'Team' } },
    schema: { tags, querystring: TeamQuerySchema, response: { 200: envelopeSchema(pageSchema(TeamSchema)) } },
    handler: async (req) => ({ code: 200, message: 'OK', data: await teams.list(req.query) }),
  });
  r.get(PATHS.team, {
    config: { access: { action: 'read', resource: 'Team' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(TeamSchema) } },
    handler: async (req) => ({ code: 200, message: 'OK', data: await teams.get(req.params.id) }),
  });
  r.post(PATHS.teams, {
    config: { access: { action: 'create', resource: 'Team' } },
    schema: { tags, body: TeamInputSchema, response: { 200: envelopeSchema(TeamSchema) } },
    handler: async (req) => ({ code: 200, message: 'Team created.', data: await teams.create(req.body, actorOf(req)) }),
  });
  r.patch(PATHS.team, {
    config: { access: { action: 'update', resource: 'Team' } },
    schema: { tags, params: IdParamsSchema, body: TeamUpdateSchema, response: { 200: envelopeSchema(TeamSchema) } },
    handler: async (req) => ({
      code: 200,
      message: 'Team saved.',
      data: await teams.update(req.params.id, req.body, actorOf(req)),
    }),
  });
  r.delete(PATHS.team, {
    config: { access: { action: 'delete', resource: 'Team' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await teams.remove(req.params.id, actorOf(req));
      return { code: 200, message: 'Team deleted.', data: null };
    },
  });
}
