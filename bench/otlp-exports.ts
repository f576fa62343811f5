import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

export type OtlpBodies = { protobuf: Buffer[]; json: Buffer[] };

/**
 * `exports` distinct exports of `spansEach` spans (ids differ, so every span is a new row): a service's
 * server spans with the attributes an HTTP instrumentation sets, serialised by the official SDK both ways.
 */
export function otlpExports(exports: number, spansEach: number): OtlpBodies {
  const out: OtlpBodies = { protobuf: [], json: [] };
  for (let b = 0; b < exports; b++) {
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({
        'service.name': 'bench',
        'service.version': '1.0.0',
        'host.name': 'bench-host',
        'process.pid': 4242,
        'telemetry.sdk.language': 'nodejs',
      }),
      spanProcessors: [new SimpleSpanProcessor(memory)],
    });
    const tracer = provider.getTracer('bench');
    for (let i = 0; i < spansEach; i++) {
      tracer
        .startSpan('GET /orders/:id', {
          kind: 1,
          attributes: {
            'http.request.method': 'GET',
            'http.route': '/orders/:id',
            'url.path': `/orders/${b * spansEach + i}`,
            'url.scheme': 'http',
            'server.address': 'orders.internal',
            'server.port': 8080,
            'http.response.status_code': 200,
            'network.protocol.version': '1.1',
            'user_agent.original': 'bench/1.0',
            'test.case.id': `CASE-${i % 7}`,
          },
        })
        .end();
    }
    out.protobuf.push(Buffer.from(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans()) ?? []));
    out.json.push(Buffer.from(JsonTraceSerializer.serializeRequest(memory.getFinishedSpans()) ?? []));
  }
  return out;
}
