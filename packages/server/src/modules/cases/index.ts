import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AppsService } from '../apps/service.ts';
import type { AuditService } from '../audit/service.ts';
import type { RequirementsService } from '../requirements/service.ts';
import { CaseImporter } from './import.ts';
import { CasesRepository } from './repository.ts';
import { casesRoutes } from './routes.ts';
import { CasesService } from './service.ts';

export function registerCases(
  app: FastifyInstance,
  db: Db,
  deps: { audit: AuditService; apps: AppsService; requirements: RequirementsService },
): CasesService {
  const { audit, apps, requirements } = deps;
  const rows = new CasesRepository(db);
  const cases = new CasesService(db, rows, audit, apps, requirements);
  casesRoutes(app, cases, new CaseImporter({ db, rows, audit, apps, requirements }));
  return cases;
}
