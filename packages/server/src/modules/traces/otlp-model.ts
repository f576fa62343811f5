/**
 * What one OTLP export holds once decoded, whichever the encoding (protobuf or JSON): ids as
 * lower-case hex, times as bigint nanoseconds (they pass 2^53), attributes as plain values.
 */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };
export type Attributes = Record<string, AttributeValue>;

export type SpanEvent = { timeNs: bigint; name: string; attributes: Attributes };
export type SpanLink = { traceId: string; spanId: string; attributes: Attributes };

export type DecodedSpan = {
  /** Hex, or null when the id is missing or malformed (the span is then rejected, not the export). */
  traceId: string | null;
  spanId: string | null;
  parentSpanId: string | null;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  statusCode: number;
  statusMessage: string;
  attributes: Attributes;
  events: SpanEvent[];
  links: SpanLink[];
};

export type DecodedResourceSpans = { resource: Attributes; spans: DecodedSpan[] };

/** Beyond these a span is refused (partial success), as an SDK's own limits would have cut it. */
export const SPAN_LIMITS = { attributes: 1024, events: 1024, links: 1024, valueDepth: 16 } as const;

/** PostgreSQL text and jsonb refuse NUL, and lone surrogates break JSON: both become U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Whether a text holds a NUL or any surrogate: most hold neither, and are returned as they are. */
const MAY_NEED_CLEANING = new RegExp('[\\u0000\\uD800-\\uDFFF]');

export function cleanText(text: string): string {
  if (!MAY_NEED_CLEANING.test(text)) return text;
  return text.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
}

export class OtlpDecodeError extends Error {}

export function hexOf(bytes: Uint8Array | null | undefined): string {
  return bytes && bytes.length > 0 ? Buffer.from(bytes).toString('hex') : '';
}

/** A valid OTLP id: `bytes` long, not all zeros (proto comments on trace_id and span_id). */
export function validId(hex: string, bytes: number): string | null {
  if (hex.length !== bytes * 2 || !/^[0-9a-f]+$/.test(hex) || /^0+$/.test(hex)) return null;
  return hex;
}

/** Integers beyond 2^53 are kept as decimal text rather than rounded. */
export function safeInteger(value: bigint): number | string {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value.toString();
}
