import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AppsService } from '../apps/service.ts';
import type { AuditService } from '../audit/service.ts';
import type { TeamsService } from '../teams/service.ts';
import { ProjectsRepository } from './repository.ts';
import { projectsRoutes } from './routes.ts';
import { ProjectsService } from './service.ts';

export function createProjectsService(
  db: Db,
  deps: { audit: AuditService; teams: TeamsService; apps: AppsService },
): ProjectsService {
  return new ProjectsService(db, new ProjectsRepository(db), deps.audit, deps.teams, deps.apps);
}

export function registerProjects(app: FastifyInstance, projects: ProjectsService): void {
  projectsRoutes(app, projects);
}
