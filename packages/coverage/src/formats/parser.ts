import { DETECT_HEAD_BYTES, detectFormat, isGzip } from '../detect.ts';
import { CoverageError } from '../errors.ts';
import type { Coverage, FormatName } from '../model/coverage.ts';
import { FORMATS } from '../model/coverage.ts';
import { cloverParser } from './clover.ts';
import { coberturaParser } from './cobertura.ts';
import { coveragePyParser } from './coveragepy.ts';
import { goParser } from './go.ts';
import { istanbulParser } from './istanbul.ts';
import { jacocoParser } from './jacoco.ts';
import { lcovParser } from './lcov.ts';
import type { ByteParser, ByteParserOptions, TextParser } from './shared.ts';
import { Utf8Gate } from './utf8-gate.ts';

export type ParseOptions = {
  format?: FormatName | 'auto';
  /** Named in error messages. */
  fileName?: string;
  /** Bytes accepted before too-large; default 4 GiB. */
  maxBytes?: number;
  /**
   * Bytes held back to detect the format before parsing starts; default (and at most)
   * DETECT_HEAD_BYTES. Less lets tests split small reports into chunks the scanners really see.
   */
  detectBytes?: number;
  /**
   * Count lines for the positions of errors (default). False: XML errors give a byte offset into
   * the input instead (`CoverageError.offset`), for a caller that can read the input again and
   * saves a pass over every byte (see readCoverageFile).
   */
  countLines?: boolean;
};

export type CoverageParser = { write(chunk: Uint8Array): void; end(): Coverage };

export const DEFAULT_MAX_BYTES = 4 * 1024 ** 3;

/** Formats scanned as bytes (the large machine-written ones) and formats parsed from decoded text. */
const PARSERS: Record<FormatName, { bytes: (options: ByteParserOptions) => ByteParser } | { text: () => TextParser }> =
  {
    jacoco: { bytes: jacocoParser },
    lcov: { bytes: lcovParser },
    cobertura: { bytes: coberturaParser },
    istanbul: { text: istanbulParser },
    go: { text: goParser },
    coveragepy: { text: coveragePyParser },
    clover: { bytes: cloverParser },
  };

/** A byte parser behind a UTF-8 gate. */
function byteFeeder(parser: ByteParser, format: () => FormatName | null): FormatFeeder {
  const gate = new Utf8Gate((bytes) => parser.write(bytes), format);
  return { write: (chunk, final) => gate.write(chunk, final), end: () => parser.end() };
}

/** A text parser behind a UTF-8 gate: it is handed whole characters only, so nothing is decoded twice. */
function textFeeder(parser: TextParser, format: () => FormatName | null): FormatFeeder {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const gate = new Utf8Gate((bytes) => parser.write(decoder.decode(bytes)), format);
  return { write: (chunk, final) => gate.write(chunk, final), end: () => parser.end() };
}

type FormatFeeder = { write(chunk: Uint8Array, final: boolean): void; end(): Coverage };

/**
 * The streaming core: bytes in (any chunking), the normalised model out. With 'auto' it buffers
 * the first 16 KiB to detect the format by content; a forced format is checked against the
 * content too, so a mislabelled report fails with format-mismatch rather than parsing as garbage.
 */
export function createCoverageParser(format: FormatName | 'auto' = 'auto', options: ParseOptions = {}): CoverageParser {
  if (format !== 'auto' && !FORMATS.includes(format)) {
    throw new CoverageError('unknown-format', `unknown format "${String(format)}"`, { file: options.fileName });
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const detectBytes = Math.min(options.detectBytes ?? DETECT_HEAD_BYTES, DETECT_HEAD_BYTES);
  let head: Uint8Array[] = [];
  let headBytes = 0;
  let bytes = 0;
  let parser: FormatFeeder | null = null;
  let finished = false;

  const wrap = (error: unknown): never => {
    if (error instanceof CoverageError) throw error.withFile(options.fileName);
    throw error;
  };
  let chosen: FormatName | null = format === 'auto' ? null : format;

  function feed(chunk: Uint8Array, final: boolean): void {
    parser?.write(chunk, final);
  }

  function start(final: boolean): void {
    const all = concat(head, headBytes);
    head = [];
    if (isGzip(all)) {
      throw new CoverageError('unknown-format', 'the report is gzip-compressed; read it with @sextant/coverage/node', {
        file: options.fileName,
      });
    }
    const sniff = new TextDecoder('utf-8', { fatal: false }).decode(all.subarray(0, DETECT_HEAD_BYTES));
    if (sniff.trim() === '' && final)
      throw new CoverageError('empty-input', 'the report is empty', { file: options.fileName });
    let detected: FormatName;
    try {
      detected = detectFormat(sniff);
    } catch (error) {
      if (chosen && error instanceof CoverageError && error.code === 'unknown-format') {
        throw new CoverageError('format-mismatch', `the content is not ${chosen}`, {
          file: options.fileName,
          format: chosen,
        });
      }
      throw error;
    }
    if (chosen && !compatible(chosen, detected)) {
      throw new CoverageError('format-mismatch', `asked for ${chosen} but the content is ${detected}`, {
        file: options.fileName,
        format: chosen,
      });
    }
    chosen ??= detected;
    const entry = PARSERS[chosen];
    const formatOf = () => chosen;
    parser =
      'bytes' in entry
        ? byteFeeder(entry.bytes({ countLines: options.countLines }), formatOf)
        : textFeeder(entry.text(), formatOf);
    feed(all, final);
  }

  return {
    write(chunk) {
      if (finished) throw new CoverageError('parser-finished', 'write after end', { file: options.fileName });
      try {
        bytes += chunk.length;
        if (bytes > maxBytes) {
          throw new CoverageError('too-large', `the report is larger than ${maxBytes} bytes`, { format: chosen });
        }
        if (parser) return feed(chunk, false);
        head.push(chunk.slice());
        headBytes += chunk.length;
        if (headBytes >= detectBytes) start(false);
      } catch (error) {
        finished = true;
        wrap(error);
      }
    },
    end() {
      if (finished)
        throw new CoverageError('parser-finished', 'end called twice or after an error', { file: options.fileName });
      finished = true;
      try {
        if (!parser) start(true);
        else feed(new Uint8Array(0), true);
        const active = parser as FormatFeeder | null;
        if (!active) throw new CoverageError('empty-input', 'the report is empty');
        return active.end();
      } catch (error) {
        return wrap(error);
      }
    },
  };
}

/** Cobertura and Clover share the <coverage> root; detection tells them apart by content. */
function compatible(asked: FormatName, detected: FormatName): boolean {
  return asked === detected;
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const all = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return all;
}

/** Parses a whole report held in memory. */
export function parseCoverage(input: Uint8Array | string, options: ParseOptions = {}): Coverage {
  const parser = createCoverageParser(options.format ?? 'auto', options);
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const step = 1 << 20;
  for (let offset = 0; offset < bytes.length; offset += step) parser.write(bytes.subarray(offset, offset + step));
  return parser.end();
}
