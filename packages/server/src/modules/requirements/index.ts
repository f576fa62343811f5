import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { AuditService } from '../audit/service.ts';
import { createProjectsService } from '../projects/index.ts';
import { createVersionsService } from '../versions/index.ts';
import { requirementsRoutes } from './routes.ts';
import { RequirementsService } from './service.ts';

export function createRequirementsService(db: Db): RequirementsService {
  return new RequirementsService(db, new AuditService(db), createProjectsService(db), createVersionsService(db));
}

/** Hidden when the edition is lite: every route declares the Requirement resource, which the access gate refuses. */
export function registerRequirements(app: FastifyInstance, db: Db): void {
  requirementsRoutes(app, createRequirementsService(db));
}
