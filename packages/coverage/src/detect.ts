import { CoverageError } from './errors.ts';
import type { FormatName } from './model/coverage.ts';

/** How many leading bytes detection looks at; the streaming parser buffers this much before choosing. */
export const DETECT_HEAD_BYTES = 16384;

const GZIP_MAGIC = [0x1f, 0x8b];

export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

function headText(head: Uint8Array | string): string {
  if (typeof head === 'string') return head.slice(0, DETECT_HEAD_BYTES);
  if (isGzip(head)) {
    throw new CoverageError('unknown-format', 'input is gzip-compressed; decompress it first (the node reader does)');
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, DETECT_HEAD_BYTES));
}

/** The format of a report, judged by its content alone (never by its file name). */
export function detectFormat(head: Uint8Array | string): FormatName {
  const text = headText(head).replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();
  if (trimmed === '') throw new CoverageError('empty-input', 'the report is empty');
  if (trimmed.startsWith('<')) return detectXml(trimmed);
  if (trimmed.startsWith('{')) return detectJson(trimmed);
  if (/^mode:\s*(set|count|atomic)\s*(\r?\n|$)/.test(trimmed)) return 'go';
  if (/^(TN|SF|VER):/m.test(trimmed.slice(0, 4096)) && /^(TN|SF|VER):/.test(trimmed)) return 'lcov';
  throw new CoverageError('unknown-format', 'not a coverage format this engine reads');
}

function detectXml(text: string): FormatName {
  if (/<!DOCTYPE\s+report\s+PUBLIC\s+"-\/\/JACOCO/i.test(text) || /<report[\s>]/.test(text)) {
    if (/<report[\s>]/.test(text) || /JACOCO/i.test(text)) return 'jacoco';
  }
  const root = /<([A-Za-z_][\w.-]*)[\s>/]/.exec(text.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g, ''));
  const name = root?.[1];
  if (name === 'report') return 'jacoco';
  if (name === 'coverage') {
    if (/<project[\s>]/.test(text) || /clover=/.test(text)) return 'clover';
    return 'cobertura';
  }
  throw new CoverageError('unknown-format', `XML with root element <${name ?? '?'}> is not a known coverage format`);
}

function detectJson(text: string): FormatName {
  if (/"meta"\s*:\s*\{[^}]*"format"\s*:/.test(text) || /"executed_lines"\s*:/.test(text)) return 'coveragepy';
  if (/"statementMap"\s*:/.test(text) || /"fnMap"\s*:/.test(text) || /"branchMap"\s*:/.test(text)) return 'istanbul';
  throw new CoverageError('unknown-format', 'JSON that is neither Istanbul coverage-final.json nor coverage.py JSON');
}
