import {
  envelopeSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  LogoutRequestSchema,
  MeResponseSchema,
  PATHS,
  RefreshRequestSchema,
} from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Principals } from './principals.ts';
import type { AuthService, Client } from './service.ts';

function clientOf(req: FastifyRequest): Client {
  return { ip: req.ip, userAgent: req.headers['user-agent'] };
}

export function authRoutes(app: FastifyInstance, auth: AuthService, principals: Principals): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(PATHS.login, {
    config: { access: 'public' },
    schema: { tags: ['auth'], body: LoginRequestSchema, response: { 200: envelopeSchema(LoginResponseSchema) } },
    handler: async (req) => ({
      code: 200,
      message: 'Signed in.',
      data: await auth.login(req.body.username, req.body.password, clientOf(req)),
    }),
  });
  r.post(PATHS.refreshToken, {
    config: { access: 'public' },
    schema: { tags: ['auth'], body: RefreshRequestSchema, response: { 200: envelopeSchema(LoginResponseSchema) } },
    handler: async (req) => ({
      code: 200,
      message: 'Refreshed.',
      data: await auth.refresh(req.body.refreshToken, clientOf(req)),
    }),
  });
  r.post(PATHS.logout, {
    config: { access: 'signed-in' },
    schema: { tags: ['auth'], body: LogoutRequestSchema, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await auth.logout(req.principal?.userData.userid ?? '', req.body.refreshToken);
      return { code: 200, message: 'Signed out.', data: null };
    },
  });
  r.get(PATHS.me, {
    config: { access: 'signed-in' },
    schema: { tags: ['auth'], response: { 200: envelopeSchema(MeResponseSchema) } },
    handler: async (req) => {
      const me = await principals.load(req.principal?.userData.userid ?? '');
      return { code: 200, message: 'OK', data: me as NonNullable<typeof me> };
    },
  });
}
