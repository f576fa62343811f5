// The analytics read models (issue 35) under 50 connections (autocannon in a child process), over
// 100,000 reports with 5,200,000 class and method rows (bench/gen/report-rows.ts) and the committer
// summaries the pipeline writes for their incremental reports (4 authors each), on PostgreSQL and on
// PGlite, the same rows and calls. The reads never touch the method rows: that is the summaries' point.
// Goal (issue 35): p99 under 100 ms on PostgreSQL.
// Run: npx tsx bench/analytics.ts   (SCALE=0.05 for a quick trial, SECONDS per call, TARGETS, PORT)
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type pg from 'pg';
import { buildApp } from '../packages/server/src/app.ts';
import type { Database } from '../packages/server/src/db/client.ts';
import { seed } from '../packages/server/src/db/seed.ts';
import { FULL_SHAPE, loadReportRows } from './gen/report-rows.ts';
import { BENCH_ABOUT, benchConfig } from './server-config.ts';
import { onFreshPglite, onFreshPostgres } from './throwaway-database.ts';

const run = promisify(execFile);
const SCALE = Number(process.env.SCALE ?? 1);
const SECONDS = Number(process.env.SECONDS ?? 10);
const PORT = Number(process.env.PORT ?? 18410);
const PASSWORD = 'bench-admin-password';
const shape = {
  ...FULL_SHAPE,
  apps: Math.max(10, Math.round(FULL_SHAPE.apps * SCALE)),
  reports: Math.round(FULL_SHAPE.reports * SCALE),
  largeReportClasses: Math.round(FULL_SHAPE.largeReportClasses * SCALE),
};

type Row = { engine: string; call: string; rps: number; p50: number; p99: number; errors: number };

async function measure(url: string, token: string) {
  const { stdout } = await run(
    'npx',
    ['autocannon', '-c', '50', '-d', String(SECONDS), '-j', '-H', `authorization=Bearer ${token}`, url],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const r = JSON.parse(stdout);
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/** Four blame authors per incremental report, as generation writes them (report_committers). */
async function fillCommitters(pool: pg.Pool): Promise<number> {
  const result = await pool.query(`insert into report_committers
      (report_id, author, changed_methods, measured_methods, covered_methods, line_covered, line_total)
    select r.id, 'Dev ' || ((n + a) % 40) || ' <dev' || ((n + a) % 40) || '@example.test>', 3 + (n + a) % 9,
      3 + (n + a) % 9, (n * 7 + a) % (3 + (n + a) % 9), (n * 13 + a) % 40, 40
    from (select id, row_number() over (order by id) as n from reports where coverage_type = 'incremental') r,
      generate_series(1, 4) a`);
  await pool.query('analyze report_committers');
  return result.rowCount ?? 0;
}

async function bench(engine: string, database: Database): Promise<Row[]> {
  await seed(database.db, PASSWORD);
  const started = Date.now();
  const loaded = await loadReportRows(database.pool, shape);
  const committers = await fillCommitters(database.pool);
  process.stdout.write(
    `${engine}: ${loaded.reports} reports, ${loaded.details} detail rows, ${committers} committer rows in ${Date.now() - started} ms\n`,
  );
  const app = await buildApp({ config: benchConfig(), about: BENCH_ABOUT, db: database.db, runJobs: false });
  const address = await app.listen({ port: PORT, host: '127.0.0.1' });
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username: 'admin', password: PASSWORD },
  });
  const token = login.json().data.accessToken as string;
  const team = (await database.pool.query(`select md5('t1')::uuid as id`)).rows[0].id as string;
  const calls = {
    'committers (every app, by uncovered)': '/api/analytics/committers?sortBy=uncoveredMethods&sortDesc=true',
    'committers (one team, unit tests)': `/api/analytics/committers?teamId=${team}&testType=1`,
    'committer trend (one team)': `/api/analytics/committers/trend?teamId=${team}`,
    'app versions (one team, page 1)': `/api/analytics/apps?teamId=${team}`,
    'app overview (one team)': `/api/analytics/apps/overview?teamId=${team}`,
    'versions (one team)': `/api/analytics/versions?teamId=${team}`,
    'cockpit (every app)': '/api/analytics/cockpit',
  };
  const rows: Row[] = [];
  for (const [call, path] of Object.entries(calls))
    rows.push({ engine, call, ...(await measure(address + path, token)) });
  await app.close();
  return rows;
}

const targets = process.env.TARGETS?.split(',') ?? ['postgres', 'pglite'];
const rows = [
  ...(targets.includes('postgres') ? await onFreshPostgres((d) => bench('PostgreSQL', d)) : []),
  ...(targets.includes('pglite') ? await onFreshPglite((d) => bench('PGlite (worker)', d)) : []),
];
process.stdout.write(
  `\n${shape.reports} reports, ${shape.apps} apps, 50 connections, ${SECONDS} s each (admin: every app)\n`,
);
process.stdout.write('| engine | call | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|---|\n');
for (const r of rows)
  process.stdout.write(`| ${r.engine} | ${r.call} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} |\n`);
