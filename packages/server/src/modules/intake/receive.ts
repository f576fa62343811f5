import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../plugins/errors.ts';

/** A multipart body carries boundaries and the metadata fields beside the file. */
export const MULTIPART_ALLOWANCE_BYTES = 64 * 1024;

/** A coverage file on disk under the app's uploads directory, not yet parsed nor recorded. */
export type ReceivedFile = { path: string; sizeBytes: number; gzip: boolean };

function tooLarge(limit: number): ApiError {
  return new ApiError(413, 'payload-too-large', `A coverage upload may hold at most ${limit} bytes.`);
}

/** Refuses before reading a byte when the declared length already exceeds the limit. */
export function refuseDeclaredOversize(req: FastifyRequest, limit: number, multipart: boolean): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit + (multipart ? MULTIPART_ALLOWANCE_BYTES : 0)) {
    throw tooLarge(limit);
  }
}

/**
 * Streams a body to a new file in `dir`, counting bytes: past `limit` the copy stops (413) and the
 * partial file is removed, so a chunked body that never declared its length cannot fill the disk.
 */
export async function receiveToFile(source: Readable, dir: string, limit: number): Promise<ReceivedFile> {
  await mkdir(dir, { recursive: true });
  // A dot-name marks a file no upload row points at yet.
  const path = join(dir, `.incoming-${randomUUID()}`);
  let sizeBytes = 0;
  const head: number[] = [];
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sizeBytes += chunk.length;
      if (sizeBytes > limit) return callback(tooLarge(limit));
      for (let i = 0; head.length < 2 && i < chunk.length; i++) head.push(chunk[i] as number);
      callback(null, chunk);
    },
  });
  const sink = createWriteStream(path, { flags: 'wx' });
  try {
    await pipeline(source, counter, sink);
  } catch (error) {
    // Removed only once the file's stream has closed: one still opening would create it again.
    if (!sink.closed) await once(sink, 'close').catch(() => undefined);
    await rm(path, { force: true });
    if (error instanceof ApiError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(limit);
    if (code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET') {
      throw new ApiError(400, 'bad-request', 'The upload ended before its end.');
    }
    throw error;
  }
  return { path, sizeBytes, gzip: head[0] === 0x1f && head[1] === 0x8b };
}
