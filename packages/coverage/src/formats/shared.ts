import { CoverageError, type CoverageErrorCode } from '../errors.ts';
import type { FormatName, LineCoverage } from '../model/coverage.ts';

/** Counts above this are refused as absurd: no test run executes a line 2^53 times. */
export const MAX_COUNT = Number.MAX_SAFE_INTEGER;
export const MAX_LINE = 2 ** 31 - 1;

export type Position = { file?: string | null; line?: number | null; column?: number | null };

export function fail(format: FormatName, code: CoverageErrorCode, reason: string, at: Position = {}): never {
  throw new CoverageError(code, reason, { format, ...at });
}

/** A non-negative safe integer from report text, or a bad-number error. */
export function count(format: FormatName, raw: string | undefined, what: string, at: Position = {}): number {
  if (raw === undefined) fail(format, 'bad-attribute', `missing ${what}`, at);
  const value = raw.length > 0 && raw.length <= 16 && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value))
    fail(format, 'bad-number', `${what} "${raw.slice(0, 40)}" is not a non-negative integer`, at);
  return value;
}

export function lineNumber(format: FormatName, raw: string | undefined, what: string, at: Position = {}): number {
  const value = count(format, raw, what, at);
  if (value < 1 || value > MAX_LINE) fail(format, 'bad-number', `${what} ${value} is not a valid line number`, at);
  return value;
}

export function newLine(line: number, hits: number): LineCoverage {
  return { line, hits, branchesCovered: 0, branchesTotal: 0, instructionsCovered: null, instructionsMissed: null };
}

/** Names repeat across a report: keep one flat copy of each, never a slice pinning a parse buffer. */
export class Interner {
  private readonly names = new Map<string, string>();
  get(name: string): string {
    let interned = this.names.get(name);
    if (interned === undefined) {
      interned = ` ${name}`.slice(1);
      this.names.set(interned, interned);
    }
    return interned;
  }
}

export function sortedLines(byLine: Map<number, LineCoverage>): LineCoverage[] {
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}

/** Languages by file extension (lower case). A Map: an object's keys would also find `constructor`. */
const LANGUAGES = new Map<string, string>([
  ['java', 'java'],
  ['kt', 'kotlin'],
  ['kts', 'kotlin'],
  ['scala', 'scala'],
  ['groovy', 'groovy'],
  ['js', 'javascript'],
  ['mjs', 'javascript'],
  ['cjs', 'javascript'],
  ['jsx', 'javascript'],
  ['ts', 'typescript'],
  ['mts', 'typescript'],
  ['cts', 'typescript'],
  ['tsx', 'tsx'],
  ['py', 'python'],
  ['go', 'go'],
  ['c', 'c'],
  ['h', 'c'],
  ['cc', 'cpp'],
  ['cpp', 'cpp'],
  ['cxx', 'cpp'],
  ['hpp', 'cpp'],
  ['hh', 'cpp'],
  ['cs', 'csharp'],
  ['rb', 'ruby'],
  ['php', 'php'],
  ['rs', 'rust'],
  ['swift', 'swift'],
]);

/** Asked once per file of a report (tens of thousands): a last-dot lookup, not a regular expression. */
export function languageOf(path: string): string | null {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? null : (LANGUAGES.get(path.slice(dot + 1).toLowerCase()) ?? null);
}

export interface ByteParserOptions {
  /** Count lines for errors' positions (default); false gives byte offsets instead (see XmlScanner.countLines). */
  countLines?: boolean;
}

/** A format parser that scans UTF-8 bytes itself (validated and BOM-stripped before it sees them). */
export interface ByteParser {
  write(bytes: Uint8Array): void;
  end(): import('../model/coverage.ts').Coverage;
}

/** A format parser consumes decoded text in chunks and yields the model at the end. */
export interface TextParser {
  write(text: string): void;
  end(): import('../model/coverage.ts').Coverage;
}
