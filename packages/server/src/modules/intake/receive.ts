import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';

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

/** How long a refused upload's rest is read and dropped after the answer, before the connection is closed. */
export const REFUSED_BODY_LINGER_MS = 2000;

/**
 * After an early refusal (401, 413, a bad field) the rest of the body is read and dropped, and the
 * connection closed only if the body has not ended `REFUSED_BODY_LINGER_MS` after the answer
 * (RFC 9112 section 9.6: close only the write side, keep reading). Closing at once while the client
 * still sends makes the server's side reset the connection: the client's next write fails with
 * EPIPE, its HTTP stack drops the answer that had already arrived, and `sextant upload` said
 * "cannot reach the server (EPIPE)" instead of the 401 (under load, when its gzip lagged behind).
 */
export function lingerAfterRefusal(req: IncomingMessage, res: ServerResponse): void {
  // A half-read multipart body is piped to its parser, which may be paused: unpipe, then drop the
  // rest. A raw body whose copy failed is destroyed and left its socket paused: resume that too.
  req.unpipe();
  req.resume();
  // An injected request (light-my-request) has no connection to linger on.
  const socket = res.socket;
  if (!(socket instanceof Socket)) return;
  socket.resume();
  let timer: NodeJS.Timeout | undefined;
  const settled = () => clearTimeout(timer);
  req.once('end', settled);
  socket.once('close', settled);
  res.once('finish', () => {
    if (req.complete || socket.destroyed) return;
    timer = setTimeout(() => socket.destroy(), REFUSED_BODY_LINGER_MS).unref();
  });
}
