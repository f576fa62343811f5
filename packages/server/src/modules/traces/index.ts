import type { Settings } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { CodeLinks } from './code-links.ts';
import { OtlpIntake } from './intake.ts';
import { InterfaceReads } from './interface-reads.ts';
import { interfaceRoutes } from './interface-routes.ts';
import { InterfaceService } from './interface-service.ts';
import { TraceReads } from './reads.ts';
import { RegressionRepository } from './regression-repository.ts';
import { regressionRoutes } from './regression-routes.ts';
import { RegressionService } from './regression-service.ts';
import { TracesRepository } from './repository.ts';
import { TraceRiskReads } from './risk-reads.ts';
import { otlpRoutes } from './routes.ts';
import { traceSearchRoutes } from './search-routes.ts';
import { TraceSearchService } from './search-service.ts';
import { TracesService } from './service.ts';
import { traceViewerSessionRoute } from './viewer-routes.ts';

export { listenOtlpGrpc } from './grpc-listener.ts';
export { listenTraceViewer } from './viewer-listener.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The OTLP intake both transports share; the gRPC listener (main.ts) serves it on its own port. */
    otlpIntake: OtlpIntake;
  }
}

/** The grouped span reads the risks module needs (issue 34), on the traces module's own table. */
export const traceRiskReads = (db: Db): TraceRiskReads => new TraceRiskReads(db);
export type { ExceptionGroup, SlowInterface, TraceRiskReads } from './risk-reads.ts';

export type TracesDeps = {
  settings: () => Promise<Settings>;
  appIdForToken: (token: string) => Promise<string | null>;
  /** Largest trace export, in bytes after decompression (OTLP recommends 64 MiB). */
  limitBytes: number;
  /** Exports written at once before more are refused with 429. */
  concurrentExports: number;
};

/**
 * The trace module (issue 36): OTLP/HTTP intake into day-partitioned span tables (and the intake
 * the OTLP/gRPC listener serves), trace search, interface analytics and regression runs.
 */
export function registerTraces(app: FastifyInstance, db: Db, deps: TracesDeps): TracesService {
  const traces = new TracesService(new TracesRepository(db), deps.settings, deps.concurrentExports, Date.now, (error) =>
    app.log.error({ err: error }, 'trace retention failed'),
  );
  const intake = new OtlpIntake(traces, deps.appIdForToken, deps.limitBytes);
  app.decorate('otlpIntake', intake);
  otlpRoutes(app, intake);
  traceSearchRoutes(app, new TraceSearchService(new TraceReads(db), new CodeLinks(db)));
  traceViewerSessionRoute(app);
  interfaceRoutes(app, new InterfaceService(new InterfaceReads(db)));
  regressionRoutes(app, new RegressionService(new RegressionRepository(db)));
  return traces;
}
