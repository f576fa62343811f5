import { envelopeSchema, PATHS, SettingsSchema } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../audit/actor.ts';
import type { SettingsService } from './service.ts';

export function settingsRoutes(app: FastifyInstance, settings: SettingsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(PATHS.settings, {
    config: { access: { action: 'read', resource: 'Auth' } },
    schema: { tags: ['settings'], response: { 200: envelopeSchema(SettingsSchema) } },
    handler: async () => ({ code: 200, message: 'OK', data: await settings.get() }),
  });
  r.patch(PATHS.settings, {
    config: { access: { action: 'update', resource: 'Setting' } },
    schema: {
      tags: ['settings'],
      // ZenTao's address is saved with its account (PUT /api/zentao/config), checked there.
      body: SettingsSchema.omit({ zentaoUrl: true }).partial().strict(),
      response: { 200: envelopeSchema(SettingsSchema) },
    },
    handler: async (req) => ({
      code: 200,
      message: 'Settings saved.',
      data: await settings.update(req.body, actorOf(req)),
    }),
  });
}
