import {
  ApplicationQuerySchema,
  ApplicationSchema,
  ApprovalSchema,
  ApproveRequestSchema,
  envelopeSchema,
  PATHS,
  pageSchema,
  RegisterRequestSchema,
  RejectRequestSchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/actor.ts';
import type { AuditService } from '../audit/service.ts';
import { callerRights } from '../roles/grants.ts';
import type { ApplicationsService } from './service.ts';

const IdParams = z.object({ id: z.uuid() });

export function applicationsRoutes(app: FastifyInstance, service: ApplicationsService, audit: AuditService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(PATHS.register, {
    config: { access: 'public' },
    schema: { tags: ['auth'], body: RegisterRequestSchema, response: { 200: envelopeSchema(z.null()) } },
    handler: async (req) => {
      await service.apply(req.body, req.ip);
      return { code: 200, message: 'Your request was sent; an administrator will review it.', data: null };
    },
  });
  r.get(PATHS.applications, {
    config: { access: { action: 'read', resource: 'Apply' } },
    schema: {
      tags: ['applications'],
      querystring: ApplicationQuerySchema,
      response: { 200: envelopeSchema(pageSchema(ApplicationSchema)) },
    },
    handler: async (req) => ({ code: 200, message: 'OK', data: await service.list(req.query) }),
  });
  r.post(PATHS.approveApplication, {
    config: { access: { action: 'update', resource: 'Apply' } },
    schema: {
      tags: ['applications'],
      params: IdParams,
      body: ApproveRequestSchema,
      response: { 200: envelopeSchema(ApprovalSchema) },
    },
    handler: async (req) => {
      const approval = await service.approve(req.params.id, req.body.role, callerRights(req));
      await audit.record(audit.db, actorOf(req), {
        entity: 'application',
        entityId: req.params.id,
        action: 'approve',
        changes: { role: { from: null, to: req.body.role }, userId: { from: null, to: approval.userId } },
      });
      return { code: 200, message: 'Approved; pass the reset link on to the applicant.', data: approval };
    },
  });
  r.post(PATHS.rejectApplication, {
    config: { access: { action: 'update', resource: 'Apply' } },
    schema: {
      tags: ['applications'],
      params: IdParams,
      body: RejectRequestSchema,
      response: { 200: envelopeSchema(z.null()) },
    },
    handler: async (req) => {
      await service.reject(req.params.id, req.body.reason, req.principal?.userData.userid ?? '');
      await audit.record(audit.db, actorOf(req), {
        entity: 'application',
        entityId: req.params.id,
        action: 'reject',
        changes: { reason: { from: null, to: req.body.reason } },
      });
      return { code: 200, message: 'Rejected.', data: null };
    },
  });
}
