import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../lib/job-queue.ts';
import type { AppsService } from '../apps/service.ts';
import type { AuditService } from '../audit/service.ts';
import type { Principals } from '../auth/principals.ts';
import type { CasesService } from '../cases/service.ts';
import type { ProjectsService } from '../projects/service.ts';
import type { RequirementsService } from '../requirements/service.ts';
import { DEFAULT_ZENTAO_IMPORT_CRON, ZentaoImportJobs } from './import-jobs.ts';
import { ZentaoImporter } from './importer.ts';
import { zentaoRoutes } from './routes.ts';
import { PasswordSeal } from './sealed-password.ts';
import { ZentaoService } from './service.ts';

export { ZentaoService } from './service.ts';

/** `/zentao`'s status, the administrator's ZenTao account, imports on request and on the schedule. */
export function registerZentao(
  app: FastifyInstance,
  db: Db,
  deps: {
    audit: AuditService;
    principals: Principals;
    projects: ProjectsService;
    apps: Pick<AppsService, 'names'>;
    requirements: RequirementsService;
    cases: CasesService;
    secret: string;
    queue: JobQueue;
    /** Whether this process schedules and works the import. */
    schedule: boolean;
  },
): ZentaoService {
  const importer = new ZentaoImporter({
    db,
    audit: deps.audit,
    projects: deps.projects,
    apps: deps.apps,
    requirements: deps.requirements,
    cases: deps.cases,
  });
  const service = new ZentaoService(db, {
    audit: deps.audit,
    principals: deps.principals,
    importer,
    seal: new PasswordSeal(deps.secret),
  });
  zentaoRoutes(app, service);
  const jobs = new ZentaoImportJobs({
    queue: deps.queue,
    zentao: service,
    enabled: deps.schedule,
    cron: process.env.SEXTANT_ZENTAO_IMPORT_CRON?.trim() || DEFAULT_ZENTAO_IMPORT_CRON,
    log: app.log,
  });
  app.addHook('onReady', () => jobs.start());
  return service;
}
