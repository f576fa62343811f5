import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Db } from '../../db/client.ts';
import type { AppsService } from '../apps/service.ts';
import type { AuditService } from '../audit/service.ts';
import { BranchRefreshJobs, DEFAULT_BRANCH_REFRESH_CRON } from './refresh-jobs.ts';
import { BranchesRepository } from './repository.ts';
import { branchesRoutes } from './routes.ts';
import { BranchesService } from './service.ts';

export { BranchRefreshJobs } from './refresh-jobs.ts';

/** The branches routes, and the server's own refreshes (a new app's, and every app's on a schedule). */
export function registerBranches(
  app: FastifyInstance,
  db: Db,
  deps: { audit: AuditService; apps: AppsService; runJobs: boolean },
): BranchRefreshJobs {
  const service = new BranchesService(new BranchesRepository(db), deps.audit, deps.apps);
  branchesRoutes(app, service);
  const jobs = new BranchRefreshJobs({
    // drizzle keeps the pg Pool it was opened on; pg-boss runs on it (PGlite behind its socket too).
    pool: (db as Db & { $client: pg.Pool }).$client,
    branches: service,
    appIds: () => deps.apps.allIds(),
    runJobs: deps.runJobs,
    cron: process.env.SEXTANT_BRANCH_REFRESH_CRON?.trim() || DEFAULT_BRANCH_REFRESH_CRON,
    log: app.log,
  });
  app.addHook('onReady', () => jobs.start());
  app.addHook('onClose', () => jobs.stop());
  return jobs;
}
