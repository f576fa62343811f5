import { isSafeNumber, LosslessNumber, parse } from 'lossless-json';
import {
  type Attributes,
  type AttributeValue,
  cleanText,
  type DecodedResourceSpans,
  type DecodedSpan,
  OtlpDecodeError,
  SPAN_LIMITS,
  safeInteger,
  validId,
} from './otlp-model.ts';

/**
 * OTLP/JSON as the specification defines it, not plain proto3 JSON: trace and span ids are hex
 * (any case), enums are integers (names accepted too, as the Collector does), 64-bit integers come
 * as strings or numbers — parsed losslessly, since JSON.parse rounds nanosecond times past 2^53 —
 * keys are lowerCamelCase (snake_case accepted), unknown fields are ignored.
 */
type Json = unknown;
type JsonObject = Record<string, Json>;

const SPAN_KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const STATUS_CODES = ['UNSET', 'OK', 'ERROR'];

/** snake_case of each lowerCamelCase field name asked for, worked out once a name. */
const snakeNames = new Map<string, string>();

function field(o: JsonObject, camel: string): Json {
  if (o[camel] !== undefined) return o[camel];
  let snake = snakeNames.get(camel);
  if (snake === undefined) {
    snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    snakeNames.set(camel, snake);
  }
  return o[snake];
}

const objectOf = (v: Json): JsonObject => (v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : {});
const listOf = (v: Json): Json[] => (Array.isArray(v) ? v : []);
const textOf = (v: Json): string => (typeof v === 'string' ? cleanText(v) : '');

function integer(v: Json, what: string): bigint {
  if (v === undefined || v === null) return 0n;
  const text = v instanceof LosslessNumber ? v.value : typeof v === 'number' || typeof v === 'string' ? String(v) : '';
  if (!/^-?\d+$/.test(text)) throw new OtlpDecodeError(`${what} is not an integer: ${JSON.stringify(String(v))}.`);
  return BigInt(text);
}

function enumValue(v: Json, names: string[], prefix: string, what: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'string' && !/^\d+$/.test(v)) {
    const index = names.indexOf(v.replace(prefix, ''));
    if (index < 0) throw new OtlpDecodeError(`Unknown ${what} ${JSON.stringify(v)}.`);
    return index;
  }
  return Number(integer(v, what));
}

function hexId(v: Json, bytes: number): string | null {
  return typeof v === 'string' ? validId(v.toLowerCase(), bytes) : null;
}

function anyValue(v: Json, depth: number): AttributeValue {
  if (depth > SPAN_LIMITS.valueDepth) throw new OtlpDecodeError('An attribute value is nested too deeply.');
  const o = objectOf(v);
  const string = field(o, 'stringValue');
  if (string !== undefined) return textOf(string);
  const bool = field(o, 'boolValue');
  if (bool !== undefined) return bool === true;
  const int = field(o, 'intValue');
  if (int !== undefined) return safeInteger(integer(int, 'intValue'));
  const double = field(o, 'doubleValue');
  if (double !== undefined)
    return double instanceof LosslessNumber
      ? Number(double.value)
      : typeof double === 'number'
        ? double
        : textOf(double);
  const array = field(o, 'arrayValue');
  if (array !== undefined) return listOf(objectOf(array).values).map((item) => anyValue(item, depth + 1));
  const kvlist = field(o, 'kvlistValue');
  if (kvlist !== undefined) return attributes(objectOf(kvlist).values, depth + 1);
  const bytes = field(o, 'bytesValue');
  if (bytes !== undefined) return textOf(bytes);
  return null;
}

function attributes(list: Json, depth = 0): Attributes {
  const out: Attributes = {};
  for (const kv of listOf(list)) {
    const o = objectOf(kv);
    out[textOf(o.key)] = anyValue(o.value, depth);
  }
  return out;
}

function span(v: Json): DecodedSpan {
  const s = objectOf(v);
  const status = objectOf(s.status);
  const parent = field(s, 'parentSpanId');
  return {
    traceId: hexId(field(s, 'traceId'), 16),
    spanId: hexId(field(s, 'spanId'), 8),
    parentSpanId: typeof parent === 'string' && parent !== '' ? parent.toLowerCase() : null,
    name: textOf(s.name),
    kind: enumValue(s.kind, SPAN_KINDS, 'SPAN_KIND_', 'span kind'),
    startNs: integer(field(s, 'startTimeUnixNano'), 'startTimeUnixNano'),
    endNs: integer(field(s, 'endTimeUnixNano'), 'endTimeUnixNano'),
    statusCode: enumValue(status.code, STATUS_CODES, 'STATUS_CODE_', 'status code'),
    statusMessage: textOf(status.message),
    attributes: attributes(s.attributes),
    events: listOf(s.events).map((e) => {
      const event = objectOf(e);
      return {
        timeNs: integer(field(event, 'timeUnixNano'), 'timeUnixNano'),
        name: textOf(event.name),
        attributes: attributes(event.attributes),
      };
    }),
    links: listOf(s.links).map((l) => {
      const link = objectOf(l);
      return {
        traceId: textOf(field(link, 'traceId')).toLowerCase(),
        spanId: textOf(field(link, 'spanId')).toLowerCase(),
        attributes: attributes(link.attributes),
      };
    }),
  };
}

/**
 * A bare number of 16 digits or more, which may be past 2^53 (a number follows `:`, `[` or `,`).
 * Without one, JSON.parse (several times faster) reads every number exactly; a match inside a
 * string only sends the body the lossless way.
 */
const LONG_NUMBER = /[:[,]\s*-?\d{16}/;

const losslessNumber = (text: string) => (isSafeNumber(text) ? Number(text) : new LosslessNumber(text));

/** Decodes an OTLP/JSON ExportTraceServiceRequest; malformed JSON or values throw OtlpDecodeError. */
export function decodeJsonExport(body: Buffer): DecodedResourceSpans[] {
  let root: Json;
  try {
    const text = body.toString('utf8');
    root = LONG_NUMBER.test(text) ? parse(text, null, losslessNumber) : JSON.parse(text);
  } catch (error) {
    throw new OtlpDecodeError(`The JSON body does not parse: ${(error as Error).message}`);
  }
  if (!root || typeof root !== 'object' || Array.isArray(root)) {
    throw new OtlpDecodeError('The JSON body is not an ExportTraceServiceRequest object.');
  }
  return listOf(field(root as JsonObject, 'resourceSpans')).map((rs) => {
    const resourceSpans = objectOf(rs);
    return {
      resource: attributes(objectOf(resourceSpans.resource).attributes),
      spans: listOf(field(resourceSpans, 'scopeSpans')).flatMap((ss) => listOf(objectOf(ss).spans).map(span)),
    };
  });
}

export function encodeJsonResponse(rejectedSpans: number, errorMessage: string): string {
  if (rejectedSpans === 0 && !errorMessage) return '{}';
  return JSON.stringify({ partialSuccess: { rejectedSpans: String(rejectedSpans), errorMessage } });
}
