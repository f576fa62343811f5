import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AuditService } from '../audit/service.ts';
import type { ProjectsService } from '../projects/service.ts';
import type { VersionsService } from '../versions/service.ts';
import { RequirementsRepository } from './repository.ts';
import { requirementsRoutes } from './routes.ts';
import { RequirementsService } from './service.ts';

export function createRequirementsService(
  db: Db,
  deps: { audit: AuditService; projects: ProjectsService; versions: VersionsService },
): RequirementsService {
  return new RequirementsService(db, new RequirementsRepository(db), deps.audit, deps.projects, deps.versions);
}

/** Hidden when the edition is lite: every route declares the Requirement resource, which the access gate refuses. */
export function registerRequirements(app: FastifyInstance, requirements: RequirementsService): void {
  requirementsRoutes(app, requirements);
}
