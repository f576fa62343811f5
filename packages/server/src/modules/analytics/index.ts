import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AppsService } from '../apps/service.ts';
import { intakeActivityReads } from '../intake/index.ts';
import type { ProjectsService } from '../projects/service.ts';
import { riskBurnDownReads } from '../risks/index.ts';
import { gitIdentityReads } from '../users/index.ts';
import { AnalyticsRepository } from './repository.ts';
import { analyticsRoutes } from './routes.ts';
import { AnalyticsService } from './service.ts';

/** App, committer, project and version analytics, the cockpit and the project dashboards (issue 35). */
export function registerAnalytics(
  app: FastifyInstance,
  db: Db,
  deps: { apps: AppsService; projects: ProjectsService },
): AnalyticsService {
  const service = new AnalyticsService(new AnalyticsRepository(db), deps.apps, deps.projects, gitIdentityReads(db), {
    intake: intakeActivityReads(db),
    burnDown: riskBurnDownReads(db),
  });
  analyticsRoutes(app, service);
  return service;
}
