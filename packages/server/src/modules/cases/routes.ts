import {
  CaseImportQuerySchema,
  CaseImportRejectionSchema,
  CaseImportResultSchema,
  CaseInputSchema,
  CaseQuerySchema,
  CaseSchema,
  CaseUpdateSchema,
  envelopeSchema,
  IdParamsSchema,
  PATHS,
  pageSchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/actor.ts';
import { refuseRequirementWhenHidden, requirementsHidden, withoutRequirement } from './edition.ts';
import { type CaseImporter, ImportRejected } from './import.ts';
import type { CasesService } from './service.ts';

const CSV_BODY_LIMIT = 4 * 1024 * 1024;

export function casesRoutes(app: FastifyInstance, cases: CasesService, importer: CaseImporter): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['cases'];
  if (!app.hasContentTypeParser('text/csv')) {
    app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: CSV_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
  }
  r.get(PATHS.cases, {
    config: { access: { action: 'read', resource: 'Case' } },
    schema: { tags, querystring: CaseQuerySchema, response: { 200: envelopeSchema(pageSchema(CaseSchema)) } },
    handler: async (req) => {
      const page = await cases.list(req.query);
      const items = requirementsHidden(req) ? page.items.map(withoutRequirement) : page.items;
      return { code: 200, message: 'OK', data: { ...page, items } };
    },
  });
  r.get(PATHS.case, {
    config: { access: { action: 'read', resource: 'Case' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(CaseSchema) } },
    handler: async (req) => {
      const item = await cases.get(req.params.id);
      return { code: 200, message: 'OK', data: requirementsHidden(req) ? withoutRequirement(item) : item };
    },
  });
  r.post(PATHS.cases, {
    config: { access: { action: 'create', resource: 'Case' } },
    schema: { tags, body: CaseInputSchema, response: { 200: envelopeSchema(CaseSchema) } },
    handler: async (req) => {
      refuseRequirementWhenHidden(req, req.body.requirementId);
      const item = await cases.create(req.body, actorOf(req));
      return { code: 200, message: 'Case created.', data: requirementsHidden(req) ? withoutRequirement(item) : item };
    },
  });
  r.post(PATHS.casesImport, {
    config: { access: { action: 'create', resource: 'Case' } },
    bodyLimit: CSV_BODY_LIMIT,
    schema: {
      tags,
      description:
        'Body: CSV text (Content-Type text/csv). All rows are stored or none; a refusal lists every bad row.',
      querystring: CaseImportQuerySchema,
      body: z.string().min(1, 'Please send the CSV file.'),
      response: {
        200: envelopeSchema(CaseImportResultSchema),
        400: envelopeSchema(CaseImportRejectionSchema),
      },
    },
    handler: async (req, reply) => {
      try {
        const result = await importer.run(req.query.appId, req.body, actorOf(req), {
          requirements: !requirementsHidden(req),
        });
        return { code: 200, message: `${result.imported} case(s) imported.`, data: result };
      } catch (e) {
        if (!(e instanceof ImportRejected)) throw e;
        const fields = Object.fromEntries(
          e.problems.map((p) => [`row ${p.row}${p.column ? ` ${p.column}` : ''}`, p.message]),
        );
        return reply.status(400).send({
          code: 400,
          message: e.message,
          data: { error: 'validation-failed', fields, rows: e.problems },
        });
      }
    },
  });
  r.patch(PATHS.case, {
    config: { access: { action: 'update', resource: 'Case' } },
    schema: { tags, params: IdParamsSchema, body: CaseUpdateSchema, response: { 200: envelopeSchema(CaseSchema) } },
    handler: async (req) => {
      refuseRequirementWhenHidden(req, req.body.requirementId);
      const item = await cases.update(req.params.id, req.body, actorOf(req));
      return { code: 200, message: 'Case saved.', data: requirementsHidden(req) ? withoutRequirement(item) : item };
    },
  });
  r.delete(PATHS.case, {
    config: { access: { action: 'delete', resource: 'Case' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await cases.remove(req.params.id, actorOf(req));
      return { code: 200, message: 'Case deleted.', data: null };
    },
  });
}
