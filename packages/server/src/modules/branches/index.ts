import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AppsService } from '../apps/service.ts';
import type { AuditService } from '../audit/service.ts';
import { BranchesRepository } from './repository.ts';
import { branchesRoutes } from './routes.ts';
import { BranchesService } from './service.ts';

export function registerBranches(app: FastifyInstance, db: Db, deps: { audit: AuditService; apps: AppsService }): void {
  branchesRoutes(app, new BranchesService(new BranchesRepository(db), deps.audit, deps.apps));
}
