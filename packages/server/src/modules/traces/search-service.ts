import {
  SPAN_KINDS,
  SPAN_STATUS_CODES,
  type TraceDetail,
  type TraceSearchQuery,
  type TraceSpan,
  type TraceSummary,
} from '@sextant/api';
import { ApiError } from '../../errors.ts';
import type { CodeLinks, CoverageLink, SpanCode } from './code-links.ts';
import { SearchTooWide, type SpanDetailRow, type TraceReads } from './reads.ts';

const DAY_MS = 86_400_000;
/** The widest search: past it a query would scan every day partition at once. */
const MAX_RANGE_DAYS = 31;

const isoOfNs = (ns: string) => {
  const big = BigInt(ns);
  const iso = new Date(Number(big / 1_000_000n)).toISOString();
  return `${iso.slice(0, 23)}${(big % 1_000_000n).toString().padStart(6, '0')}Z`;
};

const codeOf = (r: SpanDetailRow): SpanCode => ({
  function: r.code_function,
  namespace: r.code_namespace,
  file: r.code_file,
  version: r.app_version,
});

function spanOf(r: SpanDetailRow, coverage: CoverageLink | null): TraceSpan {
  const hasException = r.exception_type !== null || r.exception_message !== null || r.exception_stack !== null;
  const hasCode = r.code_function !== null || r.code_file !== null;
  return {
    spanId: r.span_id,
    parentSpanId: r.parent_span_id,
    name: r.name,
    kind: SPAN_KINDS[r.kind] ?? 'unspecified',
    service: r.service,
    appVersion: r.app_version,
    startNs: r.start_ns,
    durationNs: r.duration_ns,
    status: SPAN_STATUS_CODES[r.status_code] ?? 'unset',
    statusMessage: r.status_message,
    interface: r.interface,
    exception: hasException ? { type: r.exception_type, message: r.exception_message, stack: r.exception_stack } : null,
    code: hasCode ? { function: r.code_function, file: r.code_file, line: r.code_line, coverage } : null,
    testCase: r.test_case,
    attributes: r.attributes,
    resource: r.resource,
    events: r.events,
    links: r.links,
  };
}

/** Trace search and the trace detail (`/otel/otel`, issue 36). */
export class TraceSearchService {
  constructor(
    private readonly reads: TraceReads,
    private readonly codeLinks: CodeLinks,
    private readonly now: () => number = Date.now,
  ) {}

  async search(query: TraceSearchQuery): Promise<TraceSummary[]> {
    const to = query.to ? new Date(query.to) : new Date(this.now());
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - DAY_MS);
    const fields: Record<string, string> = {};
    if (from >= to) fields.from = 'The start of the range must be before its end.';
    if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS)
      fields.from = `Search at most ${MAX_RANGE_DAYS} days at once.`;
    if (
      query.minDurationMs !== undefined &&
      query.maxDurationMs !== undefined &&
      query.minDurationMs > query.maxDurationMs
    ) {
      fields.minDurationMs = 'The shortest duration must not pass the longest.';
    }
    if (Object.keys(fields).length > 0) throw new ApiError(400, 'validation-failed', 'The search is invalid.', fields);
    const rows = await this.reads.search({ ...query, from, to }).catch((error: unknown) => {
      if (!(error instanceof SearchTooWide)) throw error;
      throw new ApiError(400, 'validation-failed', 'The search is too wide.', {
        from:
          `A service or longest-duration filter reads the window's spans one by one, and ${error.cap} of them ` +
          'did not give a full page: narrow the time range, or add an interface, status=error, test case or attribute filter.',
      });
    });
    return rows.map((r) => ({
      traceId: r.trace_id,
      rootName: r.root_name,
      rootService: r.root_service,
      interface: r.interface,
      start: isoOfNs(r.start_ns),
      durationMs: Number(BigInt(r.duration_ns)) / 1e6,
      spanCount: Number(r.span_count),
      errorCount: Number(r.error_count),
      testCase: r.test_case,
      appVersion: r.app_version,
    }));
  }

  async detail(appId: string, traceId: string): Promise<TraceDetail> {
    const spans = await this.reads.spansOf(appId, traceId);
    if (spans.length === 0) throw new ApiError(404, 'not-found', 'No such trace in this app (it may have aged out).');
    const links = await this.codeLinks.linksOf(appId, spans.map(codeOf));
    return { traceId, spans: spans.map((s) => spanOf(s, this.codeLinks.link(links, codeOf(s)))) };
  }
}
