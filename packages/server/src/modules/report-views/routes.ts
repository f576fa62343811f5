import {
  can,
  DashboardQuerySchema,
  DashboardSchema,
  envelopeSchema,
  GetReportQuerySchema,
  PATHS,
  ReportDetailPageSchema,
  ReportDetailsQuerySchema,
  ReportFileSchema,
  ReportPageSchema,
  ReportSchema,
  SearchReportsSchema,
  SourceViewSchema,
} from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import type { ReportConfig } from '../../lib/data-paths.ts';
import { dashboard } from './dashboard.ts';
import { reportDetails } from './report-details.ts';
import { reportFiles, sourceView } from './report-source.ts';
import { findReport, searchReports } from './search-reports.ts';
import { SearchTotals } from './search-totals.ts';

const readReport = { access: { action: 'read', resource: 'Report' } } as const;
// Not z.uuid(): a malformed id names no report, so it answers 404 like any unknown id.
const ReportParams = z.object({ id: z.string().min(1).max(64) });
const ok = <T>(data: T) => ({ code: 200, message: 'OK', data });

/** The app dashboard needs AppDashboard (the route's gate); a team-wide or all-apps view also TeamDashboard. */
function requireTeamDashboard(req: FastifyRequest): void {
  const principal = req.principal;
  if (!principal) throw new Error('dashboard route without a principal');
  const permissions = {
    ability: principal.userData.ability,
    resourceNums: principal.userData.resourceNums,
    edition: principal.settings.licenseVersion,
  };
  if (!can(permissions, 'read', 'TeamDashboard')) {
    throw new ApiError(403, 'forbidden', 'Your role may not read TeamDashboard.');
  }
}

/**
 * Every reader with ('read', 'Report') sees every team's reports, as the administration lists show every
 * team's apps to their readers: teams here organise, they do not partition who may look.
 */
export function reportViewRoutes(app: FastifyInstance, db: Db, config: ReportConfig): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['reports'];
  const totals = new SearchTotals();
  // Creating, deleting or renaming reports or apps changes how many reports a search finds.
  app.addHook('onResponse', async (req, reply) => {
    if (req.method === 'GET' || req.method === 'HEAD' || reply.statusCode >= 400) return;
    if (/^\/api\/(reports|apps|teams)(\/|\?|$)/.test(req.url)) totals.invalidate();
  });
  r.post(PATHS.searchReports, {
    config: readReport,
    schema: {
      tags,
      description: 'Report search (specification point 7): equality filters when given, sorted, paginated.',
      body: SearchReportsSchema,
      response: { 200: envelopeSchema(ReportPageSchema) },
    },
    handler: async (req) => ok(await searchReports(db, req.body, totals)),
  });
  r.get(PATHS.getReport, {
    config: readReport,
    schema: { tags, querystring: GetReportQuerySchema, response: { 200: envelopeSchema(ReportSchema) } },
    handler: async (req) => {
      const report = await findReport(db, req.query.reportId);
      if (!report) throw new ApiError(404, 'not-found', 'No such report.');
      return ok(report);
    },
  });
  r.get(PATHS.getReportDetails, {
    config: readReport,
    schema: {
      tags,
      description: "A report's class rows (classId empty) or one class's method rows.",
      querystring: ReportDetailsQuerySchema,
      response: { 200: envelopeSchema(ReportDetailPageSchema) },
    },
    handler: async (req) => ok(await reportDetails(db, req.query)),
  });
  r.get(PATHS.reportFiles, {
    config: readReport,
    schema: { tags, params: ReportParams, response: { 200: envelopeSchema(z.array(ReportFileSchema)) } },
    handler: async (req) => ok(await reportFiles(db, req.params.id)),
  });
  r.get(PATHS.reportSource, {
    config: readReport,
    schema: {
      tags,
      description: 'A file of the report at its new commit, with line marks, changed lines and method figures.',
      params: ReportParams,
      querystring: z.object({ path: z.string().min(1).max(4096) }),
      response: { 200: envelopeSchema(SourceViewSchema) },
    },
    handler: async (req) => ok(await sourceView(db, config, req.params.id, req.query.path)),
  });
  r.get(PATHS.dashboard, {
    config: { access: { action: 'read', resource: 'AppDashboard' } },
    schema: {
      tags,
      description: 'Team or app dashboard (TeamDashboard is needed too unless appId is given).',
      querystring: DashboardQuerySchema,
      response: { 200: envelopeSchema(DashboardSchema) },
    },
    handler: async (req) => {
      if (!req.query.appId) requireTeamDashboard(req);
      return ok(await dashboard(db, req.query));
    },
  });
}
