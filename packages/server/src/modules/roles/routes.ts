import { API, envelopeSchema, RoleInputSchema, RoleSchema } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/actor.ts';
import { type AuditService, changedFields } from '../audit/service.ts';
import type { Principals } from '../auth/principals.ts';
import type { RolesService } from './service.ts';

const IdParams = z.object({ id: z.uuid() });

export function rolesRoutes(
  app: FastifyInstance,
  service: RolesService,
  audit: AuditService,
  principals: Principals,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(API.roles, {
    config: { access: { action: 'read', resource: 'Role' } },
    schema: { tags: ['roles'], response: { 200: envelopeSchema(z.array(RoleSchema)) } },
    handler: async () => ({ code: 200, message: 'OK', data: await service.list() }),
  });
  r.post(API.roles, {
    config: { access: { action: 'create', resource: 'Role' } },
    schema: { tags: ['roles'], body: RoleInputSchema, response: { 200: envelopeSchema(RoleSchema) } },
    handler: async (req) => {
      const role = await service.create(req.body);
      await audit.record(audit.db, actorOf(req), {
        entity: 'role',
        entityId: role.id,
        action: 'create',
        changes: changedFields({}, req.body),
      });
      return { code: 200, message: 'Role created.', data: role };
    },
  });
  r.patch('/api/roles/:id', {
    config: { access: { action: 'update', resource: 'Role' } },
    schema: { tags: ['roles'], params: IdParams, body: RoleInputSchema, response: { 200: envelopeSchema(RoleSchema) } },
    handler: async (req) => {
      const before = (await service.list()).find((r) => r.id === req.params.id);
      const role = await service.update(req.params.id, req.body);
      principals.invalidate();
      const shape = (r: typeof role | undefined) => ({
        name: r?.name,
        ability: r?.ability,
        resourceNums: r?.resourceNums,
      });
      await audit.record(audit.db, actorOf(req), {
        entity: 'role',
        entityId: role.id,
        action: 'update',
        changes: changedFields(shape(before), shape(role)),
      });
      return { code: 200, message: 'Role saved.', data: role };
    },
  });
  r.delete('/api/roles/:id', {
    config: { access: { action: 'delete', resource: 'Role' } },
    schema: { tags: ['roles'], params: IdParams, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await service.remove(req.params.id);
      await audit.record(audit.db, actorOf(req), {
        entity: 'role',
        entityId: req.params.id,
        action: 'delete',
        changes: {},
      });
      return { code: 200, message: 'Role deleted.', data: null };
    },
  });
}
