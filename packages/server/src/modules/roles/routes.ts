import { envelopeSchema, PATHS, RoleInputSchema, RoleSchema } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/actor.ts';
import { type AuditEntry, type AuditService, changedFields } from '../audit/service.ts';
import type { Principals } from '../auth/principals.ts';
import { callerRights } from './grants.ts';
import type { RolesService } from './service.ts';

const IdParams = z.object({ id: z.uuid() });

export function rolesRoutes(
  app: FastifyInstance,
  service: RolesService,
  audit: AuditService,
  principals: Principals,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(PATHS.roles, {
    config: { access: { action: 'read', resource: 'Role' } },
    schema: { tags: ['roles'], response: { 200: envelopeSchema(z.array(RoleSchema)) } },
    handler: async () => ({ code: 200, message: 'OK', data: await service.list() }),
  });
  r.post(PATHS.roles, {
    config: { access: { action: 'create', resource: 'Role' } },
    schema: { tags: ['roles'], body: RoleInputSchema, response: { 200: envelopeSchema(RoleSchema) } },
    handler: async (req) => {
      const role = await audit.audited(actorOf(req), async (tx) => {
        const created = await service.within(tx).create(req.body, callerRights(req));
        const entry: AuditEntry = {
          entity: 'role',
          entityId: created.id,
          action: 'create',
          changes: changedFields({}, req.body),
        };
        return { result: created, entry };
      });
      return { code: 200, message: 'Role created.', data: role };
    },
  });
  r.patch(PATHS.role, {
    config: { access: { action: 'update', resource: 'Role' } },
    schema: { tags: ['roles'], params: IdParams, body: RoleInputSchema, response: { 200: envelopeSchema(RoleSchema) } },
    handler: async (req) => {
      const shape = (r: { name: string; ability: unknown; resourceNums: unknown } | undefined) => ({
        name: r?.name,
        ability: r?.ability,
        resourceNums: r?.resourceNums,
      });
      const role = await audit.audited(actorOf(req), async (tx) => {
        const roles = service.within(tx);
        const before = (await roles.list()).find((r) => r.id === req.params.id);
        const after = await roles.update(req.params.id, req.body, callerRights(req));
        const changes = changedFields(shape(before), shape(after));
        return {
          result: after,
          entry: { entity: 'role', entityId: after.id, action: 'update', changes } satisfies AuditEntry,
        };
      });
      principals.invalidate();
      return { code: 200, message: 'Role saved.', data: role };
    },
  });
  r.delete(PATHS.role, {
    config: { access: { action: 'delete', resource: 'Role' } },
    schema: { tags: ['roles'], params: IdParams, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await audit.audited(actorOf(req), async (tx) => {
        await service.within(tx).remove(req.params.id);
        return {
          result: null,
          entry: { entity: 'role', entityId: req.params.id, action: 'delete', changes: {} },
        } as const;
      });
      return { code: 200, message: 'Role deleted.', data: null };
    },
  });
}
