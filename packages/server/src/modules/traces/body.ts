import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { refuseDeclaredOversize } from '../intake/receive.ts';

function tooLarge(limit: number): ApiError {
  return new ApiError(413, 'payload-too-large', `A trace export may hold at most ${limit} bytes, decompressed.`);
}

/** Counts bytes through it and fails with 413 past `limit`. */
function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      callback(seen > limit ? tooLarge(limit) : null, chunk);
    },
  });
}

/**
 * The export's bytes, gunzipped when `Content-Encoding: gzip`. OTLP requires the limit to hold
 * after decompression (a small gzip may expand without bound): the count is taken on both sides,
 * and the copy stops at the first byte past it, so a bomb is never held in memory whole.
 */
export async function readExportBody(req: FastifyRequest, limit: number): Promise<Buffer> {
  refuseDeclaredOversize(req, limit, false);
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'identity') {
    throw new ApiError(
      415,
      'bad-request',
      `Content-Encoding ${JSON.stringify(encoding)} is not supported; send gzip or none.`,
    );
  }
  const source = req.body instanceof Readable ? req.body : Readable.from([]);
  try {
    if (encoding === 'identity') return await readAll(source, limit);
    const chunks: Buffer[] = [];
    const sink = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    await pipeline(source, byteLimit(limit), createGunzip(), byteLimit(limit), sink);
    return Buffer.concat(chunks);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('Z_') || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET') {
      throw new ApiError(400, 'bad-request', `The body is not valid gzip or ended early (${code}).`);
    }
    throw error;
  }
}

/** An uncompressed body read straight from the request (no stream pipeline per export), 413 past `limit`. */
async function readAll(source: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let seen = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    seen += chunk.length;
    if (seen > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  // A request aborted mid-body ends the iteration early without an error: the bytes are not all there.
  if ((source as { aborted?: boolean }).aborted || (source as { complete?: boolean }).complete === false) {
    throw new ApiError(400, 'bad-request', 'The body ended early.');
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, seen);
}
