import { OTLP_MEDIA_TYPES, PATHS } from '@sextant/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { tokenOf } from '../intake/credentials.ts';
import { lingerAfterRefusal } from '../intake/receive.ts';
import { readExportBody } from './body.ts';
import type { OtlpEncoding as Encoding, OtlpIntake } from './intake.ts';
import { encodeJsonResponse } from './otlp-json.ts';
import { encodeProtobufResponse, encodeProtobufStatus } from './otlp-proto.ts';

/** The media type only: `application/json; charset=utf-8` is JSON (parameters are not compared). */
function encodingOf(req: FastifyRequest): Encoding | null {
  const media = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (media === OTLP_MEDIA_TYPES.protobuf) return 'protobuf';
  if (media === OTLP_MEDIA_TYPES.json) return 'json';
  return null;
}

/** google.rpc.Status codes for the statuses this route answers with (OTLP leaves them advisory). */
const RPC_CODES: Record<number, number> = { 400: 3, 401: 16, 403: 7, 413: 8, 415: 3, 429: 8 };

/**
 * Errors in the request's own encoding, as OTLP requires: google.rpc.Status for protobuf, the API's
 * `{code, message, data}` envelope for JSON (a Status with extra fields a client ignores).
 */
function sendError(reply: FastifyReply, encoding: Encoding | null, error: ApiError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  reply.status(error.status);
  if (encoding === 'protobuf') {
    return reply
      .type(OTLP_MEDIA_TYPES.protobuf)
      .send(encodeProtobufStatus(RPC_CODES[error.status] ?? 2, error.message));
  }
  return reply.type(OTLP_MEDIA_TYPES.json).send({
    code: error.status,
    message: error.message,
    data: { error: error.error },
  });
}

/**
 * OTLP/HTTP `POST /v1/traces` (issue 36), in its own scope: bodies reach the handler unread, so the
 * size limit is checked by us after decompression, not by Fastify's parser. Declared public: an
 * ingestion token is not a user; the handler resolves it to its app before reading the body.
 */
export function otlpRoutes(app: FastifyInstance, intake: OtlpIntake): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    // OTLP/HTTP: any method but POST is 405 (as the Collector answers), not a 404 that hides the endpoint.
    scope.route({
      method: ['GET', 'PUT', 'PATCH', 'DELETE'],
      url: PATHS.otlpTraces,
      config: { access: 'public' },
      schema: { hide: true },
      handler: async (_req, reply) =>
        sendError(
          reply.header('allow', 'POST'),
          null,
          new ApiError(405, 'bad-request', 'OTLP/HTTP exports are POSTed.'),
        ),
    });
    scope.post(PATHS.otlpTraces, {
      config: { access: 'public' },
      schema: {
        tags: ['traces'],
        description:
          'OTLP/HTTP trace export (protobuf or JSON, optionally gzip), authorised by an app ingestion token ' +
          '(Authorization: Bearer or X-Sextant-Token). Invalid spans are refused one by one (partialSuccess); ' +
          'an undecodable body is 400, an oversized one (after decompression) 413, another media type 415, ' +
          'too many exports in progress 429 with Retry-After.',
      },
      handler: async (req, reply) => {
        const encoding = encodingOf(req);
        let leave = () => {};
        try {
          const appId = await intake.appOf(tokenOf(req));
          if (!encoding) {
            throw new ApiError(415, 'bad-request', 'Send application/x-protobuf or application/json (OTLP/HTTP).');
          }
          leave = intake.admit();
          const body = await readExportBody(req, intake.limitBytes);
          const result = await intake.ingest(appId, body, encoding);
          reply.status(200);
          if (encoding === 'protobuf') {
            return reply
              .type(OTLP_MEDIA_TYPES.protobuf)
              .send(encodeProtobufResponse(result.rejected, result.errorMessage));
          }
          return reply.type(OTLP_MEDIA_TYPES.json).send(encodeJsonResponse(result.rejected, result.errorMessage));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          lingerAfterRefusal(req.raw, reply.raw);
          return sendError(reply, encoding, error);
        } finally {
          leave();
        }
      },
    });
  });
}
