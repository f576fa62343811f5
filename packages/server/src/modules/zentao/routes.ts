import {
  envelopeSchema,
  PATHS,
  ZentaoConfigInputSchema,
  ZentaoConfigSchema,
  ZentaoImportSummarySchema,
  ZentaoStatusSchema,
} from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../audit/actor.ts';
import type { ZentaoService } from './service.ts';

const PLAIN_HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The origins the browser shows our page at (behind a TLS proxy the scheme may be https). */
function ourOrigins(req: FastifyRequest): string[] {
  const host = req.headers.host;
  return host && PLAIN_HOST.test(host) ? [`http://${host}`, `https://${host}`] : [];
}

export function zentaoRoutes(app: FastifyInstance, zentao: ZentaoService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['zentao'];
  // Who may open /zentao (the screen's resource, point 2): read on requirements.
  r.get(PATHS.zentao, {
    config: { access: { action: 'read', resource: 'Requirement' } },
    schema: { tags, response: { 200: envelopeSchema(ZentaoStatusSchema) } },
    handler: async (req) => ({ code: 200, message: 'OK', data: await zentao.status(ourOrigins(req)) }),
  });
  // The account and the import are the administrator's, as every system setting.
  r.get(PATHS.zentaoConfig, {
    config: { access: { action: 'update', resource: 'Setting' } },
    schema: { tags, response: { 200: envelopeSchema(ZentaoConfigSchema) } },
    handler: async () => ({ code: 200, message: 'OK', data: await zentao.config() }),
  });
  r.patch(PATHS.zentaoConfig, {
    config: { access: { action: 'update', resource: 'Setting' } },
    schema: { tags, body: ZentaoConfigInputSchema, response: { 200: envelopeSchema(ZentaoConfigSchema) } },
    handler: async (req) => ({
      code: 200,
      message: 'ZenTao settings saved.',
      data: await zentao.saveConfig(req.body, actorOf(req)),
    }),
  });
  r.post(PATHS.zentaoImport, {
    config: { access: { action: 'update', resource: 'Setting' } },
    schema: { tags, response: { 200: envelopeSchema(ZentaoImportSummarySchema) } },
    handler: async (req) => ({
      code: 200,
      message: 'ZenTao imported.',
      data: await zentao.importNow(actorOf(req)),
    }),
  });
}
