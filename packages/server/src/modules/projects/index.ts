import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { createAppsService } from '../apps/index.ts';
import { AuditService } from '../audit/service.ts';
import { TeamsService } from '../teams/service.ts';
import { projectsRoutes } from './routes.ts';
import { ProjectsService } from './service.ts';

export function createProjectsService(db: Db): ProjectsService {
  const audit = new AuditService(db);
  return new ProjectsService(db, audit, new TeamsService(db, audit), createAppsService(db));
}

export function registerProjects(app: FastifyInstance, db: Db): void {
  projectsRoutes(app, createProjectsService(db));
}
