import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  ClassFilesQuerySchema,
  ClassFilesResultSchema,
  ClassSetRequestSchema,
  ClassSetResultSchema,
  envelopeSchema,
  PATHS,
} from '@sextant/api';
import { CoverageError } from '@sextant/coverage';
import { ClassArchiveError, type ClassFile, readBoundedFile, readClassArchive } from '@sextant/coverage/node';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiError } from '../../errors.ts';
import { type ReportConfig, uploadsDir } from '../../lib/data-paths.ts';
import type { ClassFiles } from './class-files.ts';
import type { IntakeCredentials } from './credentials.ts';
import { lingerAfterRefusal, receiveToFile, refuseDeclaredOversize } from './receive.ts';
import type { UploadAdmission } from './upload-admission.ts';

/** A class list of 200,000 names and hashes is about 30 MB of JSON. */
const CLASS_SET_BODY_LIMIT = 64 * 1024 * 1024;
/** A class file larger than this is not one javac wrote (the JVM's own limits keep them far smaller). */
const MAX_CLASS_BYTES = 16 * 1024 * 1024;
const MAX_ENTRIES = 200_000;
/** A gzipped archive may expand freely up to this size; past it, at most `uploadMaxRatio` times. */
const RATIO_CHECKED_FROM_BYTES = 8 * 1024 * 1024;

type Deps = {
  credentials: IntakeCredentials;
  store: ClassFiles;
  admission: UploadAdmission;
  config: ReportConfig;
};

function archiveRefusal(error: unknown): unknown {
  if (error instanceof ClassArchiveError) {
    const status = error.problem === 'too-large' ? 413 : 400;
    return new ApiError(
      status,
      status === 413 ? 'payload-too-large' : 'bad-request',
      `Class files refused: ${error.message}.`,
    );
  }
  if (error instanceof CoverageError && error.code === 'too-large') {
    return new ApiError(413, 'payload-too-large', `Class files refused: ${error.reason}.`);
  }
  if (error instanceof CoverageError) return new ApiError(400, 'bad-request', `Class files refused: ${error.reason}.`);
  return error;
}

/**
 * Issue 38: the class files JaCoCo's report needs, sent once per build by `sextant agent --jacoco`.
 * Both routes are declared public and call `credentials.identify` first, as the upload does.
 */
export function registerClassFileRoutes(app: FastifyInstance, deps: Deps): void {
  const tags = ['coverage'];
  app.withTypeProvider<ZodTypeProvider>().post(PATHS.classSets, {
    config: { access: 'public' },
    bodyLimit: CLASS_SET_BODY_LIMIT,
    schema: {
      tags,
      description:
        "Records the class files (JVM name and sha256) of a commit's build, once every content is stored; " +
        'answers the contents still missing otherwise (send them to class-files, then this again). Same ' +
        'credentials as an upload.',
      body: ClassSetRequestSchema,
      response: { 200: envelopeSchema(ClassSetResultSchema) },
    },
    handler: async (req) => {
      const sender = await deps.credentials.identify(req);
      const target = await deps.credentials.appFor(sender, req.body.app);
      const data = await deps.store.record(target.id, req.body);
      const message = data.recorded
        ? `Class list recorded: ${data.classes} classes.`
        : `${data.missing.length} class file(s) to send first.`;
      return { code: 200, message, data };
    },
  });

  const limit = deps.config.uploadLimitBytes;
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.withTypeProvider<ZodTypeProvider>().post(PATHS.classFiles, {
      config: { access: 'public' },
      schema: {
        tags,
        description:
          'Stores class files by content: the body is a zip (a jar) or a tar of .class files, gzipped or not. ' +
          'Entries leaving the archive (.., absolute paths, links) are refused (400); past the upload limit, ' +
          `${MAX_ENTRIES} entries or ${MAX_CLASS_BYTES} bytes a class, or expanding more than the upload ratio (413).`,
        querystring: ClassFilesQuerySchema,
        response: { 201: envelopeSchema(ClassFilesResultSchema) },
      },
      handler: async (req, reply) => {
        let leave = () => {};
        let path: string | null = null;
        try {
          refuseDeclaredOversize(req, limit, false);
          const sender = await deps.credentials.identify(req);
          const target = await deps.credentials.appFor(sender, req.query.app);
          leave = deps.admission.enter();
          const body = req.body instanceof Readable ? req.body : Readable.from([]);
          path = (await receiveToFile(body, uploadsDir(deps.config.dataDir, target.id), limit)).path;
          let files: ClassFile[];
          try {
            const bytes = await readBoundedFile(path, {
              maxBytes: limit,
              maxRatio: { ratio: deps.config.uploadMaxRatio, fromBytes: RATIO_CHECKED_FROM_BYTES },
            });
            files = readClassArchive(bytes, {
              maxEntries: MAX_ENTRIES,
              maxEntryBytes: MAX_CLASS_BYTES,
              maxTotalBytes: limit,
            });
          } catch (error) {
            throw archiveRefusal(error);
          }
          const data = await deps.store.store(target.id, files);
          reply.code(201);
          return { code: 201, message: `Class files: ${data.stored} stored, ${data.known} already known.`, data };
        } catch (error) {
          if (error instanceof ApiError && error.status === 429) reply.header('retry-after', 10);
          if (!req.raw.complete) lingerAfterRefusal(req.raw, reply.raw);
          throw error;
        } finally {
          leave();
          if (path) await rm(path, { force: true });
        }
      },
    });
  });
}
