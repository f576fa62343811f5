import type { SpanRow } from './repository.ts';

/**
 * Span rows in PostgreSQL's COPY text format (issue 36), the form the bulk write sends: one line a
 * row, columns in `SPAN_COPY_COLUMNS` order, separated by tabs, `\N` for null. Inside a value a
 * backslash, tab, newline and carriage return are written as `\\`, `\t`, `\n` and `\r`; nothing else
 * is special in this format (no quoting, and `\.` cannot appear since every backslash is doubled).
 * NUL cannot reach here: decoding replaced it (otlp-model.ts `cleanText`), as text and jsonb refuse it.
 */
export const SPAN_COPY_COLUMNS = [
  'app_id',
  'trace_id',
  'span_id',
  'parent_span_id',
  'name',
  'kind',
  'service',
  'app_version',
  'start_time',
  'start_ns',
  'duration_ns',
  'status_code',
  'status_message',
  'interface',
  'exception_type',
  'exception_message',
  'exception_stack',
  'code_function',
  'code_namespace',
  'code_file',
  'code_line',
  'test_case',
  'attributes',
  'resource',
  'events',
  'links',
] as const;

const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escapeOne = (c: string) => ESCAPES[c] as string;

/** One text value as COPY text reads it back exactly (most need nothing, and are returned as they are). */
export function copyText(value: string): string {
  return SPECIAL.test(value) ? value.replace(SPECIALS, escapeOne) : value;
}

const nullable = (value: string | null) => (value === null ? '\\N' : copyText(value));

let lastSecond = -1n;
let lastSecondIso = '';

/**
 * The start as a timestamptz literal with microseconds, truncated as the column keeps it
 * (`1970-01-01T00:00:00.000001Z`); a span starts after 1970 (intake refuses older than retention).
 * The date and time of day are worked out once per second (a batch's spans mostly share it).
 */
export function startTimeOf(startNs: bigint): string {
  const us = startNs / 1000n;
  const second = us / 1_000_000n;
  if (second !== lastSecond) {
    lastSecondIso = new Date(Number(second) * 1000).toISOString().slice(0, 19);
    lastSecond = second;
  }
  return `${lastSecondIso}.${(us % 1_000_000n).toString().padStart(6, '0')}Z`;
}

/** One row's line, newline included. */
export function copyLine(r: SpanRow): string {
  return `${r.appId}\t${r.traceId}\t${r.spanId}\t${r.parentSpanId ?? '\\N'}\t${copyText(r.name)}\t${r.kind}\t${copyText(
    r.service,
  )}\t${nullable(r.appVersion)}\t${startTimeOf(r.startNs)}\t${r.startNs}\t${r.durationNs}\t${r.statusCode}\t${copyText(
    r.statusMessage,
  )}\t${nullable(r.interface)}\t${nullable(r.exceptionType)}\t${nullable(r.exceptionMessage)}\t${nullable(
    r.exceptionStack,
  )}\t${nullable(r.codeFunction)}\t${nullable(r.codeNamespace)}\t${nullable(r.codeFile)}\t${
    r.codeLine ?? '\\N'
  }\t${nullable(r.testCase)}\t${copyText(r.attributes)}\t${copyText(r.resource)}\t${copyText(r.events)}\t${copyText(
    r.links,
  )}\n`;
}

/** The rows as one COPY text body. */
export function copyBody(rows: readonly SpanRow[]): string {
  let body = '';
  for (const r of rows) body += copyLine(r);
  return body;
}
