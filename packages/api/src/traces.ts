import { z } from 'zod';
import { VIEWER_PATHS } from './paths.ts';

/** The two encodings of OTLP/HTTP, told apart by the request's media type. */
export const OTLP_MEDIA_TYPES = { protobuf: 'application/x-protobuf', json: 'application/json' } as const;

/** OTLP span kinds and status codes, as their enum numbers travel. */
export const SPAN_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;
export const SPAN_STATUS_CODES = ['unset', 'ok', 'error'] as const;

/** The JSON answer to an export: empty when every span was kept, else how many were refused and why. */
export const OtlpExportResponseSchema = z.object({
  partialSuccess: z.object({ rejectedSpans: z.string(), errorMessage: z.string() }).optional(),
});
export type OtlpExportResponse = z.infer<typeof OtlpExportResponseSchema>;

const HexId = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`), `${bytes * 2} hex digits`);
const IsoTime = z.iso.datetime({ offset: true });

/**
 * Trace search (`/otel/otel`): one app, a time range (default the last 24 hours), and any of service,
 * interface, status, the trace's duration range in ms, one attribute `key=value`, a test case.
 */
export const TraceSearchQuerySchema = z.object({
  appId: z.uuid(),
  from: IsoTime.optional(),
  to: IsoTime.optional(),
  service: z.string().min(1).max(200).optional(),
  interface: z.string().min(1).max(500).optional(),
  status: z.enum(['ok', 'error']).optional(),
  minDurationMs: z.coerce.number().min(0).optional(),
  maxDurationMs: z.coerce.number().min(0).optional(),
  attribute: z
    .string()
    // Not `=.*$`: `.` stops at line separators (U+2028, U+2029), which a value may hold.
    .regex(/^[^=]+=/, 'key=value')
    .max(500)
    .optional(),
  testCase: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type TraceSearchQuery = z.infer<typeof TraceSearchQuerySchema>;

/** One found trace: its root span's name, service and interface, its whole duration, spans and errors. */
export const TraceSummarySchema = z.object({
  traceId: z.string(),
  rootName: z.string(),
  rootService: z.string(),
  interface: z.string().nullable(),
  start: z.string(),
  durationMs: z.number(),
  spanCount: z.number().int(),
  errorCount: z.number().int(),
  testCase: z.string().nullable(),
  appVersion: z.string().nullable(),
});
export type TraceSummary = z.infer<typeof TraceSummarySchema>;
export const TraceSearchResultSchema = z.object({ items: z.array(TraceSummarySchema) });

export const TraceParamsSchema = z.object({ traceId: HexId(16) });
export const TraceQuerySchema = z.object({ appId: z.uuid() });

const AttributesSchema = z.record(z.string(), z.unknown());

/** A stored span, for the trace detail (waterfall, attributes, events, links, exception). */
export const TraceSpanSchema = z.object({
  spanId: z.string(),
  parentSpanId: z.string().nullable(),
  name: z.string(),
  kind: z.enum(SPAN_KINDS),
  service: z.string(),
  appVersion: z.string().nullable(),
  /** Nanoseconds since the epoch, as decimal text (past 2^53). */
  startNs: z.string(),
  durationNs: z.string(),
  status: z.enum(SPAN_STATUS_CODES),
  statusMessage: z.string(),
  interface: z.string().nullable(),
  exception: z
    .object({ type: z.string().nullable(), message: z.string().nullable(), stack: z.string().nullable() })
    .nullable(),
  code: z
    .object({
      function: z.string().nullable(),
      file: z.string().nullable(),
      line: z.number().int().nullable(),
      /** The method in the newest report (of the span's version first) that knows it: `/codecoverage/{reportId}`. */
      coverage: z
        .object({ reportId: z.string(), filePath: z.string().nullable(), line: z.number().int().nullable() })
        .nullable(),
    })
    .nullable(),
  testCase: z.string().nullable(),
  attributes: AttributesSchema,
  resource: AttributesSchema,
  events: z.array(z.object({ timeNs: z.string(), name: z.string(), attributes: AttributesSchema })),
  links: z.array(z.object({ traceId: z.string(), spanId: z.string(), attributes: AttributesSchema })),
});
export type TraceSpan = z.infer<typeof TraceSpanSchema>;
export const TraceDetailSchema = z.object({ traceId: z.string(), spans: z.array(TraceSpanSchema) });
export type TraceDetail = z.infer<typeof TraceDetailSchema>;

/**
 * The cookie that carries the caller's access token to the trace viewer on its own port (point 6).
 * Cookies are shared by every port of a host, localStorage is not; only the viewer's listener reads it.
 */
export const TRACE_VIEWER_COOKIE = 'sextant_trace_viewer';

/** The viewer's default port (specification point 2: `{protocol}//{hostname}:5173/trace/{id}`). */
export const TRACE_VIEWER_DEFAULT_PORT = 5173;

/**
 * A trace's page in the viewer: under the configured viewer address (system setting
 * `traceViewerUrl`), else this host on port 5173 (point 2). The app travels in the query.
 */
export function traceViewerLink(
  configured: string,
  location: { protocol: string; hostname: string },
  traceId: string,
  appId: string,
): string {
  const base =
    configured.trim().replace(/\/+$/, '') || `${location.protocol}//${location.hostname}:${TRACE_VIEWER_DEFAULT_PORT}`;
  return `${base}${VIEWER_PATHS.trace.replace(':traceId', encodeURIComponent(traceId))}?appId=${encodeURIComponent(appId)}`;
}

/** A window of one app's traces (interface analytics): default the last 24 hours, at most 31 days. */
export const TraceWindowQuerySchema = z.object({ appId: z.uuid(), from: IsoTime.optional(), to: IsoTime.optional() });
export type TraceWindowQuery = z.infer<typeof TraceWindowQuerySchema>;

const Percentiles = { p50Ms: z.number(), p95Ms: z.number(), p99Ms: z.number() };

/** One interface of an app over the window: calls, errors and latency percentiles (of its server spans). */
export const InterfaceRowSchema = z.object({
  interface: z.string(),
  calls: z.number().int(),
  errors: z.number().int(),
  errorRate: z.number().min(0).max(1),
  ...Percentiles,
  lastSeen: z.string(),
});
export type InterfaceRow = z.infer<typeof InterfaceRowSchema>;
export const InterfaceListSchema = z.object({ items: z.array(InterfaceRowSchema) });

export const InterfaceDetailQuerySchema = TraceWindowQuerySchema.extend({ interface: z.string().min(1).max(500) });
export type InterfaceDetailQuery = z.infer<typeof InterfaceDetailQuerySchema>;

const TraceCallSchema = z.object({
  traceId: z.string(),
  start: z.string(),
  durationMs: z.number(),
  failed: z.boolean(),
  testCase: z.string().nullable(),
  appVersion: z.string().nullable(),
});

/** One interface over time (`/otel/interfaceAnalytic/{id}`). */
export const InterfaceDetailSchema = z.object({
  interface: z.string(),
  summary: InterfaceRowSchema,
  /** Calls, errors and percentiles per time bucket, oldest first. */
  series: z.array(z.object({ at: z.string(), calls: z.number().int(), errors: z.number().int(), ...Percentiles })),
  /** Latency histogram: equal-width buckets between the fastest and the slowest call. */
  histogram: z.array(z.object({ fromMs: z.number(), toMs: z.number(), calls: z.number().int() })),
  slowest: z.array(TraceCallSchema),
  failing: z.array(TraceCallSchema),
  testCases: z.array(z.object({ testCase: z.string(), calls: z.number().int(), lastSeen: z.string() })),
  methods: z.array(
    z.object({
      function: z.string(),
      namespace: z.string().nullable(),
      file: z.string().nullable(),
      calls: z.number().int(),
    }),
  ),
});
export type InterfaceDetail = z.infer<typeof InterfaceDetailSchema>;
