import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { bearer, useIntakeApp } from '../intake/support.ts';
import { spanCount, storedSpans } from './support.ts';

const MiB = 1024 * 1024;
const PORT = 18520;
const NOW_NS = BigInt(Date.now()) * 1_000_000n;
const JSON_TYPE = { 'content-type': 'application/json' };
const PROTO_TYPE = { 'content-type': 'application/x-protobuf' };

/** Three SDK spans serialised by the official OTLP protobuf serializer. */
function sdkProtobufExport(): Buffer {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'orders-service', 'service.version': '1.0.0' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('t');
  for (const name of ['a', 'b', 'c']) tracer.startSpan(name, { attributes: { 'http.method': 'GET' } }).end();
  const body = ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans());
  if (!body) throw new Error('the serializer returned nothing');
  return Buffer.from(body);
}

type JsonSpan = Record<string, unknown>;
const span = (over: JsonSpan = {}): JsonSpan => ({
  traceId: '5B8EFFF798038103D269B633813FC60C',
  spanId: 'EEE19B7EC3C1B174',
  name: 'GET /orders/:id',
  kind: 2,
  startTimeUnixNano: (NOW_NS - 5_000_000_000n).toString(),
  endTimeUnixNano: (NOW_NS - 4_000_000_000n).toString(),
  attributes: [{ key: 'http.request.method', value: { stringValue: 'GET' } }],
  ...over,
});
const jsonExport = (spans: JsonSpan[]) =>
  JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'orders-service' } }] },
        scopeSpans: [{ scope: { name: 't' }, spans }],
      },
    ],
  });

describe('OTLP/HTTP answers per the specification and stores nothing it refuses (issue 36)', () => {
  const t = useIntakeApp({ config: { otlpLimitBytes: 1 * MiB, otlpConcurrency: 1 } });
  const post = (payload: Buffer | string, headers: Record<string, string>, token = t.checkout.token) =>
    t.app.inject({ method: 'POST', url: '/v1/traces', headers: { ...bearer(token), ...headers }, payload });

  it('refuses invalid spans one by one: 200 with partialSuccess, the valid ones kept exactly', async () => {
    const before = await spanCount(t.db);
    const exact = NOW_NS - 3_000_000_001n; // past 2^53: JSON.parse would round it
    const body = jsonExport([
      span({ kind: 'SPAN_KIND_SERVER', extra: { ignored: true } }),
      span({ traceId: '00000000000000000000000000000000', spanId: '1111111111111111' }),
      span({ spanId: 'abc' }),
      span({ spanId: '2222222222222222', startTimeUnixNano: (NOW_NS - 30n * 86_400_000_000_000n).toString() }),
      {
        trace_id: '5b8efff798038103d269b633813fc60c',
        span_id: '3333333333333333',
        parent_span_id: 'eee19b7ec3c1b174',
        name: 'db',
        startTimeUnixNano: 'EXACT',
        endTimeUnixNano: (exact + 7n).toString(),
        attributes: [
          { key: 'big', value: { intValue: '9007199254740993' } },
          { key: 'small', value: { intValue: 12 } },
          { key: 'nul', value: { stringValue: 'a\u0000b' } },
        ],
      },
    ]).replace('"EXACT"', exact.toString());
    const res = await post(body, { 'content-type': 'application/json; charset=utf-8' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      partialSuccess: {
        rejectedSpans: '3',
        errorMessage:
          '1 span(s) with a trace id that is not 16 bytes, or all zeros; 1 span(s) with a span id that is not 8 bytes, ' +
          'or all zeros; 1 span(s) with a start older than the trace retention',
      },
    });
    expect(await spanCount(t.db)).toBe(before + 2);
    const rows = await storedSpans(t.db, t.checkout.id);
    expect(rows.map((r) => [r.trace_id, r.span_id, r.parent_span_id, r.kind, r.start_ns, r.duration_ns])).toEqual([
      [
        '5b8efff798038103d269b633813fc60c',
        'eee19b7ec3c1b174',
        null,
        2,
        (NOW_NS - 5_000_000_000n).toString(),
        '1000000000',
      ],
      ['5b8efff798038103d269b633813fc60c', '3333333333333333', 'eee19b7ec3c1b174', 0, exact.toString(), '7'],
    ]);
    expect(rows[1]?.attributes).toEqual({ big: '9007199254740993', small: 12, nul: 'a\uFFFDb' });
  });

  it('refuses a span with more attributes than any SDK sends (partial success), keeping its neighbours', async () => {
    const attributes = Array.from({ length: 2000 }, (_, i) => ({ key: `k${i}`, value: { intValue: i } }));
    const body = jsonExport([span({ spanId: '8888888888888888', attributes }), span({ spanId: '9999999999999999' })]);
    const res = await post(body, JSON_TYPE);
    expect(res.json()).toEqual({
      partialSuccess: { rejectedSpans: '1', errorMessage: '1 span(s) with too many attributes' },
    });
    const ids = (await storedSpans(t.db, t.checkout.id)).map((r) => r.span_id);
    expect(ids).toContain('9999999999999999');
    expect(ids).not.toContain('8888888888888888');
  });

  it('a re-sent export is stored once (exporters retry)', async () => {
    const body = jsonExport([span({ spanId: '4444444444444444' })]);
    expect((await post(body, JSON_TYPE)).statusCode).toBe(200);
    const after = await spanCount(t.db);
    expect((await post(body, JSON_TYPE)).statusCode).toBe(200);
    expect(await spanCount(t.db)).toBe(after);
  });

  it('protobuf from the official serializer, plain and gzipped: 200 with an empty ExportTraceServiceResponse', async () => {
    for (const gzip of [false, true]) {
      const before = await spanCount(t.db);
      const body = sdkProtobufExport();
      const res = await post(gzip ? gzipSync(body) : body, {
        ...PROTO_TYPE,
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-protobuf');
      expect(ProtobufTraceSerializer.deserializeResponse(res.rawPayload)).toEqual({});
      expect(await spanCount(t.db)).toBe(before + 3);
    }
  });

  it.each<[string, number, () => Buffer | string, Record<string, string>]>([
    ['truncated protobuf', 400, () => sdkProtobufExport().subarray(0, 40), PROTO_TYPE],
    ['garbage protobuf', 400, () => Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]), PROTO_TYPE],
    ['malformed JSON', 400, () => '{"resourceSpans": [', JSON_TYPE],
    ['a JSON array', 400, () => '[]', JSON_TYPE],
    ['a non-integer timestamp', 400, () => jsonExport([span({ startTimeUnixNano: '1.5e18' })]), JSON_TYPE],
    ['wrong content type', 415, () => jsonExport([span()]), { 'content-type': 'text/plain' }],
    ['an unsupported content encoding', 415, () => jsonExport([span()]), { ...JSON_TYPE, 'content-encoding': 'br' }],
    ['a body that is not gzip', 400, () => jsonExport([span()]), { ...JSON_TYPE, 'content-encoding': 'gzip' }],
    ['a body over the limit', 413, () => Buffer.alloc(MiB + 1, 0x20), JSON_TYPE],
    ['a gzip bomb', 413, () => gzipSync(Buffer.alloc(64 * MiB)), { ...PROTO_TYPE, 'content-encoding': 'gzip' }],
  ])('refuses %s with %i and stores nothing', async (_what, status, body, headers) => {
    const payload = body();
    if (status === 413 && headers['content-encoding']) expect(payload.length).toBeLessThan(MiB / 8);
    const before = await spanCount(t.db);
    const res = await post(payload, headers);
    expect(res.statusCode, res.body).toBe(status);
    if (headers['content-type'] === 'application/x-protobuf') {
      // A google.rpc.Status: field 1 (code) then field 2 (message), readable English.
      expect(res.headers['content-type']).toBe('application/x-protobuf');
      expect(res.rawPayload.toString('latin1')).toMatch(
        status === 413 ? /at most 1048576 bytes/ : /not an ExportTrace/,
      );
    } else {
      expect(res.json()).toMatchObject({ code: status, message: expect.any(String) });
    }
    expect(await spanCount(t.db)).toBe(before);
  });

  it('answers another method with 405 and Allow: POST', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/traces' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });

  it('refuses a missing, unknown or user token (401), before reading the body', async () => {
    const before = await spanCount(t.db);
    const body = jsonExport([span({ spanId: '5555555555555555' })]);
    for (const headers of [{}, bearer('not-a-token'), t.admin]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/traces',
        headers: { ...JSON_TYPE, ...headers },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(401);
    }
    expect(await spanCount(t.db)).toBe(before);
  });

  it('stores spans under the app of the token that sent them, never another', async () => {
    const body = jsonExport([span({ spanId: '6666666666666666' })]);
    expect((await post(body, JSON_TYPE, t.invoices.token)).statusCode).toBe(200);
    const invoices = await storedSpans(t.db, t.invoices.id);
    expect(invoices.map((r) => r.span_id)).toEqual(['6666666666666666']);
    expect((await storedSpans(t.db, t.checkout.id)).map((r) => r.span_id)).not.toContain('6666666666666666');
  });

  it('answers 429 with Retry-After while the exports in progress fill the intake, then takes exports again', async () => {
    await t.app.listen({ port: PORT, host: '127.0.0.1' });
    const body = Buffer.from(jsonExport([span({ spanId: '7777777777777777' })]));
    // A slow exporter: headers and half of the body, the rest only once the others have been answered.
    let finish = () => {};
    const slow = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: PORT,
          method: 'POST',
          path: '/v1/traces',
          headers: { ...JSON_TYPE, ...bearer(t.checkout.token), 'content-length': body.length },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write(body.subarray(0, 10));
      finish = () => req.end(body.subarray(10));
    });
    let refused = null;
    // Until the slow export holds the one place (bounded tries; each is a full round trip).
    for (let i = 0; i < 200 && !refused; i++) {
      const res = await fetch(`http://127.0.0.1:${PORT}/v1/traces`, {
        method: 'POST',
        headers: { ...PROTO_TYPE, ...bearer(t.checkout.token) },
        body: new Uint8Array(0),
      });
      if (res.status === 429) refused = res;
      else expect(res.status).toBe(200); // an empty export, taken while the place was free
    }
    expect(refused?.headers.get('retry-after')).toBe('2');
    finish();
    expect(await slow).toBe(200);
    expect((await storedSpans(t.db, t.checkout.id)).map((r) => r.span_id)).toContain('7777777777777777');
  });
});
