import {
  BranchQuerySchema,
  BranchRefreshSchema,
  BranchSchema,
  BranchUpdateSchema,
  envelopeSchema,
  IdParamsSchema,
  PATHS,
  pageSchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../audit/actor.ts';
import type { BranchesService } from './service.ts';

export function branchesRoutes(app: FastifyInstance, branches: BranchesService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['branches'];
  r.get(PATHS.branches, {
    config: { access: { action: 'read', resource: 'Branch' } },
    schema: { tags, querystring: BranchQuerySchema, response: { 200: envelopeSchema(pageSchema(BranchSchema)) } },
    handler: async (req) => ({ code: 200, message: 'OK', data: await branches.list(req.query) }),
  });
  r.patch(PATHS.branch, {
    config: { access: { action: 'update', resource: 'Branch' } },
    schema: { tags, params: IdParamsSchema, body: BranchUpdateSchema, response: { 200: envelopeSchema(BranchSchema) } },
    handler: async (req) => ({
      code: 200,
      message: req.body.tracked ? 'Branch tracked.' : 'Branch no longer tracked.',
      data: await branches.setTracked(req.params.id, req.body.tracked, actorOf(req)),
    }),
  });
  r.post(PATHS.appRefreshBranches, {
    config: { access: { action: 'update', resource: 'Branch' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(BranchRefreshSchema) } },
    handler: async (req) => {
      const result = await branches.refresh(req.params.id, actorOf(req));
      return { code: 200, message: `${result.total} branches found.`, data: result };
    },
  });
}
