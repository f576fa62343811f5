import protobuf from 'protobufjs';
import {
  type Attributes,
  type AttributeValue,
  cleanText,
  type DecodedResourceSpans,
  type DecodedSpan,
  OtlpDecodeError,
  SPAN_LIMITS,
  safeInteger,
} from './otlp-model.ts';

/**
 * The trace subset of opentelemetry-proto (release 1.11.0): field numbers as upstream, enums read as
 * int32 (the same varint on the wire), profile-only fields left out (unknown fields are skipped).
 */
const OTLP_TRACE_PROTO = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
message ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; fixed32 flags = 16;
  string name = 5; int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9; uint32 dropped_attributes_count = 10; repeated Event events = 11;
  uint32 dropped_events_count = 12; repeated Link links = 13; uint32 dropped_links_count = 14; Status status = 15;
}
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; }
message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4;
    ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message RpcStatus { int32 code = 1; string message = 2; repeated Any details = 3; }
message Any { string type_url = 1; bytes value = 2; }
message Duration { int64 seconds = 1; int32 nanos = 2; }
message RetryInfo { Duration retry_delay = 1; }
`;

const root = protobuf.parse(OTLP_TRACE_PROTO, { keepCase: false }).root;
const ExportRequest = root.lookupType('otlp.ExportTraceServiceRequest');
const ExportResponse = root.lookupType('otlp.ExportTraceServiceResponse');
const RpcStatus = root.lookupType('otlp.RpcStatus');
const RetryInfo = root.lookupType('otlp.RetryInfo');

type Long = { low: number; high: number; unsigned: boolean };
type PbKeyValue = { key?: string; value?: PbAnyValue };
type PbAnyValue = {
  value?: string;
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | Long;
  doubleValue?: number;
  arrayValue?: { values?: PbAnyValue[] };
  kvlistValue?: { values?: PbKeyValue[] };
  bytesValue?: Uint8Array;
};
type PbSpan = {
  traceId?: Uint8Array;
  spanId?: Uint8Array;
  parentSpanId?: Uint8Array;
  name?: string;
  kind?: number;
  startTimeUnixNano?: number | Long;
  endTimeUnixNano?: number | Long;
  attributes?: PbKeyValue[];
  events?: { timeUnixNano?: number | Long; name?: string; attributes?: PbKeyValue[] }[];
  links?: { traceId?: Uint8Array; spanId?: Uint8Array; attributes?: PbKeyValue[] }[];
  status?: { message?: string; code?: number };
};
type PbRequest = {
  resourceSpans?: { resource?: { attributes?: PbKeyValue[] }; scopeSpans?: { spans?: PbSpan[] }[] }[];
};

/** A 64-bit field as protobufjs gives it (a Long's two 32-bit halves, or a number) without going through text. */
function big(v: number | Long | undefined): bigint {
  if (v === undefined) return 0n;
  if (typeof v === 'number') return BigInt(v);
  const bits = (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0);
  return v.unsigned ? bits : BigInt.asIntN(64, bits);
}

function anyValue(v: PbAnyValue | undefined, depth: number): AttributeValue {
  if (!v?.value) return null;
  if (depth > SPAN_LIMITS.valueDepth) throw new OtlpDecodeError('An attribute value is nested too deeply.');
  switch (v.value) {
    case 'stringValue':
      return cleanText(v.stringValue ?? '');
    case 'boolValue':
      return v.boolValue ?? false;
    case 'intValue':
      return safeInteger(big(v.intValue));
    case 'doubleValue':
      return Number.isFinite(v.doubleValue) ? (v.doubleValue as number) : String(v.doubleValue);
    case 'arrayValue':
      return (v.arrayValue?.values ?? []).map((item) => anyValue(item, depth + 1));
    case 'kvlistValue':
      return attributes(v.kvlistValue?.values, depth + 1);
    case 'bytesValue':
      return v.bytesValue
        ? Buffer.from(v.bytesValue.buffer, v.bytesValue.byteOffset, v.bytesValue.length).toString('base64')
        : '';
    default:
      return null;
  }
}

function attributes(list: PbKeyValue[] | undefined, depth = 0): Attributes {
  const out: Attributes = {};
  // Duplicate keys are undefined behaviour in OTLP: the last one wins.
  for (const kv of list ?? []) out[cleanText(kv.key ?? '')] = anyValue(kv.value, depth);
  return out;
}

/** Hex of a bytes field without copying it (decoding a Buffer gives views of it). */
function hexOf(bytes: Uint8Array | undefined): string {
  if (!bytes || bytes.length === 0) return '';
  return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)).toString('hex');
}

/** A valid OTLP id: `length` bytes, not all zeros (proto comments on trace_id and span_id); else null. */
function idOf(bytes: Uint8Array | undefined, length: number): string | null {
  if (!bytes || bytes.length !== length) return null;
  for (const byte of bytes) if (byte !== 0) return hexOf(bytes);
  return null;
}

function span(s: PbSpan): DecodedSpan {
  return {
    traceId: idOf(s.traceId, 16),
    spanId: idOf(s.spanId, 8),
    parentSpanId: hexOf(s.parentSpanId) || null,
    name: cleanText(s.name ?? ''),
    kind: s.kind ?? 0,
    startNs: big(s.startTimeUnixNano),
    endNs: big(s.endTimeUnixNano),
    statusCode: s.status?.code ?? 0,
    statusMessage: cleanText(s.status?.message ?? ''),
    attributes: attributes(s.attributes),
    events: (s.events ?? []).map((e) => ({
      timeNs: big(e.timeUnixNano),
      name: cleanText(e.name ?? ''),
      attributes: attributes(e.attributes),
    })),
    links: (s.links ?? []).map((l) => ({
      traceId: hexOf(l.traceId),
      spanId: hexOf(l.spanId),
      attributes: attributes(l.attributes),
    })),
  };
}

/** Decodes a binary ExportTraceServiceRequest; a truncated or malformed message throws OtlpDecodeError. */
export function decodeProtobufExport(body: Buffer): DecodedResourceSpans[] {
  let message: PbRequest;
  try {
    // The decoded message is read as it is (no toObject copy): unset fields read as their defaults
    // from its prototype, and `value` names the set field of an AnyValue (protobufjs's oneof getter).
    message = ExportRequest.decode(body) as unknown as PbRequest;
  } catch (error) {
    throw new OtlpDecodeError(`The protobuf body is not an ExportTraceServiceRequest: ${(error as Error).message}`);
  }
  return (message.resourceSpans ?? []).map((rs) => ({
    resource: attributes(rs.resource?.attributes),
    spans: (rs.scopeSpans ?? []).flatMap((ss) => (ss.spans ?? []).map(span)),
  }));
}

export function encodeProtobufResponse(rejectedSpans: number, errorMessage: string): Buffer {
  const payload = rejectedSpans > 0 || errorMessage ? { partialSuccess: { rejectedSpans, errorMessage } } : {};
  return Buffer.from(ExportResponse.encode(ExportResponse.create(payload)).finish());
}

/** google.rpc.Status, the OTLP error body for a protobuf request. */
export function encodeProtobufStatus(code: number, message: string): Buffer {
  return Buffer.from(RpcStatus.encode(RpcStatus.create({ code, message })).finish());
}

/**
 * google.rpc.Status carrying a google.rpc.RetryInfo: what OTLP/gRPC sends (in `grpc-status-details-bin`)
 * with RESOURCE_EXHAUSTED when the client may send again after the delay, and only then.
 */
export function encodeRetryStatus(code: number, message: string, retryAfterSeconds: number): Buffer {
  const retry = RetryInfo.encode(RetryInfo.create({ retryDelay: { seconds: retryAfterSeconds } })).finish();
  const details = [{ typeUrl: 'type.googleapis.com/google.rpc.RetryInfo', value: retry }];
  return Buffer.from(RpcStatus.encode(RpcStatus.create({ code, message, details })).finish());
}
