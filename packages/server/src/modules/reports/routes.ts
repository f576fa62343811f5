import {
  CreateReportSchema,
  envelopeSchema,
  IdParamsSchema,
  PATHS,
  ReportSchema,
  UpdateReportSchema,
} from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Caller, ReportsService } from './service.ts';

function callerOf(req: FastifyRequest): Caller {
  if (!req.principal) throw new Error('report change without a signed-in principal');
  return req.principal;
}

/** POST/PATCH/DELETE of reports (coverageAdd, coverageEdit); reads are the report-views module's. */
export function reportsRoutes(app: FastifyInstance, reports: ReportsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['reports'];
  r.post(PATHS.reports, {
    config: { access: { action: 'create', resource: 'Report' } },
    schema: { tags, body: CreateReportSchema, response: { 201: envelopeSchema(ReportSchema) } },
    handler: async (req, reply) => {
      const report = await reports.create(req.body, callerOf(req));
      return reply.code(201).send({ code: 201, message: 'Report created; its job is queued.', data: report });
    },
  });
  r.patch(PATHS.report, {
    config: { access: { action: 'update', resource: 'Report' } },
    schema: { tags, params: IdParamsSchema, body: UpdateReportSchema, response: { 200: envelopeSchema(ReportSchema) } },
    handler: async (req) => {
      const report = await reports.update(req.params.id, req.body, callerOf(req));
      return { code: 200, message: 'Report saved.', data: report };
    },
  });
  r.delete(PATHS.report, {
    config: { access: { action: 'delete', resource: 'Report' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await reports.remove(req.params.id, callerOf(req));
      return { code: 200, message: 'Report deleted.', data: null };
    },
  });
}
