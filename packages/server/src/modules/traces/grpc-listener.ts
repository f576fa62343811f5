import {
  Server as GrpcServer,
  status as GrpcStatus,
  Metadata,
  ServerCredentials,
  ServerInterceptingCall,
  type ServerInterceptor,
  type ServerUnaryCall,
  type ServiceDefinition,
  type StatusObject,
  type sendUnaryData,
} from '@grpc/grpc-js';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.ts';
import { tokenFrom } from '../intake/credentials.ts';
import type { OtlpIntake } from './intake.ts';
import { encodeProtobufResponse, encodeRetryStatus } from './otlp-proto.ts';

/** The one method of opentelemetry.proto.collector.trace.v1.TraceService (OTLP/gRPC). */
export const OTLP_GRPC_EXPORT = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
/** Where the admission step leaves the token's app for the handler; a client's own value is replaced. */
const APP_KEY = 'x-sextant-intake-app';

const raw = (bytes: Buffer): Buffer => bytes;
/** Bytes in and out unchanged: the request is decoded by the intake (so a bad one is INVALID_ARGUMENT, not INTERNAL). */
export const TRACE_SERVICE: ServiceDefinition = {
  Export: {
    path: OTLP_GRPC_EXPORT,
    requestStream: false,
    responseStream: false,
    requestSerialize: raw,
    requestDeserialize: raw,
    responseSerialize: raw,
    responseDeserialize: raw,
  },
};

/** The gRPC status of the intake's refusals (OTLP/gRPC: RESOURCE_EXHAUSTED is retried only with RetryInfo). */
function statusOf(error: unknown): Pick<StatusObject, 'code' | 'details' | 'metadata'> {
  if (!(error instanceof ApiError)) {
    return { code: GrpcStatus.INTERNAL, details: 'The export could not be stored.', metadata: new Metadata() };
  }
  const code =
    error.status === 401
      ? GrpcStatus.UNAUTHENTICATED
      : error.status === 413 || error.status === 429
        ? GrpcStatus.RESOURCE_EXHAUSTED
        : error.status === 400
          ? GrpcStatus.INVALID_ARGUMENT
          : GrpcStatus.INTERNAL;
  const metadata = new Metadata();
  if (error.retryAfterSeconds !== undefined) {
    metadata.set('grpc-status-details-bin', encodeRetryStatus(code, error.message, error.retryAfterSeconds));
  }
  return { code, details: error.message, metadata };
}

const first = (metadata: Metadata, key: string): string | undefined => {
  const value = metadata.get(key)[0];
  return typeof value === 'string' ? value : undefined;
};

/**
 * Before the export is handed on: the token (`authorization: Bearer` or `x-sextant-token` metadata)
 * must name an app, and a place among the exports in progress must be free, else the call ends with
 * UNAUTHENTICATED or RESOURCE_EXHAUSTED without its message reaching the intake. The place is given
 * back when the call ends, however it ends.
 */
function admission(intake: OtlpIntake, log: FastifyInstance['log']): ServerInterceptor {
  return (_method, call) => {
    let leave = () => {};
    let cancelled = false;
    return new ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, pass) => {
            metadata.remove(APP_KEY);
            intake
              .appOf(tokenFrom(first(metadata, 'authorization'), first(metadata, 'x-sextant-token')))
              .then((appId) => {
                if (cancelled) return;
                leave = intake.admit();
                metadata.set(APP_KEY, appId);
                pass(metadata);
              })
              .catch((error: unknown) => {
                if (!(error instanceof ApiError)) log.error({ err: error }, 'OTLP/gRPC: token check failed');
                call.sendStatus(statusOf(error));
              });
          },
          onCancel: () => {
            cancelled = true;
            leave();
          },
        }),
      sendStatus: (status, pass) => {
        leave();
        pass(status);
      },
    });
  };
}

function exportHandler(intake: OtlpIntake, log: FastifyInstance['log']) {
  return (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>): void => {
    const appId = first(call.metadata, APP_KEY);
    if (!appId) {
      callback({ code: GrpcStatus.UNAUTHENTICATED, details: 'No ingestion token was checked.' });
      return;
    }
    intake
      .ingest(appId, call.request, 'protobuf')
      .then((result) => callback(null, encodeProtobufResponse(result.rejected, result.errorMessage)))
      .catch((error: unknown) => {
        if (!(error instanceof ApiError)) log.error({ err: error }, 'OTLP/gRPC: export failed');
        callback(statusOf(error));
      });
  };
}

export type OtlpGrpcListener = { port: number; close: () => Promise<void> };

/**
 * OTLP/gRPC (issue 36) on its own port, in the server process, with @grpc/grpc-js: the same intake as
 * `POST /v1/traces`. grpc-js holds the size limit on the message as received and again while it
 * inflates a gzip or deflate one (RESOURCE_EXHAUSTED as soon as it passes), so a bomb is never held whole.
 * Plain HTTP/2 (as exporters send to an `http://` endpoint); TLS belongs to a proxy in front.
 */
export async function startOtlpGrpc(
  app: FastifyInstance,
  opts: { port: number; host: string },
): Promise<OtlpGrpcListener> {
  const intake = app.otlpIntake;
  const server = new GrpcServer({
    'grpc.max_receive_message_length': intake.limitBytes,
    interceptors: [admission(intake, app.log)],
  });
  server.addService(TRACE_SERVICE, { Export: exportHandler(intake, app.log) });
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${opts.port}`, ServerCredentials.createInsecure(), (error, bound) => {
      if (!error) return resolve(bound);
      server.forceShutdown();
      reject(error);
    }),
  );
  const close = () =>
    new Promise<void>((resolve) => {
      // Calls in progress finish (their spans are being written); none are waited for past 5 s.
      const force = setTimeout(() => server.forceShutdown(), 5000);
      server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
  return { port, close };
}

/** Starts the gRPC intake beside the app; port 0 means off, a taken port is logged, not fatal. */
export async function listenOtlpGrpc(
  app: FastifyInstance,
  opts: { port: number; host: string },
): Promise<OtlpGrpcListener | null> {
  if (opts.port === 0) return null;
  try {
    const listener = await startOtlpGrpc(app, opts);
    app.log.info(`OTLP/gRPC listening on ${opts.host}:${listener.port}`);
    return listener;
  } catch (error) {
    app.log.error({ err: error }, `OTLP/gRPC: cannot listen on port ${opts.port}`);
    return null;
  }
}
