import { createServer, type Server } from 'node:http';
import { Metadata } from '@grpc/grpc-js';
import {
  type Context,
  defaultTextMapGetter,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { W3CBaggagePropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type ReadableSpan,
  type Span,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpGrpcListener, startOtlpGrpc } from '../../src/modules/traces/grpc-listener.ts';
import { useIntakeApp } from '../intake/support.ts';
import { nsOf, storedSpans } from './support.ts';

const SEXTANT_PORT = 18510;
const baggage = new W3CBaggagePropagator();

/** Copies `test.case.id` from the request's baggage onto every span, as a baggage span processor does. */
const caseFromBaggage: SpanProcessor = {
  onStart(span: Span, parent: Context) {
    const entry = propagation.getBaggage(parent)?.getEntry('test.case.id');
    if (entry) span.setAttribute('test.case.id', entry.value);
  },
  onEnd() {},
  forceFlush: async () => {},
  shutdown: async () => {},
};

type Service = { provider: NodeTracerProvider; server: Server; port: number; ended: ReadableSpan[] };

/**
 * A small orders service, instrumented by hand with the SDK: a SERVER span per request (new or old
 * HTTP semantic conventions), a child span carrying code attributes, an exception on /fail.
 */
async function startService(opts: {
  port: number;
  version: string;
  exporter: SpanExporter;
  semconv: 'new' | 'old';
}): Promise<Service> {
  const ended: ReadableSpan[] = [];
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'orders-service', 'service.version': opts.version }),
    spanProcessors: [
      caseFromBaggage,
      {
        ...caseFromBaggage,
        onStart() {},
        onEnd: (span: ReadableSpan) => {
          ended.push(span);
        },
      },
      new BatchSpanProcessor(opts.exporter),
    ],
  });
  const tracer = provider.getTracer('orders');
  const server = createServer((req, res) => {
    const parent = baggage.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = url.pathname.startsWith('/orders/') ? '/orders/:id' : url.pathname;
    const attributes =
      opts.semconv === 'new'
        ? { 'http.request.method': req.method, 'http.route': route, 'url.path': url.pathname }
        : { 'http.method': req.method, 'http.target': req.url };
    const span = tracer.startSpan(`${req.method} ${route}`, { kind: SpanKind.SERVER, attributes }, parent);
    tracer
      .startSpan(
        'loadOrder',
        {
          attributes:
            opts.semconv === 'new'
              ? {
                  'code.function.name': 'shop.OrderRepository.load',
                  'code.file.path': 'src/orders.ts',
                  'code.line.number': 42,
                }
              : {
                  'code.namespace': 'shop.OrderRepository',
                  'code.function': 'load',
                  'code.filepath': 'src/orders.ts',
                  'code.lineno': 42,
                },
        },
        trace.setSpan(parent, span),
      )
      .end();
    if (url.pathname === '/fail') {
      const error = new TypeError('order 7 is missing');
      span.recordException(error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
      res.statusCode = 500;
    }
    span.end();
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(opts.port, '127.0.0.1', resolve));
  return { provider, server, port: opts.port, ended };
}

/** A test client that names its test case in W3C baggage. */
async function call(service: Service, path: string, testCase: string): Promise<void> {
  const headers: Record<string, string> = {};
  const ctx = propagation.setBaggage(ROOT_CONTEXT, propagation.createBaggage({ 'test.case.id': { value: testCase } }));
  baggage.inject(ctx, headers, {
    set: (carrier, key, value) => {
      carrier[key] = value;
    },
  });
  const res = await fetch(`http://127.0.0.1:${service.port}${path}`, { headers });
  await res.text();
}

describe('traces sent by the OpenTelemetry JS SDK arrive as sent (issue 36)', () => {
  const t = useIntakeApp();
  const services: Service[] = [];
  const endpoint = `http://127.0.0.1:${SEXTANT_PORT}/v1/traces`;
  let grpc: OtlpGrpcListener;

  beforeAll(async () => {
    await t.app.listen({ port: SEXTANT_PORT, host: '127.0.0.1' });
    grpc = await startOtlpGrpc(t.app, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await grpc.close();
    for (const s of services) {
      await s.provider.shutdown();
      await new Promise((resolve) => s.server.close(resolve));
    }
  });

  it('protobuf, gzipped: interfaces, exceptions, code, version and the baggage test case', async () => {
    const service = await startService({
      port: 18511,
      version: '2.3.0',
      semconv: 'new',
      exporter: new ProtoExporter({
        url: endpoint,
        headers: { authorization: `Bearer ${t.checkout.token}` },
        compression: 'gzip' as never,
      }),
    });
    services.push(service);
    await call(service, '/orders/17', 'CASE-42');
    await call(service, '/fail', 'CASE-43');
    await service.provider.forceFlush();

    const rows = await storedSpans(t.db, t.checkout.id);
    expect(rows).toHaveLength(4);
    // Every span as the SDK ended it: ids, parent, exact nanosecond start and duration.
    const sent = service.ended.map((s) => ({
      trace_id: s.spanContext().traceId,
      span_id: s.spanContext().spanId,
      parent_span_id: s.parentSpanContext?.spanId ?? null,
      start_ns: nsOf(s.startTime),
      duration_ns: nsOf(s.duration),
    }));
    for (const expected of sent) expect(rows).toContainEqual(expect.objectContaining(expected));

    const server = rows.filter((r) => r.kind === 2);
    expect(server.map((r) => [r.interface, r.test_case, r.app_version, r.service])).toEqual([
      ['GET /orders/:id', 'CASE-42', '2.3.0', 'orders-service'],
      ['GET /fail', 'CASE-43', '2.3.0', 'orders-service'],
    ]);
    const failed = server[1];
    expect(failed).toMatchObject({
      status_code: 2,
      exception_type: 'TypeError',
      exception_message: 'order 7 is missing',
    });
    expect(failed?.exception_stack).toMatch(/^TypeError: order 7 is missing\n\s+at /);
    const inner = rows.filter((r) => r.name === 'loadOrder');
    expect(inner.map((r) => [r.code_function, r.code_file, r.code_line, r.test_case])).toEqual([
      ['shop.OrderRepository.load', 'src/orders.ts', 42, 'CASE-42'],
      ['shop.OrderRepository.load', 'src/orders.ts', 42, 'CASE-43'],
    ]);
  });

  it('JSON, old semantic conventions: the same interface from http.target, code from code.namespace + code.function', async () => {
    const service = await startService({
      port: 18512,
      version: '2.4.0',
      semconv: 'old',
      exporter: new JsonExporter({ url: endpoint, headers: { 'x-sextant-token': t.invoices.token } }),
    });
    services.push(service);
    await call(service, '/orders/981?expand=lines', 'CASE-7');
    await service.provider.forceFlush();

    const rows = await storedSpans(t.db, t.invoices.id);
    const sent = service.ended.map((s) => ({
      trace_id: s.spanContext().traceId,
      span_id: s.spanContext().spanId,
      start_ns: nsOf(s.startTime),
      duration_ns: nsOf(s.duration),
    }));
    expect(rows).toHaveLength(2);
    for (const expected of sent) expect(rows).toContainEqual(expect.objectContaining(expected));
    expect(rows.map((r) => [r.name, r.interface, r.code_function, r.code_line, r.test_case, r.app_version])).toEqual(
      expect.arrayContaining([
        ['GET /orders/:id', 'GET /orders/{id}', null, null, 'CASE-7', '2.4.0'],
        ['loadOrder', null, 'shop.OrderRepository.load', 42, 'CASE-7', '2.4.0'],
      ]),
    );
  });

  it('gRPC, gzipped, token in metadata: the same spans and facts as over HTTP', async () => {
    const metadata = new Metadata();
    metadata.set('authorization', `Bearer ${t.invoices.token}`);
    const service = await startService({
      port: 18513,
      version: '2.5.0',
      semconv: 'new',
      exporter: new GrpcExporter({ url: `http://127.0.0.1:${grpc.port}`, metadata, compression: 'gzip' as never }),
    });
    services.push(service);
    await call(service, '/orders/5', 'CASE-G1');
    await call(service, '/fail', 'CASE-G2');
    await service.provider.forceFlush();

    const rows = (await storedSpans(t.db, t.invoices.id)).filter((r) => r.app_version === '2.5.0');
    expect(rows).toHaveLength(4);
    for (const s of service.ended) {
      expect(rows).toContainEqual(
        expect.objectContaining({
          trace_id: s.spanContext().traceId,
          span_id: s.spanContext().spanId,
          parent_span_id: s.parentSpanContext?.spanId ?? null,
          start_ns: nsOf(s.startTime),
          duration_ns: nsOf(s.duration),
        }),
      );
    }
    expect(rows.filter((r) => r.kind === 2).map((r) => [r.interface, r.test_case, r.exception_type])).toEqual([
      ['GET /orders/:id', 'CASE-G1', null],
      ['GET /fail', 'CASE-G2', 'TypeError'],
    ]);
    expect(rows.filter((r) => r.name === 'loadOrder').map((r) => r.code_function)).toEqual([
      'shop.OrderRepository.load',
      'shop.OrderRepository.load',
    ]);
  });
});
