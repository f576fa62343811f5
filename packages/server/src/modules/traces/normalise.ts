import type { Attributes, AttributeValue, DecodedSpan } from './otlp-model.ts';

/** What intake derives from a span's attributes and events (issue 36, "Normalised on intake"). */
export type SpanFacts = {
  interface: string | null;
  exceptionType: string | null;
  exceptionMessage: string | null;
  exceptionStack: string | null;
  codeFunction: string | null;
  codeNamespace: string | null;
  codeFile: string | null;
  codeLine: number | null;
  testCase: string | null;
};

const text = (v: AttributeValue | undefined): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;

const first = (attrs: Attributes, ...keys: string[]): string | null => {
  for (const key of keys) {
    const value = text(attrs[key]);
    if (value !== null) return value;
  }
  return null;
};

/** A raw path's ids (numbers, UUIDs, long hex) become `{id}`, so one route is one interface. */
export function templatePath(path: string): string {
  return (
    path
      .split(/[?#]/)[0]
      ?.split('/')
      .map((segment) =>
        /^\d+$/.test(segment) ||
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(segment) ||
        /^[0-9a-f]{16,}$/i.test(segment)
          ? '{id}'
          : segment,
      )
      .join('/') || '/'
  );
}

function pathOfUrl(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

/**
 * HTTP (both generations of the semantic conventions: `http.request.method`/`http.route`/`url.path`
 * and `http.method`/`http.target`/`http.url`), then RPC (`rpc.service` + `rpc.method`), then
 * messaging (`messaging.destination.name`, formerly `messaging.destination`).
 */
export function interfaceOf(attrs: Attributes): string | null {
  let method = first(attrs, 'http.request.method', 'http.method');
  if (method === '_OTHER') method = first(attrs, 'http.request.method_original') ?? method;
  if (method) {
    const route = first(attrs, 'http.route');
    const path = first(attrs, 'url.path', 'http.target') ?? pathOfUrl(first(attrs, 'url.full', 'http.url') ?? '');
    const where = route ?? (path ? templatePath(path) : null);
    return where ? `${method.toUpperCase()} ${where}` : method.toUpperCase();
  }
  const rpcMethod = first(attrs, 'rpc.method');
  if (rpcMethod) {
    const service = first(attrs, 'rpc.service');
    return service && !rpcMethod.includes('/') ? `${service}/${rpcMethod}` : rpcMethod;
  }
  const destination = first(attrs, 'messaging.destination.name', 'messaging.destination');
  if (destination) {
    const operation = first(attrs, 'messaging.operation.type', 'messaging.operation.name', 'messaging.operation');
    return operation ? `${operation} ${destination}` : destination;
  }
  return null;
}

/** `test.case.id` from W3C baggage text (`key=value;props,key2=value2`), as a captured header holds it. */
export function caseInBaggage(baggage: string): string | null {
  for (const member of baggage.split(',')) {
    const [pair] = member.split(';');
    const at = pair?.indexOf('=') ?? -1;
    if (pair && at > 0 && pair.slice(0, at).trim() === 'test.case.id') {
      const raw = pair.slice(at + 1).trim();
      let value = raw;
      try {
        value = decodeURIComponent(raw);
      } catch {
        // A malformed percent-escape is kept as sent rather than failing the export.
      }
      return value || null;
    }
  }
  return null;
}

function testCaseOf(attrs: Attributes, resource: Attributes): string | null {
  const direct = first(attrs, 'test.case.id') ?? first(resource, 'test.case.id');
  if (direct) return direct;
  const header = attrs['http.request.header.baggage'];
  for (const value of Array.isArray(header) ? header : [header]) {
    const found = typeof value === 'string' ? caseInBaggage(value) : null;
    if (found) return found;
  }
  return null;
}

const MAX_CODE_LINE = 2_147_483_647;

export function factsOf(span: DecodedSpan, resource: Attributes): SpanFacts {
  const attrs = span.attributes;
  const exception = span.events.find((e) => e.name === 'exception')?.attributes ?? {};
  const namespace = first(attrs, 'code.namespace');
  const shortFunction = first(attrs, 'code.function');
  const line = Number(first(attrs, 'code.line.number', 'code.lineno'));
  return {
    interface: interfaceOf(attrs),
    exceptionType: first(exception, 'exception.type'),
    exceptionMessage: first(exception, 'exception.message'),
    exceptionStack: first(exception, 'exception.stacktrace'),
    codeFunction:
      first(attrs, 'code.function.name') ??
      (shortFunction && namespace ? `${namespace}.${shortFunction}` : shortFunction),
    codeNamespace: namespace,
    codeFile: first(attrs, 'code.file.path', 'code.filepath'),
    // The column is a 32-bit integer: a line past it is no line a file has, and would fail the whole write.
    codeLine: Number.isInteger(line) && line > 0 && line <= MAX_CODE_LINE ? line : null,
    testCase: testCaseOf(attrs, resource),
  };
}
