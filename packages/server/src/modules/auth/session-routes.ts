import { envelopeSchema, PATHS, SessionSchema } from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Principals } from './principals.ts';
import type { Sessions } from './sessions.ts';

function userOf(req: FastifyRequest): string {
  const id = req.principal?.userData.userid;
  if (!id) throw new Error('signed-in route without a principal');
  return id;
}

/** The signed-in user's own sessions (`/system/personSetting`): each user sees and ends only theirs. */
export function sessionRoutes(app: FastifyInstance, sessions: Sessions, principals: Principals): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(PATHS.mySessions, {
    config: { access: 'signed-in' },
    schema: { tags: ['auth'], response: { 200: envelopeSchema(z.array(SessionSchema)) } },
    handler: async (req) => ({
      code: 200,
      message: 'OK',
      data: await sessions.list(userOf(req), req.sessionId ?? null),
    }),
  });
  r.delete(PATHS.mySession, {
    config: { access: 'signed-in' },
    schema: { tags: ['auth'], params: z.object({ id: z.uuid() }), response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await sessions.revoke(userOf(req), req.params.id);
      principals.forgetSession(req.params.id);
      return { code: 200, message: 'Session ended.', data: null };
    },
  });
  r.post(PATHS.revokeOtherSessions, {
    config: { access: 'signed-in' },
    schema: { tags: ['auth'], response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await sessions.revokeAllBut(userOf(req), req.sessionId ?? null);
      principals.invalidate();
      return { code: 200, message: 'Other sessions ended.', data: null };
    },
  });
}
