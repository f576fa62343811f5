import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AuditService } from '../audit/service.ts';
import { applicationsRoutes } from './routes.ts';
import { ApplicationsService } from './service.ts';

/** Built once: the users module checks a new account's name against the pending requests. */
export function createApplicationsService(db: Db): ApplicationsService {
  return new ApplicationsService(db);
}

export function registerApplications(app: FastifyInstance, service: ApplicationsService, audit: AuditService): void {
  applicationsRoutes(app, service, audit);
}
