import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import { envelopeSchema, REPORT_PATHS, type UploadMeta, UploadMetaSchema, UploadResultSchema } from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type ReportConfig, uploadsDir } from '../../lib/data-paths.ts';
import { ApiError } from '../../plugins/errors.ts';
import type { IntakeCredentials, Sender } from './credentials.ts';
import { lingerAfterRefusal, type ReceivedFile, receiveToFile, refuseDeclaredOversize } from './receive.ts';
import type { AppRef } from './repository.ts';
import type { UploadsService } from './uploads-service.ts';

const META_FIELDS = ['app', 'commit', 'envType', 'testType', 'caseId', 'agentId', 'format', 'baseDir'] as const;

function parseMeta(raw: Record<string, unknown>): UploadMeta {
  const picked = Object.fromEntries(META_FIELDS.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]));
  const parsed = UploadMetaSchema.safeParse(picked);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
  throw new ApiError(400, 'validation-failed', 'The upload metadata is incomplete or invalid.', fields);
}

type Arrival = { app: AppRef; meta: UploadMeta; file: ReceivedFile; fileName: string; sender: Sender };

/** Metadata in the query string, the file as the whole body. */
async function rawArrival(req: FastifyRequest, sender: Sender, deps: Deps): Promise<Arrival> {
  const meta = parseMeta(req.query as Record<string, unknown>);
  const app = await deps.credentials.appFor(sender, meta.app);
  const body = req.body instanceof Readable ? req.body : Readable.from([]);
  const file = await receiveToFile(body, uploadsDir(deps.config.dataDir, app.id), deps.config.uploadLimitBytes);
  return { app, meta, file, fileName: 'upload', sender };
}

/** Fields (and the query string) first, then exactly one file part; the file is streamed as it arrives. */
async function multipartArrival(req: FastifyRequest, sender: Sender, deps: Deps): Promise<Arrival> {
  const fields: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
  let arrival: Arrival | null = null;
  try {
    for await (const part of req.parts()) {
      if (arrival) throw new ApiError(400, 'bad-request', 'Send the metadata fields before the file, and one file.');
      if (part.type === 'field') {
        fields[part.fieldname] = part.value;
        continue;
      }
      const meta = parseMeta(fields);
      const app = await deps.credentials.appFor(sender, meta.app);
      const dir = uploadsDir(deps.config.dataDir, app.id);
      const file = await receiveToFile(part.file, dir, deps.config.uploadLimitBytes);
      arrival = { app, meta, file, fileName: part.filename || 'upload', sender };
    }
  } catch (error) {
    if (arrival) await rm(arrival.file.path, { force: true });
    throw error;
  }
  if (!arrival) throw new ApiError(400, 'bad-request', 'The multipart body holds no file.');
  return arrival;
}

type Deps = { credentials: IntakeCredentials; uploads: UploadsService; config: ReportConfig };

/**
 * POST /api/coverage/uploads in its own scope: every content type but multipart reaches the handler
 * unread (a stream), so nothing is buffered and the body limit is ours (`uploadLimitBytes`), not
 * Fastify's 1 MB. Declared public: `credentials.identify` checks the token before any byte is read.
 */
export function registerUploadRoute(app: FastifyInstance, deps: Deps): void {
  const limit = deps.config.uploadLimitBytes;
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    // busboy stops one byte past the limit, so receiveToFile sees the overflow and answers 413 itself.
    await scope.register(multipart, { limits: { fileSize: limit + 1, files: 1, fields: 20, fieldSize: 4096 } });
    scope.withTypeProvider<ZodTypeProvider>().post(REPORT_PATHS.uploads, {
      config: { access: 'public' },
      schema: {
        tags: ['coverage'],
        description:
          'Sends one coverage file: the raw body with the metadata in the query string, or multipart/form-data ' +
          "with the metadata fields before the file. Authorised by the app's ingestion token (Authorization: Bearer " +
          "or X-Sextant-Token) or by the access token of a user who may create reports and belongs to the app's team.",
        response: { 201: envelopeSchema(UploadResultSchema) },
      },
      handler: async (req, reply) => {
        const isMultipart = req.isMultipart();
        let arrival: Arrival;
        try {
          refuseDeclaredOversize(req, limit, isMultipart);
          const sender = await deps.credentials.identify(req);
          arrival = await (isMultipart ? multipartArrival : rawArrival)(req, sender, deps);
        } catch (error) {
          // The body may be half read and paused: answer, and drop what still arrives for a while.
          lingerAfterRefusal(req.raw, reply.raw);
          throw error;
        }
        const sender = arrival.sender;
        const data = await deps.uploads.accept(
          arrival.app,
          arrival.meta,
          arrival.file,
          deps.credentials.uploaderOf(sender),
          arrival.fileName,
        );
        reply.code(201);
        return { code: 201, message: `Coverage received: ${data.files} files (${data.format}).`, data };
      },
    });
  });
}
