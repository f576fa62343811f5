import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { createAppsService } from '../apps/index.ts';
import { AuditService } from '../audit/service.ts';
import { createProjectsService } from '../projects/index.ts';
import { versionsRoutes } from './routes.ts';
import { VersionsService } from './service.ts';

export function createVersionsService(db: Db): VersionsService {
  return new VersionsService(db, new AuditService(db), createProjectsService(db), createAppsService(db));
}

export function registerVersions(app: FastifyInstance, db: Db): void {
  versionsRoutes(app, createVersionsService(db));
}
