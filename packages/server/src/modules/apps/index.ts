import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AuditService } from '../audit/service.ts';
import type { TeamsService } from '../teams/service.ts';
import type { RepoPolicy } from './repo-location.ts';
import { appsRoutes } from './routes.ts';
import { AppsService } from './service.ts';

/** The apps service, built once in app.ts from the shared audit and teams services. */
export function createAppsService(
  db: Db,
  deps: { audit: AuditService; teams: TeamsService; repoPolicy?: RepoPolicy },
): AppsService {
  return new AppsService(db, deps.audit, deps.teams, deps.repoPolicy);
}

export function registerApps(app: FastifyInstance, apps: AppsService, created?: (appId: string) => void): void {
  appsRoutes(app, apps, created);
}
