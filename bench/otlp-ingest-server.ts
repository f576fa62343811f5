// The OTLP ingest bench's server, in a process of its own so that its CPU is the server's alone:
// forked by bench/otlp-ingest.ts with `pglite` or a PostgreSQL URL (and by the traces' kill test,
// packages/server/test/traces/killed.test.ts, with a PGlite folder or a URL); answers IPC messages
// `cpu` (process.cpuUsage() and the span insert statements so far) and `stop`. Tells its parent its ports and the app's token.
import type { AddressInfo } from 'node:net';
import { buildApp } from '../packages/server/src/app.ts';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { seed } from '../packages/server/src/db/seed.ts';
import { startOtlpGrpc } from '../packages/server/src/modules/traces/grpc-listener.ts';
import { BENCH_ABOUT, benchConfig } from './server-config.ts';

const PASSWORD = 'bench-admin-password';
const target = process.argv[2] ?? 'pglite';
const database = await openDatabase(
  target === 'pglite' ? {} : target.startsWith('/') ? { pgliteDir: target } : { url: target },
);
database.pool.on('error', () => {});
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
await app.listen({ port: 0, host: '127.0.0.1' });
const grpc = await startOtlpGrpc(app, { port: 0, host: '127.0.0.1' });
// PGlite's socket directory, for the COPY ceiling's psql (PostgreSQL: the URL is the parent's).
const socketDir = (database.pool.options as { host?: string }).host ?? null;
process.on('message', async (message: string) => {
  if (message === 'cpu')
    process.send?.({ cpu: process.cpuUsage(), statements: app.otlpIntake.traces.writer.statements });
  if (message === 'stop') {
    await grpc.close();
    await app.close();
    await database.close();
    process.send?.({ stopped: true }, () => process.exit(0));
  }
});
process.send?.({
  port: (app.server.address() as AddressInfo).port,
  grpcPort: grpc.port,
  token: created.json().data.ingestionToken as string,
  socketDir,
});
