import { API, envelopeSchema, RoleInputSchema, RoleSchema } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Principals } from '../auth/principals.ts';
import type { RolesService } from './service.ts';

const IdParams = z.object({ id: z.uuid() });

export function rolesRoutes(app: FastifyInstance, service: RolesService, principals: Principals): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(API.roles, {
    config: { access: { action: 'read', resource: 'Role' } },
    schema: { tags: ['roles'], response: { 200: envelopeSchema(z.array(RoleSchema)) } },
    handler: async () => ({ code: 200, message: 'OK', data: await service.list() }),
  });
  r.post(API.roles, {
    config: { access: { action: 'create', resource: 'Role' } },
    schema: { tags: ['roles'], body: RoleInputSchema, response: { 200: envelopeSchema(RoleSchema) } },
    handler: async (req) => ({ code: 200, message: 'Role created.', data: await service.create(req.body) }),
  });
  r.patch('/api/roles/:id', {
    config: { access: { action: 'update', resource: 'Role' } },
    schema: { tags: ['roles'], params: IdParams, body: RoleInputSchema, response: { 200: envelopeSchema(RoleSchema) } },
    handler: async (req) => {
      const role = await service.update(req.params.id, req.body);
      principals.invalidate();
      return { code: 200, message: 'Role saved.', data: role };
    },
  });
  r.delete('/api/roles/:id', {
    config: { access: { action: 'delete', resource: 'Role' } },
    schema: { tags: ['roles'], params: IdParams, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await service.remove(req.params.id);
      return { code: 200, message: 'Role deleted.', data: null };
    },
  });
}
