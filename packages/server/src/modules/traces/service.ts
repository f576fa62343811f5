import type { Settings } from '@sextant/api';
import { ApiError } from '../../errors.ts';
import { factsOf } from './normalise.ts';
import { type DecodedResourceSpans, type DecodedSpan, SPAN_LIMITS } from './otlp-model.ts';
import { dayOf, type SpanRow, type TracesRepository } from './repository.ts';
import { SPAN_WRITER_DEFAULTS, SpanWriter, type SpanWriterOptions } from './span-writer.ts';

export type IngestResult = { accepted: number; rejected: number; errorMessage: string };

const DAY_NS = 86_400_000_000_000n;
/** A span may start at most this far ahead of the server's clock (skewed hosts), else it is refused. */
const FUTURE_ALLOWANCE_NS = DAY_NS;
/** What a client refused for load is told to wait before sending again (OTLP: 429 + Retry-After). */
export const OTLP_RETRY_AFTER_SECONDS = 2;

/** Why a span is refused, or null when it is kept (OTLP: invalid spans count in rejected_spans). */
function refusal(span: DecodedSpan, oldestNs: bigint, newestNs: bigint): string | null {
  if (!span.traceId) return 'a trace id that is not 16 bytes, or all zeros';
  if (!span.spanId) return 'a span id that is not 8 bytes, or all zeros';
  if (span.parentSpanId !== null && !/^[0-9a-f]{16}$/.test(span.parentSpanId)) return 'a malformed parent span id';
  if (span.startNs < oldestNs) return 'a start older than the trace retention';
  if (span.startNs > newestNs) return 'a start more than a day in the future';
  if (Object.keys(span.attributes).length > SPAN_LIMITS.attributes) return 'too many attributes';
  if (span.events.length > SPAN_LIMITS.events || span.links.length > SPAN_LIMITS.links)
    return 'too many events or links';
  return null;
}

/** What every span of one resource shares, worked out once per resource rather than per span. */
type ResourceContext = {
  attributes: DecodedResourceSpans['resource'];
  json: string;
  service: string;
  version: string | null;
};

function resourceContext(resource: DecodedResourceSpans['resource']): ResourceContext {
  const service = resource['service.name'];
  const version = resource['service.version'];
  return {
    attributes: resource,
    json: JSON.stringify(resource),
    service: typeof service === 'string' && service ? service : 'unknown_service',
    version: typeof version === 'string' && version ? version : null,
  };
}

const bigintAsText = (_key: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v);

function rowOf(appId: string, span: DecodedSpan, resource: ResourceContext): SpanRow {
  return {
    appId,
    traceId: span.traceId as string,
    spanId: span.spanId as string,
    parentSpanId: span.parentSpanId,
    name: span.name || '(unknown)',
    kind: span.kind,
    service: resource.service,
    appVersion: resource.version,
    startNs: span.startNs,
    // end before start is "expected" not to happen, not forbidden: kept, as zero.
    durationNs: span.endNs > span.startNs ? span.endNs - span.startNs : 0n,
    statusCode: span.statusCode,
    statusMessage: span.statusMessage,
    ...factsOf(span, resource.attributes),
    attributes: JSON.stringify(span.attributes),
    resource: resource.json,
    // Most spans have neither: no serialiser call (and no replacer, which is slow) for them.
    events: span.events.length === 0 ? '[]' : JSON.stringify(span.events, bigintAsText),
    links: span.links.length === 0 ? '[]' : JSON.stringify(span.links),
  };
}

/** A test case named on one span of a trace (a baggage-carrying root) holds for its whole trace in the batch. */
function spreadTestCases(rows: SpanRow[]): void {
  const caseOfTrace = new Map<string, string>();
  for (const r of rows) if (r.testCase) caseOfTrace.set(r.traceId, r.testCase);
  for (const r of rows) r.testCase ??= caseOfTrace.get(r.traceId) ?? null;
}

/**
 * Trace intake (issue 36): refuses invalid spans one by one (partial success), writes the rest
 * before answering (nothing answered 200 is lost), joined with the rows of exports arriving at the
 * same time into one bulk statement (SpanWriter), and bounds the exports in progress: one more
 * answers 429 with Retry-After rather than queueing without limit.
 */
export class TracesService {
  private inProgress = 0;
  private lastRetention = 0;
  readonly writer: SpanWriter;

  constructor(
    private readonly repository: TracesRepository,
    private readonly settings: () => Promise<Settings>,
    private readonly capacity: number,
    private readonly now: () => number = Date.now,
    private readonly onRetentionError: (error: unknown) => void = () => {},
    writerOptions: SpanWriterOptions = SPAN_WRITER_DEFAULTS,
  ) {
    this.writer = new SpanWriter((rows) => repository.insertSpans(rows), writerOptions);
  }

  /** Takes a place for one export or throws 429; the returned function gives it back. */
  admit(): () => void {
    if (this.inProgress >= this.capacity) {
      throw new ApiError(
        429,
        'rate-limited',
        'Too many trace exports in progress; send again later.',
        undefined,
        OTLP_RETRY_AFTER_SECONDS,
      );
    }
    this.inProgress++;
    let left = false;
    return () => {
      if (!left) this.inProgress--;
      left = true;
    };
  }

  async ingest(appId: string, export_: DecodedResourceSpans[]): Promise<IngestResult> {
    const { traceRetentionDays } = await this.settings();
    const nowNs = BigInt(this.now()) * 1_000_000n;
    const oldestNs = nowNs - BigInt(traceRetentionDays) * DAY_NS;
    const rows: SpanRow[] = [];
    const reasons = new Map<string, number>();
    for (const resourceSpans of export_) {
      let resource: ResourceContext | null = null;
      for (const span of resourceSpans.spans) {
        const reason = refusal(span, oldestNs, nowNs + FUTURE_ALLOWANCE_NS);
        if (reason) {
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
          continue;
        }
        resource ??= resourceContext(resourceSpans.resource);
        rows.push(rowOf(appId, span, resource));
      }
    }
    spreadTestCases(rows);
    await this.writer.write(rows);
    await this.enforceRetentionHourly();
    const rejected = [...reasons.values()].reduce((a, b) => a + b, 0);
    const errorMessage = [...reasons].map(([reason, n]) => `${n} span(s) with ${reason}`).join('; ');
    return { accepted: rows.length, rejected, errorMessage };
  }

  /** Drops the day partitions wholly past `/system/traceManage`'s retention; returns the days dropped. */
  async enforceRetention(): Promise<string[]> {
    const { traceRetentionDays } = await this.settings();
    const nowNs = BigInt(this.now()) * 1_000_000n;
    // The oldest day kept is the one holding now − retention.
    return this.repository.dropDaysBefore(dayOf(nowNs - BigInt(traceRetentionDays) * DAY_NS));
  }

  /** At most hourly, after an export is stored: its failure is logged, never the export's (already written). */
  private async enforceRetentionHourly(): Promise<void> {
    if (this.now() - this.lastRetention < 3_600_000) return;
    this.lastRetention = this.now();
    try {
      await this.enforceRetention();
    } catch (error) {
      this.onRetentionError(error);
    }
  }
}
