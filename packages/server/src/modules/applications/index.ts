import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AuditService } from '../audit/service.ts';
import { applicationsRoutes } from './routes.ts';
import { ApplicationsService } from './service.ts';

export function registerApplications(app: FastifyInstance, db: Db, deps: { audit: AuditService }): void {
  applicationsRoutes(app, new ApplicationsService(db), deps.audit);
}
