import { credentials, Metadata, makeGenericClientConstructor } from '@grpc/grpc-js';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { buildApp } from '../packages/server/src/app.ts';
import { type Database, openDatabase } from '../packages/server/src/db/client.ts';
import { seed } from '../packages/server/src/db/seed.ts';
import { startOtlpGrpc, TRACE_SERVICE } from '../packages/server/src/modules/traces/grpc-listener.ts';
import { decodeProtobufExport } from '../packages/server/src/modules/traces/otlp-proto.ts';
import { TracesRepository } from '../packages/server/src/modules/traces/repository.ts';
import { BENCH_ABOUT, benchConfig } from './server-config.ts';
import { onFreshPostgres } from './throwaway-database.ts';

const SECONDS = Number(process.env.SECONDS ?? 10);
const SENDERS = 8;
const BATCH = 100;
const BATCHES = 400;
const PORT = Number(process.env.PORT ?? 18530);
const PASSWORD = 'bench-admin-password';

type Bodies = { protobuf: Buffer[]; json: Buffer[] };
type Transport = 'OTLP/HTTP protobuf' | 'OTLP/HTTP JSON' | 'OTLP/gRPC';

/** Distinct 100-span exports (ids differ, so every span is a new row), serialised by the official SDK. */
function exports(): Bodies {
  const out: Bodies = { protobuf: [], json: [] };
  for (let b = 0; b < BATCHES; b++) {
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'bench', 'service.version': '1.0.0' }),
      spanProcessors: [new SimpleSpanProcessor(memory)],
    });
    const tracer = provider.getTracer('bench');
    for (let i = 0; i < BATCH; i++) {
      tracer
        .startSpan('GET /orders/:id', {
          attributes: { 'http.request.method': 'GET', 'http.route': '/orders/:id', 'test.case.id': `CASE-${i % 7}` },
        })
        .end();
    }
    out.protobuf.push(Buffer.from(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans()) ?? []));
    out.json.push(Buffer.from(JsonTraceSerializer.serializeRequest(memory.getFinishedSpans()) ?? []));
  }
  return out;
}

const TraceClient = makeGenericClientConstructor(TRACE_SERVICE, 'TraceService');
type ExportClient = { Export(body: Buffer, md: Metadata, done: (error: Error | null) => void): void; close(): void };

/** One export sent by the transport; true when it was accepted. */
type Send = (body: Buffer) => Promise<boolean>;

async function ingestRate(database: Database, bodies: Bodies, transport: Transport): Promise<number> {
  await seed(database.db, PASSWORD);
  // No job runner: its own pool would outlive the app and hold the throw-away database open.
  const app = await buildApp({ config: benchConfig(), about: BENCH_ABOUT, db: database.db, runJobs: false });
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username: 'admin', password: PASSWORD },
  });
  const admin = { authorization: `Bearer ${login.json().data.accessToken}` };
  const team = await app.inject({
    method: 'POST',
    url: '/api/teams',
    headers: admin,
    payload: { name: 'bench', memberIds: [] },
  });
  const created = await app.inject({
    method: 'POST',
    url: '/api/apps',
    headers: admin,
    payload: { teamId: team.json().data.id, name: 'bench', language: 'java', repoUrl: 'https://example.invalid/b.git' },
  });
  const token = created.json().data.ingestionToken as string;
  await app.listen({ port: PORT, host: '127.0.0.1' });
  const grpc = await startOtlpGrpc(app, { port: 0, host: '127.0.0.1' });
  const client = new TraceClient(`127.0.0.1:${grpc.port}`, credentials.createInsecure()) as unknown as ExportClient;
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  const overHttp =
    (type: string): Send =>
    async (body) => {
      const res = await fetch(`http://127.0.0.1:${PORT}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': type, authorization: `Bearer ${token}` },
        body: new Uint8Array(body),
      });
      await res.arrayBuffer();
      return res.ok;
    };
  const overGrpc: Send = (body) =>
    new Promise((resolve) => client.Export(body, metadata, (error) => resolve(error === null)));
  const send =
    transport === 'OTLP/gRPC'
      ? overGrpc
      : overHttp(transport === 'OTLP/HTTP JSON' ? 'application/json' : 'application/x-protobuf');
  const list = transport === 'OTLP/HTTP JSON' ? bodies.json : bodies.protobuf;
  let next = 0;
  let spans = 0;
  let failures = 0;
  const end = Date.now() + SECONDS * 1000;
  const sender = async () => {
    while (Date.now() < end && next < list.length) {
      if (await send(list[next++] as Buffer)) spans += BATCH;
      else failures++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: SENDERS }, sender));
  const rate = spans / ((performance.now() - started) / 1000);
  client.close();
  await grpc.close();
  await app.close();
  if (failures > 0) console.log(`  ${failures} exports refused`);
  return rate;
}

/** The same exports decoded once, then written through the repository alone: the database's share. */
async function writeRate(database: Database, bodies: Bodies): Promise<number> {
  const repository = new TracesRepository(database.db);
  const appId = '00000000-0000-4000-8000-000000000001';
  const batches = bodies.protobuf.map((body) =>
    decodeProtobufExport(body).flatMap((rs) =>
      rs.spans.map((s) => ({
        appId,
        traceId: s.traceId as string,
        spanId: s.spanId as string,
        parentSpanId: s.parentSpanId,
        name: s.name,
        kind: s.kind,
        service: 'bench',
        appVersion: '1.0.0',
        startNs: s.startNs,
        durationNs: s.endNs - s.startNs,
        statusCode: s.statusCode,
        statusMessage: '',
        interface: 'GET /orders/:id',
        exceptionType: null,
        exceptionMessage: null,
        exceptionStack: null,
        codeFunction: null,
        codeNamespace: null,
        codeFile: null,
        codeLine: null,
        testCase: 'CASE-1',
        attributes: JSON.stringify(s.attributes),
        resource: '{"service.name":"bench"}',
        events: '[]',
        links: '[]',
      })),
    ),
  );
  let next = 0;
  let spans = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < batches.length) spans += await repository.insertSpans(batches[next++] ?? []);
    }),
  );
  return spans / ((performance.now() - started) / 1000);
}

const bodies = exports();
const ENGINES = (process.env.ENGINES ?? 'pglite,postgresql').split(',');
for (const engine of (['pglite', 'postgresql'] as const).filter((e) => ENGINES.includes(e))) {
  const open = <T>(use: (d: Database) => Promise<T>) =>
    engine === 'pglite' ? openDatabase({}).then(async (d) => use(d).finally(() => d.close())) : onFreshPostgres(use);
  const figures: string[] = [];
  for (const transport of ['OTLP/HTTP protobuf', 'OTLP/HTTP JSON', 'OTLP/gRPC'] as const) {
    figures.push(`${transport} ${Math.round(await open((d) => ingestRate(d, bodies, transport)))} spans/s`);
  }
  const write = await open((d) => writeRate(d, bodies));
  console.log(`${engine}: ${figures.join('; ')}; repository unnest alone ${Math.round(write)} spans/s`);
}
