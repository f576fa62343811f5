import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { AuditService } from '../audit/service.ts';
import { TeamsService } from '../teams/service.ts';
import type { RepoPolicy } from './repo-location.ts';
import { appsRoutes } from './routes.ts';
import { AppsService } from './service.ts';

export function createAppsService(db: Db, repoPolicy?: RepoPolicy): AppsService {
  const audit = new AuditService(db);
  return new AppsService(db, audit, new TeamsService(db, audit), repoPolicy);
}

export function registerApps(
  app: FastifyInstance,
  db: Db,
  repoPolicy: RepoPolicy,
  created?: (appId: string) => void,
): void {
  appsRoutes(app, createAppsService(db, repoPolicy), created);
}
