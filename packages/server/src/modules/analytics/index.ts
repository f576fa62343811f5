import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { GenerationCache } from '../../lib/generation-cache.ts';
import type { AppsService } from '../apps/service.ts';
import { intakeActivityReads } from '../intake/index.ts';
import type { ProjectsService } from '../projects/service.ts';
import { readAnalyticsGeneration } from '../reports/analytics-scope.ts';
import { riskBurnDownReads, riskGenerationRead } from '../risks/index.ts';
import { gitIdentityReads } from '../users/index.ts';
import { AnalyticsRepository } from './repository.ts';
import { analyticsRoutes } from './routes.ts';
import { AnalyticsService } from './service.ts';

/**
 * Answers kept per process: a page or a cockpit over every app is tens to hundreds of KB (and its
 * JSON text once given), so fewer than the risk lists' 2,000. Past the time limit a kept answer is
 * still given while one request reads it anew: an every-app read takes seconds under load, and the
 * requests arriving meanwhile would all wait for it.
 */
const KEEP = { maxEntries: 500, refreshStale: true };

/** App, committer, project and version analytics, the cockpit and the project dashboards (issue 35). */
export function registerAnalytics(
  app: FastifyInstance,
  db: Db,
  deps: { apps: AppsService; projects: ProjectsService; cacheMs: number },
): AnalyticsService {
  const service = new AnalyticsService(
    new AnalyticsRepository(db),
    deps.apps,
    deps.projects,
    gitIdentityReads(db),
    { intake: intakeActivityReads(db), burnDown: riskBurnDownReads(db) },
    deps.cacheMs > 0 ? new GenerationCache(dataGeneration(db), { ttlMs: deps.cacheMs, ...KEEP }) : null,
  );
  analyticsRoutes(app, service);
  return service;
}

/**
 * What the analytics show changes with the report data (analytics_generation) and with the risks
 * (risk_generation): both only grow, so their sum changes whenever either does.
 */
function dataGeneration(db: Db): () => Promise<number> {
  const risks = riskGenerationRead(db);
  return async () => {
    const [reports, risk] = await Promise.all([readAnalyticsGeneration(db), risks()]);
    return reports + risk;
  };
}
