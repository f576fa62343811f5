import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AppsService } from '../apps/service.ts';
import type { AuditService } from '../audit/service.ts';
import type { ProjectsService } from '../projects/service.ts';
import { VersionsRepository } from './repository.ts';
import { versionsRoutes } from './routes.ts';
import { VersionsService } from './service.ts';

export function createVersionsService(
  db: Db,
  deps: { audit: AuditService; projects: ProjectsService; apps: AppsService },
): VersionsService {
  return new VersionsService(new VersionsRepository(db), deps.audit, deps.projects, deps.apps);
}

export function registerVersions(app: FastifyInstance, versions: VersionsService): void {
  versionsRoutes(app, versions);
}
