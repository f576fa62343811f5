// GET /api/me under 50 connections (autocannon in a child process, so it does not share our event loop),
// on PGlite (worker thread behind pglite-socket) and on PostgreSQL, idle, beside a repeated 1M-row GROUP BY,
// and while a 20,000-class report is written by generateReport again and again (issue 41: on PGlite no
// request may wait behind a report's write for more than 200 ms; the write is staged and swapped).
// Run: npx tsx bench/api-me.ts   (CLASSES=20000 by default; ENGINES=pglite,postgresql)
// Last run (PGlite, 2 shared cores, load 9.1–9.5): p99 76 ms idle, 283 ms while the report is written
// (1,229 req/s); the write's longest hold 26 ms of engine CPU (230 ms wall at that load), its swap
// transaction 8 statements, 8 ms of CPU. Before issue 41's chunked ids, batched risk writes and unzeroed
// WAL segments, the same day at load 17.5: p99 2,031 ms, longest holds 100–475 ms wall of single statements.
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { buildApp } from '../packages/server/src/app.ts';
import type { Database } from '../packages/server/src/db/client.ts';
import { seed } from '../packages/server/src/db/seed.ts';
import { generateReport } from '../packages/server/src/modules/reports/generate/index.ts';
import { syntheticCoverage } from './gen/synthetic-coverage.ts';
import { printHolds, summariseHolds } from './holds.ts';
import { BENCH_ABOUT, benchConfig } from './server-config.ts';
import { onFreshPglite, onFreshPostgres } from './throwaway-database.ts';

const run = promisify(execFile);
const SECONDS = 10;
const PASSWORD = 'bench-admin-password';

type Row = { engine: string; load: string; rps: number; p99: number; errors: number; loadavg: string };
const CLASSES = Number(process.env.CLASSES ?? 20_000);
const ENGINES = (process.env.ENGINES ?? 'pglite,postgresql').split(',');

async function measure(url: string, token: string): Promise<Omit<Row, 'engine' | 'load'>> {
  const { stdout } = await run(
    'npx',
    ['autocannon', '-c', '50', '-d', String(SECONDS), '-j', '-H', `authorization=Bearer ${token}`, url],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const r = JSON.parse(stdout);
  const loadNow = loadavg()[0]?.toFixed(1) ?? '?';
  return { rps: Math.round(r.requests.average), p99: r.latency.p99, errors: r.errors + r.non2xx, loadavg: loadNow };
}

async function bench(engine: string, database: Database): Promise<Row[]> {
  await seed(database.db, PASSWORD);
  await database.pool.query('create table if not exists bench_rows (k int not null, v double precision not null)');
  await database.pool.query('insert into bench_rows select g, random() from generate_series(1, 1000000) g');
  const app = await buildApp({
    config: benchConfig({ accessTokenTtl: 900 }),
    about: BENCH_ABOUT,
    db: database.db,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username: 'admin', password: PASSWORD },
  });
  const token = login.json().data.accessToken as string;
  const rows: Row[] = [];
  rows.push({ engine, load: 'idle', ...(await measure(`${address}/api/me`, token)) });
  let aggregates = 0;
  let running = true;
  const heavy = (async () => {
    while (running) {
      await database.pool.query('select k % 1000 as bucket, count(*), avg(v) from bench_rows group by 1');
      aggregates++;
    }
  })();
  rows.push({ engine, load: 'beside 1M-row GROUP BY', ...(await measure(`${address}/api/me`, token)) });
  running = false;
  await heavy;
  process.stdout.write(`${engine}: ${aggregates} aggregates completed during the loaded run\n`);
  rows.push({
    engine,
    load: `while a ${CLASSES}-class report is written`,
    ...(await besideReport(database, address, token)),
  });
  await app.close();
  return rows;
}

/** /api/me measured while generateReport writes a report of CLASSES classes (6 methods each) in a loop. */
async function besideReport(database: Database, address: string, token: string) {
  const { rows } = await database.pool.query(`insert into teams (name) values ('bench-team') returning id`);
  const app = await database.pool.query(
    `insert into apps (team_id, name, language, repo_url, default_branch, coverage_source, ingestion_token_hash)
     values ($1, 'bench-app', 'java', 'https://example.test/r.git', 'main', 'upload', 'bench-hash') returning id`,
    [rows[0].id],
  );
  const appId = app.rows[0].id as string;
  const report = await database.pool.query(
    `insert into reports (app_id, name, base_version, new_version, env_type, test_type, coverage_type)
     values ($1, 'large', 'base', 'head', 'test', 1, 'full') returning id`,
    [appId],
  );
  const coverage = syntheticCoverage(CLASSES / 2, 6);
  const input = {
    reportId: report.rows[0].id as string,
    appId,
    version: 'head',
    newCommit: 'head',
    coverageType: 'full' as const,
    coverage,
    diff: null,
    changes: null,
    requirements: [],
    passingGrade: 0.6,
  };
  const writes: number[] = [];
  await database.takeHolds?.();
  let running = true;
  const writer = (async () => {
    while (running) {
      const started = performance.now();
      await generateReport(database.db, input);
      writes.push(performance.now() - started);
    }
  })();
  const figures = await measure(`${address}/api/me`, token);
  running = false;
  await writer;
  const mean = writes.reduce((a, b) => a + b, 0) / Math.max(1, writes.length);
  process.stdout.write(
    `${writes.length} reports of ${CLASSES} classes written, ${mean.toFixed(0)} ms each on average\n`,
  );
  if (database.takeHolds) printHolds('PGlite holds while writing', summariseHolds(await database.takeHolds()));
  return figures;
}

const withPglite = () => onFreshPglite((database) => bench('PGlite (worker)', database), { traceHolds: true });
const withPostgres = () => onFreshPostgres((database) => bench('PostgreSQL 15', database));

const rows = [
  ...(ENGINES.includes('pglite') ? await withPglite() : []),
  ...(ENGINES.includes('postgresql') ? await withPostgres() : []),
];
process.stdout.write(`\nGET /api/me, 50 connections, ${SECONDS} s each\n`);
process.stdout.write('| engine | beside | req/s | p99 ms | errors | load avg |\n|---|---|---|---|---|---|\n');
for (const r of rows) {
  process.stdout.write(`| ${r.engine} | ${r.load} | ${r.rps} | ${r.p99} | ${r.errors} | ${r.loadavg} |\n`);
}
