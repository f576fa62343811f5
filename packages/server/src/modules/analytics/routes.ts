import {
  AnalyticsFilterSchema,
  AppAnalyticQuerySchema,
  AppOverviewSchema,
  AppVersionPageSchema,
  CaseAnalyticPageSchema,
  CaseAnalyticQuerySchema,
  CaseImpactQuerySchema,
  CaseImpactSchema,
  CaseMethodsQuerySchema,
  CaseMethodsSchema,
  CockpitSchema,
  CommitterPageSchema,
  CommitterQuerySchema,
  CommitterTrendSchema,
  envelopeSchema,
  GroupFiguresListSchema,
  IdParamsSchema,
  MyCoverageSchema,
  PATHS,
  ProjectDashboardSchema,
  RequirementAnalyticPageSchema,
  RequirementAnalyticQuerySchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { checkedOnceJson } from '../../lib/typed-json.ts';
import type { AnalyticsService } from './service.ts';

const ok = <T>(data: T) => ({ code: 200, message: 'OK', data });
/** Every analytics route: a read of `resource`, its kept answers (service.ts) written once (lib/typed-json.ts). */
const read = (resource: 'Analytics' | 'Cockpit' | 'ProjectDashboard' | 'Requirement') =>
  ({ ...checkedOnceJson, config: { access: { action: 'read', resource } } }) as const;

/** The analytics screens' reads (issue 35): each gated by the resource of the screen it feeds (point 6). */
export function analyticsRoutes(app: FastifyInstance, analytics: AnalyticsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['analytics'];
  r.get(PATHS.analyticsApps, {
    ...read('Analytics'),
    schema: { tags, querystring: AppAnalyticQuerySchema, response: { 200: envelopeSchema(AppVersionPageSchema) } },
    handler: async (req) => ok(await analytics.appVersions(req.query)),
  });
  r.get(PATHS.analyticsAppOverview, {
    ...read('Analytics'),
    schema: { tags, querystring: AnalyticsFilterSchema, response: { 200: envelopeSchema(AppOverviewSchema) } },
    handler: async (req) => ok(await analytics.appOverview(req.query)),
  });
  r.get(PATHS.analyticsCommitters, {
    ...read('Analytics'),
    schema: { tags, querystring: CommitterQuerySchema, response: { 200: envelopeSchema(CommitterPageSchema) } },
    handler: async (req) => ok(await analytics.committers(req.query)),
  });
  r.get(PATHS.analyticsCommitterTrend, {
    ...read('Analytics'),
    schema: { tags, querystring: AnalyticsFilterSchema, response: { 200: envelopeSchema(CommitterTrendSchema) } },
    handler: async (req) => ok(await analytics.committerTrend(req.query)),
  });
  r.get(PATHS.analyticsMine, {
    ...read('Analytics'),
    schema: {
      tags,
      description:
        "The signed-in user's changed methods in each latest incremental report (blame authors matched by e-mail and git identities).",
      querystring: AnalyticsFilterSchema,
      response: { 200: envelopeSchema(MyCoverageSchema) },
    },
    handler: async (req) => {
      const userId = req.principal?.userData.userid;
      if (!userId) throw new Error('analytics route without a principal');
      return ok(await analytics.mine(userId, req.query));
    },
  });
  r.get(PATHS.analyticsProjects, {
    ...read('Analytics'),
    schema: { tags, querystring: AnalyticsFilterSchema, response: { 200: envelopeSchema(GroupFiguresListSchema) } },
    handler: async (req) => ok(await analytics.projectFigures(req.query)),
  });
  r.get(PATHS.analyticsVersions, {
    ...read('Analytics'),
    schema: { tags, querystring: AnalyticsFilterSchema, response: { 200: envelopeSchema(GroupFiguresListSchema) } },
    handler: async (req) => ok(await analytics.versions(req.query)),
  });
  r.get(PATHS.analyticsRequirements, {
    ...read('Requirement'),
    schema: {
      tags,
      querystring: RequirementAnalyticQuerySchema,
      response: { 200: envelopeSchema(RequirementAnalyticPageSchema) },
    },
    handler: async (req) => ok(await analytics.requirements(req.query)),
  });
  r.get(PATHS.analyticsCases, {
    ...read('Analytics'),
    schema: { tags, querystring: CaseAnalyticQuerySchema, response: { 200: envelopeSchema(CaseAnalyticPageSchema) } },
    handler: async (req) => ok(await analytics.cases(req.query)),
  });
  r.get(PATHS.analyticsCaseMethods, {
    ...read('Analytics'),
    schema: { tags, querystring: CaseMethodsQuerySchema, response: { 200: envelopeSchema(CaseMethodsSchema) } },
    handler: async (req) => ok(await analytics.caseMethods(req.query)),
  });
  r.get(PATHS.analyticsCaseImpact, {
    ...read('Analytics'),
    schema: { tags, querystring: CaseImpactQuerySchema, response: { 200: envelopeSchema(CaseImpactSchema) } },
    handler: async (req) => ok(await analytics.caseImpact(req.query)),
  });
  r.get(PATHS.analyticsCockpit, {
    ...read('Cockpit'),
    schema: { tags, querystring: AnalyticsFilterSchema, response: { 200: envelopeSchema(CockpitSchema) } },
    handler: async (req) => ok(await analytics.cockpit(req.query)),
  });
  r.get(PATHS.projectDashboard, {
    ...read('ProjectDashboard'),
    schema: {
      tags,
      params: IdParamsSchema,
      querystring: AnalyticsFilterSchema,
      response: { 200: envelopeSchema(ProjectDashboardSchema) },
    },
    handler: async (req) => ok(await analytics.projectDashboard(req.params.id, req.query)),
  });
}
