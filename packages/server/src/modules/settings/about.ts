import { AboutSchema, envelopeSchema, PATHS } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Principals } from '../auth/principals.ts';

export type AboutFacts = { version: string; commit: string | null; database: 'embedded' | 'postgresql' };

/** `/system/aboutUs`: what is running, for bug reports and support. */
export function aboutRoutes(app: FastifyInstance, facts: AboutFacts, principals: Principals): void {
  app.withTypeProvider<ZodTypeProvider>().get(PATHS.about, {
    config: { access: 'signed-in' },
    schema: { tags: ['settings'], response: { 200: envelopeSchema(AboutSchema) } },
    handler: async () => ({
      code: 200,
      message: 'OK',
      data: { ...facts, edition: (await principals.settings()).licenseVersion, docs: PATHS.docs },
    }),
  });
}
