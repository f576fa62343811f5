import { envelopeSchema, GitIdentitiesSchema, PATHS } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../../errors.ts';
import { actorOf } from '../audit/actor.ts';
import type { AuditService, Executor } from '../audit/service.ts';
import { callerRights } from '../roles/grants.ts';
import { GitIdentities } from './git-identities.ts';
import type { UsersService } from './service.ts';

const IdParams = z.object({ id: z.uuid() });
const answer = envelopeSchema(GitIdentitiesSchema);

/**
 * The names and e-mail addresses a user commits under (issue 34): their own in person settings, any
 * account's for user administrators (who may change only accounts whose rights they hold). Audited.
 */
export function gitIdentityRoutes(app: FastifyInstance, users: UsersService, audit: AuditService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const identities = new GitIdentities(audit.db);
  const replace = (actor: { id: string }, userId: string, list: string[], check?: (tx: Executor) => Promise<void>) =>
    audit.audited(actor, async (tx) => {
      if (check) await check(tx);
      const { from, to } = await identities.replace(tx, userId, list);
      return {
        result: { identities: to },
        entry: { entity: 'user', entityId: userId, action: 'update', changes: { gitIdentities: { from, to } } },
      } as const;
    });

  r.get(PATHS.myGitIdentities, {
    config: { access: 'signed-in' },
    schema: { tags: ['auth'], response: { 200: answer } },
    handler: async (req) => ({
      code: 200,
      message: 'OK',
      data: { identities: await identities.of(actorOf(req).id) },
    }),
  });
  r.put(PATHS.myGitIdentities, {
    config: { access: 'signed-in' },
    schema: { tags: ['auth'], body: GitIdentitiesSchema, response: { 200: answer } },
    handler: async (req) => {
      const actor = actorOf(req);
      return { code: 200, message: 'Identities saved.', data: await replace(actor, actor.id, req.body.identities) };
    },
  });
  r.get(PATHS.userGitIdentities, {
    config: { access: { action: 'read', resource: 'User' } },
    schema: { tags: ['users'], params: IdParams, response: { 200: answer } },
    handler: async (req) => {
      const listed = await identities.ofAccount(req.params.id);
      if (!listed) throw new ApiError(404, 'not-found', 'No such user.');
      return { code: 200, message: 'OK', data: { identities: listed } };
    },
  });
  r.put(PATHS.userGitIdentities, {
    config: { access: { action: 'update', resource: 'User' } },
    schema: { tags: ['users'], params: IdParams, body: GitIdentitiesSchema, response: { 200: answer } },
    handler: async (req) => {
      const data = await replace(actorOf(req), req.params.id, req.body.identities, (tx) =>
        users.within(tx).refuseOutranked(req.params.id, callerRights(req)),
      );
      return { code: 200, message: 'Identities saved.', data };
    },
  });
}
