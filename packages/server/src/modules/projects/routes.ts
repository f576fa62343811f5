import {
  envelopeSchema,
  IdParamsSchema,
  PATHS,
  ProjectInputSchema,
  ProjectQuerySchema,
  ProjectSchema,
  ProjectUpdateSchema,
  pageSchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/actor.ts';
import type { ProjectsService } from './service.ts';

export function projectsRoutes(app: FastifyInstance, projects: ProjectsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['projects'];
  r.get(PATHS.projects, {
    config: { access: { action: 'read', resource: 'Project' } },
    schema: { tags, querystring: ProjectQuerySchema, response: { 200: envelopeSchema(pageSchema(ProjectSchema)) } },
    handler: async (req) => ({ code: 200, message: 'OK', data: await projects.list(req.query) }),
  });
  r.get(PATHS.project, {
    config: { access: { action: 'read', resource: 'Project' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(ProjectSchema) } },
    handler: async (req) => ({ code: 200, message: 'OK', data: await projects.get(req.params.id) }),
  });
  r.post(PATHS.projects, {
    config: { access: { action: 'create', resource: 'Project' } },
    schema: { tags, body: ProjectInputSchema, response: { 200: envelopeSchema(ProjectSchema) } },
    handler: async (req) => ({
      code: 200,
      message: 'Project created.',
      data: await projects.create(req.body, actorOf(req)),
    }),
  });
  r.patch(PATHS.project, {
    config: { access: { action: 'update', resource: 'Project' } },
    schema: {
      tags,
      params: IdParamsSchema,
      body: ProjectUpdateSchema,
      response: { 200: envelopeSchema(ProjectSchema) },
    },
    handler: async (req) => ({
      code: 200,
      message: 'Project saved.',
      data: await projects.update(req.params.id, req.body, actorOf(req)),
    }),
  });
  r.delete(PATHS.project, {
    config: { access: { action: 'delete', resource: 'Project' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await projects.remove(req.params.id, actorOf(req));
      return { code: 200, message: 'Project deleted.', data: null };
    },
  });
}
