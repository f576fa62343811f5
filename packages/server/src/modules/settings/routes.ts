import { API, envelopeSchema, SettingsSchema } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { settings } from '../../db/schema/index.ts';
import type { Principals } from '../auth/principals.ts';

export function settingsRoutes(app: FastifyInstance, db: Db, principals: Principals): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(API.settings, {
    config: { access: { action: 'read', resource: 'Auth' } },
    schema: { tags: ['settings'], response: { 200: envelopeSchema(SettingsSchema) } },
    handler: async () => ({ code: 200, message: 'OK', data: await principals.settings() }),
  });
  r.patch(API.settings, {
    config: { access: { action: 'update', resource: 'Setting' } },
    schema: {
      tags: ['settings'],
      body: SettingsSchema.partial().strict(),
      response: { 200: envelopeSchema(SettingsSchema) },
    },
    handler: async (req) => {
      const entries = Object.entries(req.body).filter(([, v]) => v !== undefined);
      for (const [key, value] of entries) {
        await db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
      }
      return { code: 200, message: 'Settings saved.', data: await principals.settings() };
    },
  });
}
