import { envelopeSchema, PATHS, PasswordChangeSchema, ProfileSchema, ProfileUpdateSchema } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Principals } from '../auth/principals.ts';
import type { ProfileService } from './profile-service.ts';

/** The access plugin guarantees a principal on 'signed-in' routes. */
function signedIn(principal: { userData: { userid: string } } | undefined): string {
  if (!principal) throw new Error('signed-in route without a principal');
  return principal.userData.userid;
}

/** The signed-in user's own profile and password (`/system/personSetting`). */
export function profileRoutes(app: FastifyInstance, profiles: ProfileService, principals: Principals): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.patch(PATHS.myProfile, {
    config: { access: 'signed-in' },
    schema: { tags: ['auth'], body: ProfileUpdateSchema, response: { 200: envelopeSchema(ProfileSchema) } },
    handler: async (req) => {
      const userId = signedIn(req.principal);
      await profiles.update(userId, req.body);
      principals.invalidate();
      const loaded = await principals.load(userId);
      if (!loaded) throw new Error('signed-in user vanished');
      return { code: 200, message: 'Profile saved.', data: loaded.profile };
    },
  });
  r.post(PATHS.myPassword, {
    config: { access: 'signed-in' },
    schema: { tags: ['auth'], body: PasswordChangeSchema, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      const userId = signedIn(req.principal);
      await profiles.changePassword(userId, req.sessionId ?? null, req.body.currentPassword, req.body.newPassword);
      principals.invalidate();
      return { code: 200, message: 'Password changed.', data: null };
    },
  });
}
