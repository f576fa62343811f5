import { AuditLogQuerySchema, AuditLogSchema, envelopeSchema, PATHS, pageSchema } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuditService } from './service.ts';

export function auditRoutes(app: FastifyInstance, audit: AuditService): void {
  app.withTypeProvider<ZodTypeProvider>().get(PATHS.auditLogs, {
    config: { access: { action: 'read', resource: 'AuditLog' } },
    schema: {
      tags: ['audit'],
      querystring: AuditLogQuerySchema,
      response: { 200: envelopeSchema(pageSchema(AuditLogSchema)) },
    },
    handler: async (req) => ({ code: 200, message: 'OK', data: await audit.list(req.query) }),
  });
}
