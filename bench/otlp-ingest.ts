import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { buildApp } from '../packages/server/src/app.ts';
import { type Database, openDatabase } from '../packages/server/src/db/client.ts';
import { seed } from '../packages/server/src/db/seed.ts';
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

/** Distinct 100-span exports (ids differ, so every span is a new row), serialised by the official SDK. */
function exports(): Buffer[] {
  const out: Buffer[] = [];
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
    out.push(Buffer.from(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans()) ?? []));
  }
  return out;
}

async function ingestRate(database: Database, bodies: Buffer[]): Promise<number> {
  await seed(database.db, PASSWORD);
  const app = await buildApp({ config: benchConfig(), about: BENCH_ABOUT, db: database.db });
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
  let next = 0;
  let spans = 0;
  let failures = 0;
  const end = Date.now() + SECONDS * 1000;
  const sender = async () => {
    while (Date.now() < end && next < bodies.length) {
      const body = bodies[next++] as Buffer;
      const res = await fetch(`http://127.0.0.1:${PORT}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-protobuf', authorization: `Bearer ${token}` },
        body: new Uint8Array(body),
      });
      await res.arrayBuffer();
      if (res.ok) spans += BATCH;
      else failures++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: SENDERS }, sender));
  const rate = spans / ((performance.now() - started) / 1000);
  await app.close();
  if (failures > 0) console.log(`  ${failures} exports refused`);
  return rate;
}

/** The same exports decoded once, then written through the repository alone: the database's share. */
async function writeRate(database: Database, bodies: Buffer[]): Promise<number> {
  const repository = new TracesRepository(database.db);
  const appId = '00000000-0000-4000-8000-000000000001';
  const batches = bodies.map((body) =>
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
for (const engine of ['pglite', 'postgresql'] as const) {
  const open = <T>(use: (d: Database) => Promise<T>) =>
    engine === 'pglite' ? openDatabase({}).then(async (d) => use(d).finally(() => d.close())) : onFreshPostgres(use);
  const ingest = await open((d) => ingestRate(d, bodies));
  const write = await open((d) => writeRate(d, bodies));
  console.log(
    `${engine}: OTLP/HTTP protobuf ${Math.round(ingest)} spans/s; repository unnest alone ${Math.round(write)} spans/s`,
  );
}
