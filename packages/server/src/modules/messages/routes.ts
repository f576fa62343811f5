import {
  AgentHeartbeatSchema,
  envelopeSchema,
  MessageHistoryQuerySchema,
  MessageSchema,
  NotificationPageSchema,
  NotificationQuerySchema,
  PATHS,
  PublishMessageRequestSchema,
  pageSchema,
  UnreadCountSchema,
} from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AppIdForToken, checkAgentMessage, publisherOf } from './publishers.ts';
import { type ReportReader, reportReaderOf, type TeamIdsOf } from './readers.ts';
import type { MessagesService } from './service.ts';

const IdParams = z.object({ id: z.string().min(1).max(128) });

export type MessagesRouteDeps = { appIdForToken: AppIdForToken; teamIdsOf: TeamIdsOf };

/** The signed-in caller and what of the reports they may read. */
type Me = (req: FastifyRequest) => Promise<{ userId: string; reader: ReportReader }>;

export function messagesRoutes(app: FastifyInstance, service: MessagesService, deps: MessagesRouteDeps): void {
  const me: Me = async (req) => {
    if (!req.principal) throw new Error('signed-in route without a principal');
    return { userId: req.principal.userData.userid, reader: await reportReaderOf(req.principal, deps.teamIdsOf) };
  };
  reportMessageRoutes(app, service, deps, me);
  notificationRoutes(app, service, me);
}

/** A report's messages: published by administrators and agents, read as history and heart-beats. */
function reportMessageRoutes(app: FastifyInstance, service: MessagesService, deps: MessagesRouteDeps, me: Me): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(PATHS.messages, {
    // Public at the gate because an ingestion token is not a user; `publisherOf` checks the credentials first.
    config: { access: 'public' },
    schema: {
      tags: ['messages'],
      description:
        "Publishes a message: an administrator's notice, or an agent's heart-beat with its app's ingestion " +
        "token for that app's reports. The server sets date and ip (the request's address). Delivered to " +
        "readers of the report's team, or to everyone when it names no report.",
      body: PublishMessageRequestSchema,
      response: { 200: envelopeSchema(MessageSchema) },
    },
    handler: async (req) => {
      const publisher = await publisherOf(app, req, deps.appIdForToken);
      if (publisher.kind === 'agent') await checkAgentMessage(service, publisher.appId, req.body);
      return { code: 200, message: 'Published.', data: await service.publish({ ...req.body, ip: req.ip }) };
    },
  });
  r.get(PATHS.messages, {
    config: { access: { action: 'read', resource: 'Report' } },
    schema: {
      tags: ['messages'],
      description: "A report's message history, newest first (trimmed to wsMaxHistoryLength).",
      querystring: MessageHistoryQuerySchema,
      response: { 200: envelopeSchema(pageSchema(MessageSchema)) },
    },
    handler: async (req) => {
      const { reportId, page, perPage } = req.query;
      const { reader } = await me(req);
      return { code: 200, message: 'OK', data: await service.history(reader, reportId, page, perPage) };
    },
  });
  r.get(PATHS.messageHeartbeats, {
    config: { access: { action: 'read', resource: 'Report' } },
    schema: {
      tags: ['messages'],
      querystring: z.object({ reportId: z.string().min(1).max(128) }),
      response: { 200: envelopeSchema(z.array(AgentHeartbeatSchema)) },
    },
    handler: async (req) => ({
      code: 200,
      message: 'OK',
      data: await service.heartbeats((await me(req)).reader, req.query.reportId),
    }),
  });
}

/** The signed-in user's own notifications: listed, read, hidden. */
function notificationRoutes(app: FastifyInstance, service: MessagesService, me: Me): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(PATHS.notifications, {
    config: { access: 'signed-in' },
    schema: {
      tags: ['messages'],
      querystring: NotificationQuerySchema,
      response: { 200: envelopeSchema(NotificationPageSchema) },
    },
    handler: async (req) => {
      const { userId, reader } = await me(req);
      return {
        code: 200,
        message: 'OK',
        data: await service.notifications(userId, reader, req.query.page, req.query.perPage),
      };
    },
  });
  r.post(PATHS.notificationsReadAll, {
    config: { access: 'signed-in' },
    schema: { tags: ['messages'], response: { 200: envelopeSchema(UnreadCountSchema) } },
    handler: async (req) => {
      const { userId, reader } = await me(req);
      return { code: 200, message: 'All read.', data: await service.readAll(userId, reader) };
    },
  });
  r.post(PATHS.notificationRead, {
    config: { access: 'signed-in' },
    schema: { tags: ['messages'], params: IdParams, response: { 200: envelopeSchema(UnreadCountSchema) } },
    handler: async (req) => {
      const { userId, reader } = await me(req);
      return { code: 200, message: 'Read.', data: await service.markRead(userId, reader, req.params.id) };
    },
  });
  r.post(PATHS.notificationHide, {
    config: { access: 'signed-in' },
    schema: { tags: ['messages'], params: IdParams, response: { 200: envelopeSchema(UnreadCountSchema) } },
    handler: async (req) => {
      const { userId, reader } = await me(req);
      return { code: 200, message: 'Hidden.', data: await service.hide(userId, reader, req.params.id) };
    },
  });
}
