import type { FormatName } from './model/coverage.ts';

export const COVERAGE_ERROR_CODES = [
  'unknown-format',
  'format-mismatch',
  'doctype-forbidden',
  'unexpected-eof',
  'malformed-xml',
  'malformed-json',
  'bad-attribute',
  'bad-number',
  'bad-record',
  'bad-path',
  'too-deep',
  'too-large',
  'not-utf8',
  'empty-input',
  'unreadable',
  'parser-finished',
  'incompatible-exec-data',
] as const;
export type CoverageErrorCode = (typeof COVERAGE_ERROR_CODES)[number];

export type CoverageErrorDetails = {
  format?: FormatName | null;
  file?: string | null;
  line?: number | null;
  column?: number | null;
  /** Byte offset into the input, given instead of line and column by a parser told not to count lines. */
  offset?: number | null;
};

/** Every bad-input failure of the engine: a stable code, the format, and the position. */
export class CoverageError extends Error {
  readonly code: CoverageErrorCode;
  readonly format: FormatName | null;
  readonly file: string | null;
  readonly line: number | null;
  readonly column: number | null;
  readonly offset: number | null;
  readonly reason: string;

  constructor(code: CoverageErrorCode, reason: string, details: CoverageErrorDetails = {}) {
    const file = details.file ?? null;
    const line = details.line ?? null;
    const column = details.column ?? null;
    const offset = details.offset ?? null;
    const position =
      line !== null ? `:${line}${column === null ? '' : `:${column}`}` : offset !== null ? ` at byte ${offset}` : '';
    const where = `${file ?? '<input>'}${position}`;
    super(`${where}: ${reason} (${code})`);
    this.name = 'CoverageError';
    this.code = code;
    this.reason = reason;
    this.format = details.format ?? null;
    this.file = file;
    this.line = line;
    this.column = column;
    this.offset = offset;
  }

  /** The same error with the file name filled in when the parser did not know it. */
  withFile(file: string | undefined): CoverageError {
    if (!file || this.file) return this;
    return new CoverageError(this.code, this.reason, {
      format: this.format,
      file,
      line: this.line,
      column: this.column,
      offset: this.offset,
    });
  }
}
