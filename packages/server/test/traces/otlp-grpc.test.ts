import {
  type Client,
  credentials,
  Metadata,
  makeGenericClientConstructor,
  type ServiceError,
  status,
} from '@grpc/grpc-js';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listenOtlpGrpc,
  type OtlpGrpcListener,
  startOtlpGrpc,
  TRACE_SERVICE,
} from '../../src/modules/traces/grpc-listener.ts';
import { useIntakeApp } from '../intake/support.ts';
import { spanCount, storedSpans } from './support.ts';

const MiB = 1024 * 1024;
const TraceClient = makeGenericClientConstructor(TRACE_SERVICE, 'TraceService');
type ExportClient = Client & {
  Export(body: Buffer, metadata: Metadata, callback: (error: ServiceError | null, answer?: Buffer) => void): void;
};

/** google.rpc.Status with RetryInfo, as the test reads `grpc-status-details-bin` (its own schema). */
const details = protobuf.parse(
  `
syntax = "proto3";
message Duration { int64 seconds = 1; int32 nanos = 2; }
message RetryInfo { Duration retry_delay = 1; }
message Any { string type_url = 1; bytes value = 2; }
message Status { int32 code = 1; string message = 2; repeated Any details = 3; }
`,
  { keepCase: true },
).root;

/** SDK spans serialised by the official OTLP protobuf serializer; `edit` may spoil some of them. */
function sdkExport(names: string[], edit: (span: ReadableSpan, i: number) => ReadableSpan = (s) => s): Buffer {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'grpc-service', 'service.version': '3.1.0' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('t');
  for (const name of names) {
    const attributes =
      name === 'big' ? { blob: 'x'.repeat(2 * MiB) } : { 'rpc.service': 'Orders', 'rpc.method': 'Get' };
    tracer.startSpan(name, { attributes }).end();
  }
  const body = ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans().map(edit));
  if (!body) throw new Error('the serializer returned nothing');
  return Buffer.from(body);
}

describe('OTLP/gRPC: the same intake and rules as OTLP/HTTP, in gRPC statuses (issue 36)', () => {
  const t = useIntakeApp({ config: { otlpLimitBytes: 1 * MiB, otlpConcurrency: 1 } });
  let listener: OtlpGrpcListener;
  let plain: ExportClient;
  let gzip: ExportClient;

  beforeAll(async () => {
    listener = await startOtlpGrpc(t.app, { port: 0, host: '127.0.0.1' });
    const address = `127.0.0.1:${listener.port}`;
    plain = new TraceClient(address, credentials.createInsecure()) as unknown as ExportClient;
    gzip = new TraceClient(address, credentials.createInsecure(), {
      'grpc.default_compression_algorithm': 2, // gzip
    }) as unknown as ExportClient;
  });
  afterAll(async () => {
    plain.close();
    gzip.close();
    await listener.close();
  });

  const send = (client: ExportClient, body: Buffer, headers: Record<string, string>) =>
    new Promise<{ error: ServiceError | null; answer?: Buffer }>((resolve) => {
      const metadata = new Metadata();
      for (const [key, value] of Object.entries(headers)) metadata.set(key, value);
      client.Export(body, metadata, (error, answer) => resolve({ error, answer }));
    });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('stores an export sent with authorization: Bearer and answers an empty ExportTraceServiceResponse', async () => {
    const { error, answer } = await send(plain, sdkExport(['a', 'b', 'c']), bearer(t.checkout.token));
    expect(error).toBeNull();
    expect(answer?.length).toBe(0); // no partial_success: everything was accepted
    // Started within the same millisecond maybe: compared by name, not by the order stored.
    const rows = (await storedSpans(t.db, t.checkout.id)).sort((x, y) => x.name.localeCompare(y.name));
    expect(rows.map((r) => [r.name, r.service, r.app_version, r.interface])).toEqual([
      ['a', 'grpc-service', '3.1.0', 'Orders/Get'],
      ['b', 'grpc-service', '3.1.0', 'Orders/Get'],
      ['c', 'grpc-service', '3.1.0', 'Orders/Get'],
    ]);
  });

  it('takes x-sextant-token and a gzip-compressed message', async () => {
    const { error } = await send(gzip, sdkExport(['zipped']), { 'x-sextant-token': t.invoices.token });
    expect(error).toBeNull();
    expect((await storedSpans(t.db, t.invoices.id)).map((r) => r.name)).toEqual(['zipped']);
  });

  it('refuses invalid spans one by one: partial_success counts them, the valid one is kept', async () => {
    const before = await spanCount(t.db);
    const monthAgo = Math.floor(Date.now() / 1000) - 30 * 86_400;
    // The span as ended, with one property replaced (its own methods still there).
    const spoilt = (span: ReadableSpan, property: string, value: unknown): ReadableSpan =>
      Object.defineProperty(Object.create(span), property, { value });
    const body = sdkExport(['kept', 'zero-id', 'too-old'], (span, i) => {
      if (i === 1) return spoilt(span, 'spanContext', () => ({ ...span.spanContext(), spanId: '0000000000000000' }));
      if (i === 2) return spoilt(spoilt(span, 'startTime', [monthAgo, 0]), 'endTime', [monthAgo, 5]);
      return span;
    });
    const { error, answer } = await send(plain, body, bearer(t.checkout.token));
    expect(error).toBeNull();
    const response = ProtobufTraceSerializer.deserializeResponse(answer ?? Buffer.alloc(0));
    expect(Number(response.partialSuccess?.rejectedSpans)).toBe(2);
    expect(response.partialSuccess?.errorMessage).toMatch(/span id .*all zeros.*older than the trace retention/);
    expect(await spanCount(t.db)).toBe(before + 1);
    expect((await storedSpans(t.db, t.checkout.id)).map((r) => r.name)).toContain('kept');
  });

  it('UNAUTHENTICATED without a token, with an unknown one, or with only a forged app id; nothing stored', async () => {
    const before = await spanCount(t.db);
    const body = sdkExport(['x']);
    const attempts: Record<string, string>[] = [{}, bearer('not-a-token'), { 'x-sextant-intake-app': t.checkout.id }];
    for (const headers of attempts) {
      const { error } = await send(plain, body, headers);
      expect(error?.code, JSON.stringify(headers)).toBe(status.UNAUTHENTICATED);
    }
    expect(await spanCount(t.db)).toBe(before);
  });

  it('INVALID_ARGUMENT for a truncated message; nothing stored', async () => {
    const before = await spanCount(t.db);
    const whole = sdkExport(['a', 'b']);
    const { error } = await send(plain, whole.subarray(0, whole.length - 7), bearer(t.checkout.token));
    expect(error?.code).toBe(status.INVALID_ARGUMENT);
    expect(error?.details).toMatch(/not an ExportTraceServiceRequest/);
    expect(await spanCount(t.db)).toBe(before);
  });

  it('RESOURCE_EXHAUSTED past the limit, as sent and after decompression (a gzip bomb); no RetryInfo', async () => {
    const before = await spanCount(t.db);
    const body = sdkExport(['big']); // 2 MiB of attribute, 1 MiB allowed
    const large = await send(plain, body, bearer(t.checkout.token));
    expect(large.error?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(large.error?.details).toMatch(/larger than max/);
    // Gzipped it is a few kilobytes on the wire: refused while it inflates.
    const bomb = await send(gzip, body, bearer(t.checkout.token));
    expect(bomb.error?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(bomb.error?.details).toMatch(/decompresses to a size larger than/);
    for (const { error } of [large, bomb]) expect(error?.metadata.get('grpc-status-details-bin')).toEqual([]);
    expect(await spanCount(t.db)).toBe(before);
  });

  it('RESOURCE_EXHAUSTED with RetryInfo while the exports in progress are at the limit; the place comes back', async () => {
    const before = await spanCount(t.db);
    const body = sdkExport(['later']);
    const leave = t.app.otlpIntake.admit(); // the one place (otlpConcurrency 1) is taken
    const refused = await send(plain, body, bearer(t.checkout.token));
    leave();
    expect(refused.error?.code).toBe(status.RESOURCE_EXHAUSTED);
    const [bytes] = refused.error?.metadata.get('grpc-status-details-bin') ?? [];
    const rpcStatus = details.lookupType('Status').decode(bytes as Buffer) as unknown as {
      code: number;
      details: { type_url: string; value: Uint8Array }[];
    };
    expect(rpcStatus.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(rpcStatus.details[0]?.type_url).toBe('type.googleapis.com/google.rpc.RetryInfo');
    const retry = details
      .lookupType('RetryInfo')
      .decode(rpcStatus.details[0]?.value ?? new Uint8Array()) as unknown as {
      retry_delay: { seconds: { toString(): string } };
    };
    expect(retry.retry_delay.seconds.toString()).toBe('2');
    expect(await spanCount(t.db)).toBe(before);
    // Every refusal above gave its place back: with one place, this export still goes through.
    const { error } = await send(plain, body, bearer(t.checkout.token));
    expect(error).toBeNull();
    expect(await spanCount(t.db)).toBe(before + 1);
  });

  it('port 0 turns it off; a taken port is not fatal (the dashboard still starts)', async () => {
    expect(await listenOtlpGrpc(t.app, { port: 0, host: '127.0.0.1' })).toBeNull();
    expect(await listenOtlpGrpc(t.app, { port: listener.port, host: '127.0.0.1' })).toBeNull();
    // The first listener still answers.
    const { error } = await send(plain, sdkExport(['still']), bearer(t.checkout.token));
    expect(error).toBeNull();
  });
});
