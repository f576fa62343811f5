import { envelopeSchema, PATHS, ResetLinkSchema, ResetPasswordRequestSchema } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/actor.ts';
import type { AuditService } from '../audit/service.ts';
import { callerRights } from '../roles/grants.ts';
import type { UsersService } from './service.ts';

/** A reset link issued by an administrator, and the password set with it (public: the link is the credential). */
export function resetRoutes(
  app: FastifyInstance,
  users: UsersService,
  audit: AuditService,
  onChange: () => void,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(PATHS.resetPassword, {
    config: { access: 'public' },
    schema: { tags: ['auth'], body: ResetPasswordRequestSchema, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await users.resetPassword(req.body.token, req.body.password);
      onChange();
      return { code: 200, message: 'Password changed; please sign in.', data: null };
    },
  });
  r.post(PATHS.userResetLink, {
    config: { access: { action: 'update', resource: 'User' } },
    schema: { tags: ['users'], params: z.object({ id: z.uuid() }), response: { 200: envelopeSchema(ResetLinkSchema) } },
    handler: async (req) => {
      const link = await audit.audited(actorOf(req), async (tx) => {
        const issued = await users.within(tx).resetLink(req.params.id, callerRights(req));
        const changes = { expiresAt: { from: null, to: issued.expiresAt } };
        return {
          result: issued,
          entry: { entity: 'user', entityId: req.params.id, action: 'reset-link', changes },
        } as const;
      });
      return { code: 200, message: 'Reset link issued.', data: link };
    },
  });
}
