import type { FastifyInstance } from 'fastify';
import { auditRoutes } from './routes.ts';
import type { AuditService } from './service.ts';

export function registerAuditLog(app: FastifyInstance, audit: AuditService): void {
  auditRoutes(app, audit);
}
