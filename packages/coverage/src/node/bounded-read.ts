import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { CoverageError } from '../errors.ts';

export type Bounds = {
  /** At most this many bytes, after decompression. */
  maxBytes: number;
  /** A gzipped file may expand `ratio` times once it gives `fromBytes` (a gzip bomb stops there). */
  maxRatio?: { ratio: number; fromBytes: number };
};

/**
 * A whole file into memory, gunzipped when it starts with gzip's magic, never past its bounds:
 * for inputs that are read whole (JaCoCo execution data, archives of class files), not streamed.
 */
export async function readBoundedFile(path: string, bounds: Bounds): Promise<Buffer> {
  return boundedBytes(await readFile(path), bounds, path);
}

/** Bytes read whole (`file` names them in errors), gunzipped when they start with gzip's magic, within bounds. */
export function boundedBytes(raw: Buffer, bounds: Bounds, file: string): Buffer {
  const tooLarge = (reason: string) => new CoverageError('too-large', reason, { file });
  if (raw.length < 2 || raw[0] !== 0x1f || raw[1] !== 0x8b) {
    if (raw.length > bounds.maxBytes) throw tooLarge(`it holds more than ${bounds.maxBytes} bytes`);
    return raw;
  }
  const { ratio, fromBytes } = bounds.maxRatio ?? { ratio: Number.POSITIVE_INFINITY, fromBytes: 0 };
  const byRatio = Math.max(fromBytes, ratio * raw.length);
  const limit = Math.min(bounds.maxBytes, byRatio);
  try {
    return gunzipSync(raw, { maxOutputLength: Math.max(1, Math.floor(limit)) });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') {
      throw new CoverageError('bad-record', `it does not gunzip (${(error as Error).message})`, { file });
    }
    if (byRatio < bounds.maxBytes) throw tooLarge(`it expands more than ${ratio} times when gunzipped`);
    throw tooLarge(`it holds more than ${bounds.maxBytes} bytes once gunzipped`);
  }
}
