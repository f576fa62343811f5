import {
  AskDecisionRequestSchema,
  AskDecisionResultSchema,
  envelopeSchema,
  JudgmentRequestSchema,
  PATHS,
  pageSchema,
  RiskHeadlineSchema,
  RiskHistorySchema,
  RiskItemSchema,
  RiskListQuerySchema,
  RiskTreemapQuerySchema,
  RiskTreemapSchema,
  UserRefSchema,
} from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { typedJson } from '../../lib/typed-json.ts';
import type { RisksService } from './service.ts';
import type { RiskTreemapService } from './treemap.ts';

const IdParams = z.object({ id: z.uuid() });
// Reading risks follows reading reports (specification point 6): they are the reports' changed methods.
const READ = { action: 'read', resource: 'Report' } as const;

export function risksRoutes(app: FastifyInstance, service: RisksService, treemap: RiskTreemapService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const viewer = (req: FastifyRequest) => {
    if (!req.principal) throw new Error('risk route without a principal');
    return service.viewerOf(req.principal);
  };
  r.get(PATHS.risks, {
    config: { access: READ },
    // Built field by field by RisksService.present (test/risks/read-cache.test.ts parses it with the schema).
    ...typedJson,
    schema: {
      tags: ['risks'],
      description: "Risk items of the caller's teams' apps, filtered, most severe (overdue needs-test) first.",
      querystring: RiskListQuerySchema,
      response: { 200: envelopeSchema(pageSchema(RiskItemSchema)) },
    },
    handler: async (req) => ({ code: 200, message: 'OK', data: await service.list(await viewer(req), req.query) }),
  });
  r.get(PATHS.riskHeadline, {
    config: { access: READ },
    ...typedJson,
    schema: {
      tags: ['risks'],
      description: 'Open risks, new and resolved this week, the oldest open, for the same filters as the list.',
      querystring: RiskListQuerySchema,
      response: { 200: envelopeSchema(RiskHeadlineSchema) },
    },
    handler: async (req) => ({ code: 200, message: 'OK', data: await service.headline(await viewer(req), req.query) }),
  });
  r.get(PATHS.riskTreemap, {
    config: { access: READ },
    schema: {
      tags: ['risks'],
      description:
        "The changed methods of an app version's latest successful incremental report, with changed lines and whether each is covered at the passing grade, changed and uncovered, or new and uncovered.",
      querystring: RiskTreemapQuerySchema,
      response: { 200: envelopeSchema(RiskTreemapSchema) },
    },
    handler: async (req) => ({
      code: 200,
      message: 'OK',
      data: await treemap.treemap(await viewer(req), req.query, req.principal?.settings.passingGrade ?? 0.6),
    }),
  });
  r.get(PATHS.riskHistory, {
    config: { access: READ },
    schema: {
      tags: ['risks'],
      description: "A risk item's transitions: who, when, from, to, why.",
      params: IdParams,
      response: { 200: envelopeSchema(RiskHistorySchema) },
    },
    handler: async (req) => ({
      code: 200,
      message: 'OK',
      data: await service.history(await viewer(req), req.params.id),
    }),
  });
  r.get(PATHS.riskAssignees, {
    config: { access: READ },
    schema: {
      tags: ['risks'],
      description:
        "Whom a needs-test judgment of the item may assign: the app's team (leader and members), the method's author and the caller.",
      params: IdParams,
      response: { 200: envelopeSchema(z.array(UserRefSchema)) },
    },
    handler: async (req) => ({
      code: 200,
      message: 'OK',
      data: await service.assignees(await viewer(req), req.params.id),
    }),
  });
  r.post(PATHS.riskAskDecision, {
    config: { access: READ },
    schema: {
      tags: ['risks'],
      description: 'Asks for a decision on observing items (they become pending); others are left as they are.',
      body: AskDecisionRequestSchema,
      response: { 200: envelopeSchema(AskDecisionResultSchema) },
    },
    handler: async (req) => ({
      code: 200,
      message: 'Decision asked for.',
      data: await service.askDecision(await viewer(req), req.body),
    }),
  });
  r.post(PATHS.riskJudgment, {
    // The judge rule depends on the item (its author, its team's testers), so the service checks it.
    config: { access: READ },
    schema: {
      tags: ['risks'],
      description:
        "Judges a risk item: accepted or false positive with a reason, or needs test with an assignee and a due date. Only the method's author, testers of the app's team and holders of update Risk; refused while showJudgment is off.",
      params: IdParams,
      body: JudgmentRequestSchema,
      response: { 200: envelopeSchema(RiskItemSchema) },
    },
    handler: async (req) => ({
      code: 200,
      message: 'Judged.',
      data: await service.judge(await viewer(req), req.params.id, req.body),
    }),
  });
}
