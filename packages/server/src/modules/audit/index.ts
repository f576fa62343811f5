import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { auditRoutes } from './routes.ts';
import { AuditService } from './service.ts';

export function registerAuditLog(app: FastifyInstance, db: Db): void {
  auditRoutes(app, new AuditService(db));
}
