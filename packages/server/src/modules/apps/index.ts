import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { AuditService } from '../audit/service.ts';
import { TeamsService } from '../teams/service.ts';
import { appsRoutes } from './routes.ts';
import { AppsService } from './service.ts';

export function createAppsService(db: Db): AppsService {
  const audit = new AuditService(db);
  return new AppsService(db, audit, new TeamsService(db, audit));
}

export function registerApps(app: FastifyInstance, db: Db): void {
  appsRoutes(app, createAppsService(db));
}
