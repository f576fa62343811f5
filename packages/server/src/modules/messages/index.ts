import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { Principals } from '../auth/principals.ts';
import { MessagesRepository } from './repository.ts';
import { type MessagesRouteDeps, messagesRoutes } from './routes.ts';
import { MessagesService, type ReportOwners } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The message centre: the report pipeline and agents publish through `app.messages.publish(...)`. */
    messages: MessagesService;
  }
}

export function registerMessages(
  app: FastifyInstance,
  db: Db,
  principals: Principals,
  deps: MessagesRouteDeps & { owners: ReportOwners },
): MessagesService {
  const service = new MessagesService(
    new MessagesRepository(db),
    app.broker,
    async () => (await principals.settings()).wsMaxHistoryLength,
    deps.owners,
  );
  app.decorate('messages', service);
  app.broker.catchUpWith((reportId, after, before, like) => service.missed(reportId, after, before, like));
  messagesRoutes(app, service, deps);
  return service;
}
