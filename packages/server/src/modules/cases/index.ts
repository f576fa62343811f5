import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { createAppsService } from '../apps/index.ts';
import { AuditService } from '../audit/service.ts';
import { createRequirementsService } from '../requirements/index.ts';
import { CaseImporter } from './import.ts';
import { casesRoutes } from './routes.ts';
import { CasesService } from './service.ts';

export function registerCases(app: FastifyInstance, db: Db): void {
  const audit = new AuditService(db);
  const apps = createAppsService(db);
  const requirements = createRequirementsService(db);
  const cases = new CasesService(db, audit, apps, requirements);
  casesRoutes(app, cases, new CaseImporter(db, audit, apps, requirements, cases));
}
