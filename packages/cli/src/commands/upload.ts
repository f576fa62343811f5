import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { PATHS, type UploadResult, UploadResultSchema } from '@sextant/api';
import { baseDirOf, reportFoldersOf } from '../base-dir.ts';
import { post, type Server, ServerError, UploadFailed } from '../http.ts';
import { type CommandIo, UsageError } from '../usage.ts';
import { UPLOAD_USAGE } from './usages.ts';

export { baseDirOf, UPLOAD_USAGE, UploadFailed };

/** What the server files an upload under (UploadMetaSchema), in the CLI's words. */
export type UploadMeta = {
  app: string;
  commit: string;
  envType: string;
  testType: '1' | '2';
  caseId?: string;
  agentId?: string;
  format?: string;
  /** The repository folder the report was made in, as git names it from the top. */
  baseDir?: string;
};

async function isGzip(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await file.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await file.close();
  }
}

/** How often a busy server's 429 is waited out (its Retry-After, at most `MAX_WAIT_S` each) before giving up. */
const BUSY_RETRIES = 5;
const MAX_WAIT_S = 60;
const sleepSeconds = (seconds: number) => new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * Streams one file to the server, gzipped on the way unless it already is; never read whole into
 * memory. A server busy with other uploads answers 429 before reading the body: the file is sent
 * again after the wait it names.
 */
export async function uploadFile(
  server: Server,
  meta: UploadMeta,
  path: string,
  wait: (seconds: number) => Promise<void> = sleepSeconds,
): Promise<UploadResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await sendFile(server, meta, path);
    } catch (error) {
      if (!(error instanceof ServerError) || error.status !== 429 || error.retryAfterSeconds === null) throw error;
      if (attempt > BUSY_RETRIES) throw error;
      await wait(Math.min(error.retryAfterSeconds, MAX_WAIT_S));
    }
  }
}

async function sendFile(server: Server, meta: UploadMeta, path: string): Promise<UploadResult> {
  const gzipped = await isGzip(path);
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  const stream: Readable = gzipped ? file : file.pipe(createGzip());
  if (!gzipped) file.on('error', (error) => stream.destroy(error));
  return post(server, PATHS.uploads, { stream, contentType: 'application/gzip' }, UploadResultSchema, {
    ...meta,
  });
}

export function describeUpload(path: string, result: UploadResult): string {
  const unmapped = result.unmappedFiles.length;
  const tail =
    unmapped === 0
      ? ''
      : `, ${unmapped} unmapped (${result.unmappedFiles.slice(0, 3).join(', ')}${unmapped > 3 ? ', …' : ''})`;
  return `${path}: upload ${result.uploadId}, ${result.format}, ${result.files} files${tail}\n`;
}

/** The options both `upload` and `agent` take to reach the server. */
export function serverOf(values: { server?: string; token?: string }): Server {
  if (!values.server) throw new UsageError('--server URL is required');
  if (!/^https?:\/\//.test(values.server))
    throw new UsageError(`--server wants an http(s) URL, not "${values.server}"`);
  const token = values.token ?? process.env.SEXTANT_TOKEN;
  if (!token) throw new UsageError('--token T (or SEXTANT_TOKEN) is required');
  return { url: values.server, token };
}

export function testTypeOf(raw: string | undefined, fallback?: '1' | '2'): '1' | '2' {
  const value = raw ?? fallback;
  if (value !== '1' && value !== '2') throw new UsageError('--test-type is 1 (unit/dev) or 2 (functional/test)');
  return value;
}

function parseUploadArgs(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      app: { type: 'string' },
      commit: { type: 'string' },
      env: { type: 'string' },
      'test-type': { type: 'string' },
      case: { type: 'string' },
      'agent-id': { type: 'string' },
      format: { type: 'string' },
      'base-dir': { type: 'string' },
      classes: { type: 'string' },
    },
  });
  if (positionals.length === 0) throw new UsageError('no coverage file given');
  for (const required of ['app', 'commit', 'env'] as const) {
    if (!values[required]) throw new UsageError(`--${required} is required`);
  }
  const meta: UploadMeta = {
    app: values.app as string,
    commit: values.commit as string,
    envType: values.env as string,
    testType: testTypeOf(values['test-type']),
    ...(values.case ? { caseId: values.case } : {}),
    ...(values['agent-id'] ? { agentId: values['agent-id'] } : {}),
    ...(values.format ? { format: values.format } : {}),
  };
  return { server: serverOf(values), meta, baseDir: values['base-dir'], classes: values.classes, files: positionals };
}

/** Uploads each file in turn; the first refusal stops with its reason (exit 1). */
export async function uploadCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const { server, meta: given, baseDir, classes, files } = parseUploadArgs(argv);
  if (classes) {
    // JaCoCo exec files are turned into figures with these class files on the server (issue 38).
    const { ensureClassFiles } = await import('./agent-jacoco.ts');
    const list = await ensureClassFiles(server, given.app, given.commit, resolve(io.cwd, classes));
    io.stdout(`class files of ${given.commit}: ${list.classes} recorded\n`);
  }
  const folders = await reportFoldersOf(baseDir, io.cwd, files);
  for (const [i, file] of files.entries()) {
    const folder = folders[i] ?? null;
    const meta: UploadMeta = folder === null ? given : { ...given, baseDir: folder };
    try {
      io.stdout(describeUpload(file, await uploadFile(server, meta, resolve(io.cwd, file))));
    } catch (error) {
      throw new UploadFailed(file, error);
    }
  }
  return 0;
}
