import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Gunzip } from 'node:zlib';
import { CoverageError } from '../errors.ts';
import { createCoverageParser, DEFAULT_MAX_BYTES, type ParseOptions } from '../formats/parser.ts';
import type { Coverage } from '../model/coverage.ts';
import { loadCompiledLineReader } from './compiled.ts';

export type ReadOptions = ParseOptions & {
  /** Bound on the decompressed size of a gzipped report (default 4 GiB). */
  maxDecompressedBytes?: number;
  /**
   * Bound on how many times a gzipped report may expand, checked as it is decompressed once it has
   * given `fromBytes`: a gzip bomb is refused long before its full size (real reports expand 5–20 times).
   */
  maxCompressionRatio?: { ratio: number; fromBytes: number };
};

const CHUNK_BYTES = 1 << 20;

/** What a report path that cannot be opened or read is, by the system's error code. */
const UNREADABLE: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
};

/**
 * Reads a report file in chunks; gzip is recognised by its magic bytes, not the name. A plain
 * file is read into two buffers in turn, the next chunk read while this one is parsed (the
 * parsers keep nothing of a chunk): a stream's fresh buffer per chunk costs more garbage
 * collections than it takes to parse a machine-written report.
 */
export async function readCoverageFile(path: string, options: ReadOptions = {}): Promise<Coverage> {
  const named = { fileName: path, ...options };
  let file: FileHandle | null = null;
  let gzipped = false;
  try {
    file = await open(path, 'r');
    const buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)] as const;
    let { bytesRead } = await file.read(buffers[0], 0, CHUNK_BYTES, 0);
    gzipped = bytesRead >= 2 && buffers[0][0] === 0x1f && buffers[0][1] === 0x8b;
    if (gzipped) {
      return await readCoverageStream(
        file.createReadStream({ start: 0, highWaterMark: CHUNK_BYTES, autoClose: false }),
        named,
      );
    }
    const maxBytes = options.maxDecompressedBytes ?? options.maxBytes;
    loadCompiledLineReader();
    const parser = createCoverageParser(options.format ?? 'auto', { ...named, maxBytes, countLines: false });
    for (let current = 0, at = 0; bytesRead > 0; current ^= 1) {
      const chunk = buffers[current as 0 | 1].subarray(0, bytesRead);
      at += bytesRead;
      const next = file.read(buffers[(current ^ 1) as 0 | 1], 0, CHUNK_BYTES, at);
      try {
        parser.write(chunk);
      } catch (error) {
        await next.catch(() => undefined);
        throw error;
      }
      ({ bytesRead } = await next);
    }
    return parser.end();
  } catch (error) {
    if (error instanceof CoverageError) {
      if (error.offset === null || error.line !== null || !file) throw error;
      throw await withLineAndColumn(error, path, gzipped);
    }
    const why = UNREADABLE[(error as NodeJS.ErrnoException).code ?? ''];
    if (why) throw new CoverageError('unreadable', `cannot read the report: ${why}`, { file: path });
    throw error;
  } finally {
    await file?.close();
  }
}

/**
 * The error at the line and column of its byte offset, the report read again (gunzipped when it
 * was gzipped). The offset counts from after a byte order mark, as the parser saw the input;
 * columns count bytes.
 */
async function withLineAndColumn(error: CoverageError, path: string, gzipped: boolean): Promise<CoverageError> {
  const file = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  let input: AsyncIterable<Buffer> = file;
  if (gzipped) {
    const { createGunzip } = await import('node:zlib');
    input = file.pipe(createGunzip());
  }
  let line = 1;
  let lineStart = 0;
  let end = Number.POSITIVE_INFINITY;
  let at = 0;
  try {
    for await (const chunk of input) {
      if (at === 0) {
        const bom = chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
        end = bom + (error.offset as number);
        lineStart = bom;
      }
      const stop = Math.min(chunk.length, end - at);
      for (let nl = chunk.indexOf(10); nl !== -1 && nl < stop; nl = chunk.indexOf(10, nl + 1)) {
        line++;
        lineStart = at + nl + 1;
      }
      at += chunk.length;
      if (at >= end) break;
    }
  } catch {
    return error;
  } finally {
    file.destroy();
  }
  const { code, reason, format } = error;
  return new CoverageError(code, reason, { format, file: error.file, line, column: end - lineStart + 1 });
}

/** Resolves once `input` takes writes again, or is destroyed (a refused report never drains). */
function drainedOrClosed(input: Gunzip): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      input.off('drain', done);
      input.off('close', done);
      resolve();
    };
    input.on('drain', done);
    input.on('close', done);
  });
}

/** Parses a byte stream; the first bytes decide whether it is gunzipped first. */
export async function readCoverageStream(readable: Readable, options: ReadOptions = {}): Promise<Coverage> {
  const limit = options.maxDecompressedBytes ?? options.maxBytes ?? DEFAULT_MAX_BYTES;
  loadCompiledLineReader();
  const parser = createCoverageParser(options.format ?? 'auto', { ...options, maxBytes: Number.POSITIVE_INFINITY });
  let gunzip: Gunzip | null = null;
  let bytes = 0;
  const tooLarge = () =>
    new CoverageError('too-large', `the report is larger than ${limit} bytes${gunzip ? ' when decompressed' : ''}`, {
      file: options.fileName,
    });

  const ratio = options.maxCompressionRatio;
  const overRatio = (input: Gunzip) =>
    ratio !== undefined && bytes > ratio.fromBytes && bytes > ratio.ratio * input.bytesWritten;
  const tooExpanded = () =>
    new CoverageError('too-large', `it expands more than ${ratio?.ratio} times when decompressed`, {
      file: options.fileName,
    });

  const consume = async (source: AsyncIterable<Buffer | Uint8Array>) => {
    for await (const chunk of source) {
      bytes += chunk.length;
      if (bytes > limit) throw tooLarge();
      if (gunzip && overRatio(gunzip)) throw tooExpanded();
      parser.write(chunk);
    }
  };

  const iterator = readable[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  if (first.done) return parser.end();
  const head: Buffer = first.value;
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    // Loaded only for a gzipped report: most are plain, and it costs every run a few ms to load.
    const { createGunzip } = await import('node:zlib');
    gunzip = createGunzip({ chunkSize: 1 << 20 });
    const input = gunzip;
    const pump = (async () => {
      try {
        input.write(head);
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
          if (!input.write(next.value)) await drainedOrClosed(input);
          if (input.destroyed) return;
        }
        input.end();
      } catch (error) {
        input.destroy(error as Error);
      }
    })();
    try {
      await consume(input);
    } catch (error) {
      input.destroy();
      await pump.catch(() => undefined);
      if (error instanceof CoverageError) throw error;
      throw new CoverageError('unexpected-eof', `gzip data is corrupt or truncated (${(error as Error).message})`, {
        file: options.fileName,
      });
    }
    await pump;
  } else {
    bytes += head.length;
    if (bytes > limit) throw tooLarge();
    parser.write(head);
    await consume({ [Symbol.asyncIterator]: () => iterator });
  }
  return parser.end();
}
