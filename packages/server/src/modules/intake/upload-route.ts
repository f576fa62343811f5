import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import { envelopeSchema, PATHS, type UploadMeta, UploadMetaSchema, UploadResultSchema } from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiError } from '../../errors.ts';
import { type ReportConfig, uploadsDir } from '../../lib/data-paths.ts';
import { refuseUnsafeText, SINGLE_LINE } from '../../plugins/text-guard.ts';
import type { IntakeCredentials, Sender } from './credentials.ts';
import { lingerAfterRefusal, type ReceivedFile, receiveToFile, refuseDeclaredOversize } from './receive.ts';
import type { AppRef } from './repository.ts';
import { RETRY_AFTER_SECONDS, type UploadAdmission } from './upload-admission.ts';
import type { UploadsService } from './uploads-service.ts';

const META_FIELDS = ['app', 'commit', 'envType', 'testType', 'caseId', 'agentId', 'format', 'baseDir'] as const;
const MAX_FIELDS = 20;
const ONE_FILE = 'Send the metadata fields before the file, and one file.';

/** busboy's and @fastify/multipart's failures on a malformed body: the sender's fault, a 400 (never a 500). */
function multipartRefusal(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const { code, message } = error as { code?: string; message?: string };
  const bad = (text: string) => new ApiError(400, 'bad-request', text);
  if (message === 'Multipart: Boundary not found') {
    return bad('The multipart/form-data body names no boundary in its Content-Type.');
  }
  if (code === 'FST_MP_PREMATURE_CLOSE' || /unexpected end of multipart data/i.test(message ?? '')) {
    return bad('The multipart body ended before its closing boundary.');
  }
  if (code === 'FST_FILES_LIMIT') return bad(ONE_FILE);
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return bad(`The multipart body holds more than ${MAX_FIELDS} fields.`);
  }
  return error;
}

function parseMeta(raw: Record<string, unknown>): UploadMeta {
  const picked = Object.fromEntries(META_FIELDS.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]));
  // Form fields are read here, past the request-wide text check (plugins/text-guard.ts).
  refuseUnsafeText(picked, SINGLE_LINE);
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
      if (arrival) throw new ApiError(400, 'bad-request', ONE_FILE);
      if (part.type === 'field') {
        fields[part.fieldname] = part.value;
        continue;
      }
      const meta = parseMeta(fields);
      refuseUnsafeText({ filename: part.filename }, SINGLE_LINE);
      const app = await deps.credentials.appFor(sender, meta.app);
      const dir = uploadsDir(deps.config.dataDir, app.id);
      const file = await receiveToFile(part.file, dir, deps.config.uploadLimitBytes);
      arrival = { app, meta, file, fileName: part.filename || 'upload', sender };
    }
  } catch (error) {
    if (arrival) await rm(arrival.file.path, { force: true });
    throw multipartRefusal(error);
  }
  if (!arrival) throw new ApiError(400, 'bad-request', 'The multipart body holds no file.');
  return arrival;
}

type Deps = {
  credentials: IntakeCredentials;
  uploads: UploadsService;
  admission: UploadAdmission;
  config: ReportConfig;
};

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
    await scope.register(multipart, { limits: { fileSize: limit + 1, files: 1, fields: MAX_FIELDS, fieldSize: 4096 } });
    scope.withTypeProvider<ZodTypeProvider>().post(PATHS.uploads, {
      config: { access: 'public' },
      schema: {
        tags: ['coverage'],
        description:
          'Sends one coverage file: the raw body with the metadata in the query string, or multipart/form-data ' +
          "with the metadata fields before the file. Authorised by the app's ingestion token (Authorization: Bearer " +
          "or X-Sextant-Token) or by the access token of a user who may create reports and belongs to the app's team. " +
          'A gzipped file is bounded after decompression too (size and expansion ratio, 413). Too many uploads in ' +
          'progress answer 429 with Retry-After.',
        response: { 201: envelopeSchema(UploadResultSchema) },
      },
      handler: async (req, reply) => {
        const isMultipart = req.isMultipart();
        let arrival: Arrival;
        let leave = () => {};
        try {
          refuseDeclaredOversize(req, limit, isMultipart);
          const sender = await deps.credentials.identify(req);
          // A place is taken before a byte of the body is read, and kept until the upload is answered.
          leave = deps.admission.enter();
          arrival = await (isMultipart ? multipartArrival : rawArrival)(req, sender, deps);
        } catch (error) {
          leave();
          if (error instanceof ApiError && error.status === 429) reply.header('retry-after', RETRY_AFTER_SECONDS);
          // The body may be half read and paused: answer, and drop what still arrives for a while.
          lingerAfterRefusal(req.raw, reply.raw);
          throw error;
        }
        try {
          const data = await deps.uploads.accept(
            arrival.app,
            arrival.meta,
            arrival.file,
            deps.credentials.uploaderOf(arrival.sender),
            arrival.fileName,
          );
          reply.code(201);
          return { code: 201, message: `Coverage received: ${data.files} files (${data.format}).`, data };
        } finally {
          leave();
        }
      },
    });
  });
}
