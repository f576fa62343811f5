import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { createAppsService } from '../apps/index.ts';
import type { RepoPolicy } from '../apps/repo-location.ts';
import { AuditService } from '../audit/service.ts';
import { branchesRoutes } from './routes.ts';
import { BranchesService } from './service.ts';

export function registerBranches(app: FastifyInstance, db: Db, repoPolicy: RepoPolicy): void {
  branchesRoutes(app, new BranchesService(db, new AuditService(db), createAppsService(db, repoPolicy)));
}
