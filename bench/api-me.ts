// GET /api/me under 50 connections (autocannon in a child process, so it does not share our event loop),
// on PGlite (worker thread behind pglite-socket) and on PostgreSQL, idle and beside a repeated 1M-row GROUP BY.
// Run: npx tsx bench/api-me.ts
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildApp } from '../packages/server/src/app.ts';
import type { Database } from '../packages/server/src/db/client.ts';
import { seed } from '../packages/server/src/db/seed.ts';
import { BENCH_ABOUT, benchConfig } from './server-config.ts';
import { onFreshPglite, onFreshPostgres } from './throwaway-database.ts';

const run = promisify(execFile);
const SECONDS = 10;
const PASSWORD = 'bench-admin-password';

type Row = { engine: string; load: string; rps: number; p99: number; errors: number };

async function measure(url: string, token: string): Promise<{ rps: number; p99: number; errors: number }> {
  const { stdout } = await run(
    'npx',
    ['autocannon', '-c', '50', '-d', String(SECONDS), '-j', '-H', `authorization=Bearer ${token}`, url],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const r = JSON.parse(stdout);
  return { rps: Math.round(r.requests.average), p99: r.latency.p99, errors: r.errors + r.non2xx };
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
  await app.close();
  return rows;
}

const withPglite = () => onFreshPglite((database) => bench('PGlite (worker)', database));
const withPostgres = () => onFreshPostgres((database) => bench('PostgreSQL 15', database));

const rows = [...(await withPglite()), ...(await withPostgres())];
process.stdout.write(`\nGET /api/me, 50 connections, ${SECONDS} s each\n`);
process.stdout.write('| engine | load | req/s | p99 ms | errors |\n|---|---|---|---|---|\n');
for (const r of rows) process.stdout.write(`| ${r.engine} | ${r.load} | ${r.rps} | ${r.p99} | ${r.errors} |\n`);
