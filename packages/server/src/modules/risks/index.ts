import { PATHS, type RiskBurnDown, type Settings, type UserRef } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../lib/job-queue.ts';
import type { AuditService } from '../audit/service.ts';
import { changedMethodReads } from '../reports/index.ts';
import { traceRiskReads } from '../traces/index.ts';
import { type BurnDownScope, riskBurnDown } from './burn-down.ts';
import { type RiskDirectory, sqlDirectory } from './directory.ts';
import { RiskJobs } from './jobs.ts';
import { RisksRepository, readRiskGeneration } from './repository.ts';
import { risksRoutes } from './routes.ts';
import { RisksService } from './service.ts';
import { RiskTreemapService } from './treemap.ts';

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
  deps: {
    /** The shared audit log (built once in app.ts). */
    audit: AuditService;
    teamIdsOf: (userId: string) => Promise<Set<string>>;
    /** A team's leader and members (the teams module's), whom a "needs test" judgment may assign. */
    teamPeople?: (teamId: string) => Promise<UserRef[]>;
    directory?: RiskDirectory;
    /** The stored settings (the trace warning threshold of performance risks). */
    settings?: () => Promise<Settings>;
    /** The process's one job queue, for the scheduled trace-risk and severity jobs; none: no such jobs. */
    queue?: JobQueue;
  },
): RisksService {
  const directory = deps.directory ?? sqlDirectory(db);
  const service = new RisksService(
    new RisksRepository(db),
    directory,
    deps.audit,
    async (userId, title, text) => {
      try {
        await app.messages.publish({ message_type: 'RISK', title, text, userId });
      } catch (error) {
        // The risk and its history are stored; a lost notification must not undo them.
        app.log.error({ err: error, userId }, 'risk notification not published');
      }
    },
    deps.teamIdsOf,
    deps.teamPeople,
  );
  app.decorate('risks', service);
  risksRoutes(app, service, new RiskTreemapService(directory, changedMethodReads(db)));
  const { settings, queue } = deps;
  if (settings && queue) {
    const reads = traceRiskReads(db);
    const jobs = new RiskJobs(
      queue,
      {
        traceRisks: async () => service.recordTraceRisks(reads, (await settings()).traceWarnThreshold),
        severity: () => service.refreshSeverity(),
      },
      app.log,
    );
    app.addHook('onReady', async () => {
      void jobs.start();
    });
    // After a trace intake batch: a run soon (one per half minute however many batches arrive).
    app.addHook('onResponse', async (req, reply) => {
      if (req.routeOptions.url === PATHS.otlpTraces && reply.statusCode < 300) void jobs.soon();
    });
  }
  return service;
}

export type { BurnDownScope } from './burn-down.ts';

/** The risk burn-down, for the analytics screens (risk items and their history belong here). */
export const riskBurnDownReads =
  (db: Db) =>
  (scope: BurnDownScope, days?: number): Promise<RiskBurnDown> =>
    riskBurnDown(db, scope, days);

/** The risk data's generation, for the analytics answer cache (analytics show risks and their burn-down). */
export const riskGenerationRead = (db: Db) => (): Promise<number> => readRiskGeneration(db);
