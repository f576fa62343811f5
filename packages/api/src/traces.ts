import { z } from 'zod';

/** The trace module's paths (issue 36). OTLP/HTTP's path is fixed by the OpenTelemetry exporters. */
export const TRACE_PATHS = {
  /** OTLP/HTTP traces: `OTEL_EXPORTER_OTLP_ENDPOINT=<server>` makes exporters post here. */
  otlpTraces: '/v1/traces',
} as const;

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
