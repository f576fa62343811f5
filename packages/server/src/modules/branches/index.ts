import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../lib/job-queue.ts';
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
  deps: { audit: AuditService; apps: AppsService; queue: JobQueue; refresh: boolean },
): BranchRefreshJobs {
  const service = new BranchesService(new BranchesRepository(db), deps.audit, deps.apps);
  branchesRoutes(app, service);
  const jobs = new BranchRefreshJobs({
    queue: deps.queue,
    branches: service,
    appIds: () => deps.apps.allIds(),
    enabled: deps.refresh,
    cron: process.env.SEXTANT_BRANCH_REFRESH_CRON?.trim() || DEFAULT_BRANCH_REFRESH_CRON,
    log: app.log,
  });
  app.addHook('onReady', () => jobs.start());
  return jobs;
}
