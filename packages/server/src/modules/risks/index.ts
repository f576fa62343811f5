import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { AuditService } from '../audit/service.ts';
import { type RiskDirectory, sqlDirectory } from './directory.ts';
import { RisksRepository } from './repository.ts';
import { risksRoutes } from './routes.ts';
import { RisksService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The risk items (issue 34): the report pipeline records coverage risks through `app.risks.record`. */
    risks: RisksService;
  }
}

/** Registered after the message centre (it notifies through it) and before the reports (they record here). */
export function registerRisks(
  app: FastifyInstance,
  db: Db,
  deps: { teamIdsOf: (userId: string) => Promise<Set<string>>; directory?: RiskDirectory },
): RisksService {
  const service = new RisksService(
    new RisksRepository(db),
    deps.directory ?? sqlDirectory(db),
    new AuditService(db),
    async (userId, title, text) => {
      try {
        await app.messages.publish({ message_type: 'RISK', title, text, userId });
      } catch (error) {
        // The risk and its history are stored; a lost notification must not undo them.
        app.log.error({ err: error, userId }, 'risk notification not published');
      }
    },
    deps.teamIdsOf,
  );
  app.decorate('risks', service);
  risksRoutes(app, service);
  return service;
}
