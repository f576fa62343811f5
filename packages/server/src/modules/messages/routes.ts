import {
  AgentHeartbeatSchema,
  envelopeSchema,
  isHeartbeat,
  MESSAGE_PATHS,
  MessageHistoryQuerySchema,
  MessageSchema,
  NotificationPageSchema,
  NotificationQuerySchema,
  PublishMessageRequestSchema,
  pageSchema,
  UnreadCountSchema,
} from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MessagesService } from './service.ts';

const IdParams = z.object({ id: z.string().min(1).max(128) });

function me(req: FastifyRequest): string {
  const userId = req.principal?.userData.userid;
  if (!userId) throw new Error('signed-in route without a principal');
  return userId;
}

export function messagesRoutes(app: FastifyInstance, service: MessagesService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(MESSAGE_PATHS.messages, {
    config: { access: { action: 'create', resource: 'Report' } },
    schema: {
      tags: ['messages'],
      description: 'Publishes a message to every signed-in user (report pipeline, agents, administrators).',
      body: PublishMessageRequestSchema,
      response: { 200: envelopeSchema(MessageSchema) },
    },
    handler: async (req) => {
      // An agent's heart-beat without an IP is recorded with the address it came from (point 4).
      const ip = req.body.ip ?? (req.body.status && isHeartbeat(req.body.status) ? req.ip : undefined);
      return { code: 200, message: 'Published.', data: await service.publish({ ...req.body, ip }) };
    },
  });
  r.get(MESSAGE_PATHS.messages, {
    config: { access: { action: 'read', resource: 'Report' } },
    schema: {
      tags: ['messages'],
      description: "A report's message history, newest first (trimmed to wsMaxHistoryLength).",
      querystring: MessageHistoryQuerySchema,
      response: { 200: envelopeSchema(pageSchema(MessageSchema)) },
    },
    handler: async (req) => {
      const { reportId, page, perPage } = req.query;
      return { code: 200, message: 'OK', data: await service.history(reportId, page, perPage) };
    },
  });
  r.get(MESSAGE_PATHS.heartbeats, {
    config: { access: { action: 'read', resource: 'Report' } },
    schema: {
      tags: ['messages'],
      querystring: z.object({ reportId: z.string().min(1).max(128) }),
      response: { 200: envelopeSchema(z.array(AgentHeartbeatSchema)) },
    },
    handler: async (req) => ({ code: 200, message: 'OK', data: await service.heartbeats(req.query.reportId) }),
  });
  r.get(MESSAGE_PATHS.notifications, {
    config: { access: 'signed-in' },
    schema: {
      tags: ['messages'],
      querystring: NotificationQuerySchema,
      response: { 200: envelopeSchema(NotificationPageSchema) },
    },
    handler: async (req) => ({
      code: 200,
      message: 'OK',
      data: await service.notifications(me(req), req.query.page, req.query.perPage),
    }),
  });
  r.post(MESSAGE_PATHS.readAll, {
    config: { access: 'signed-in' },
    schema: { tags: ['messages'], response: { 200: envelopeSchema(UnreadCountSchema) } },
    handler: async (req) => ({ code: 200, message: 'All read.', data: await service.readAll(me(req)) }),
  });
  r.post('/api/notifications/:id/read', {
    config: { access: 'signed-in' },
    schema: { tags: ['messages'], params: IdParams, response: { 200: envelopeSchema(UnreadCountSchema) } },
    handler: async (req) => ({ code: 200, message: 'Read.', data: await service.markRead(me(req), req.params.id) }),
  });
  r.post('/api/notifications/:id/hide', {
    config: { access: 'signed-in' },
    schema: { tags: ['messages'], params: IdParams, response: { 200: envelopeSchema(UnreadCountSchema) } },
    handler: async (req) => ({ code: 200, message: 'Hidden.', data: await service.hide(me(req), req.params.id) }),
  });
}
