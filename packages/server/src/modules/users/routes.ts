import {
  envelopeSchema,
  NewUsernameSchema,
  PATHS,
  PageQuerySchema,
  pageSchema,
  UserRowSchema,
  UserUpdateSchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/actor.ts';
import { type AuditEntry, type AuditService, changedFields } from '../audit/service.ts';
import { callerRights } from '../roles/grants.ts';
import { resetRoutes } from './reset-routes.ts';
import { hashPassword, type UsersService } from './service.ts';

export const CreateUserRequestSchema = z.object({
  username: NewUsernameSchema,
  email: z.string().trim().max(254).pipe(z.email('Please enter a valid email.')),
  displayName: z.string().trim().max(128).optional(),
  role: z.string().min(1).max(64),
  password: z.string().min(8).max(1024).optional(),
});

/** `onChange` tells the principal cache that a role, type or account state changed. */
export function usersRoutes(
  app: FastifyInstance,
  users: UsersService,
  audit: AuditService,
  onChange: () => void,
): void {
  accountRoutes(app, users, audit, onChange);
  resetRoutes(app, users, audit, onChange);
}

/** The list of accounts, and an account created or changed (each change audited in its transaction). */
function accountRoutes(app: FastifyInstance, users: UsersService, audit: AuditService, onChange: () => void): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(PATHS.users, {
    config: { access: { action: 'read', resource: 'User' } },
    schema: {
      tags: ['users'],
      querystring: PageQuerySchema,
      response: { 200: envelopeSchema(pageSchema(UserRowSchema)) },
    },
    handler: async (req) => ({ code: 200, message: 'OK', data: await users.list(req.query) }),
  });
  r.patch(PATHS.user, {
    config: { access: { action: 'update', resource: 'User' } },
    schema: {
      tags: ['users'],
      params: z.object({ id: z.uuid() }),
      body: UserUpdateSchema,
      response: { 200: envelopeSchema(UserRowSchema) },
    },
    handler: async (req) => {
      const row = await audit.audited(actorOf(req), async (tx) => {
        const { before, after } = await users.within(tx).update(req.params.id, req.body, callerRights(req));
        const entry: AuditEntry = {
          entity: 'user',
          entityId: after.id,
          action: 'update',
          changes: changedFields(before, after),
        };
        return { result: after, entry };
      });
      onChange();
      return { code: 200, message: 'User saved.', data: row };
    },
  });
  r.post(PATHS.users, {
    config: { access: { action: 'create', resource: 'User' } },
    schema: { tags: ['users'], body: CreateUserRequestSchema, response: { 200: envelopeSchema(UserRowSchema) } },
    handler: async (req) => {
      const { password, ...shown } = req.body;
      const passwordHash = await hashPassword(password);
      const created = await audit.audited(actorOf(req), async (tx) => {
        const user = await users.within(tx).create({ ...shown, passwordHash }, callerRights(req));
        const entry: AuditEntry = {
          entity: 'user',
          entityId: user.id,
          action: 'create',
          changes: changedFields({}, shown),
        };
        return { result: user, entry };
      });
      return { code: 200, message: 'User created.', data: created };
    },
  });
}
