// Trace search at scale (issue 36): 10,000,000 spans over 10 day partitions in a PostgreSQL database
// built once and kept (`KEEP_DB`), then each search the trace screen sends, called in-process through
// the traces module's read model (the database's share: no HTTP, token or JSON), RUNS times in turn,
// p50 / p99 / max wall milliseconds beside the load average, and the slowest statement's plan
// (EXPLAIN (ANALYZE, BUFFERS): rows and buffers, which depend less on the load) into bench/out/.
//
// Last runs (2026-11-29, 10M spans, load average 20-30 on 2 shared cores: read the plans' buffers
// and times more than the p99s). Before migration 0025 and the candidate change / after them:
//   24 h attribute user.id=u42:        plan 1822 ms, 36.8k buffers (27.7k read) / 19 ms, 738 hit; p99 2033 / 150 ms
//   7 d interface + errors (empty):    plan  802 ms, 17.7k buffers read        / 0.15 ms, 16 hit; p99 974 / 41 ms
//   7 d attribute + interface (empty): plan 1179 ms, 17.7k buffers read        / 33 ms, 262 hit; p99 2909 / 95 ms
//   7 d no filter, 1000 results:       plan  597-1544 ms, 33.4k buffers        / 269 ms, 10.3k hit; p99 1487 / 564 ms
//   worst p99 of the 14 searches: 2909 ms (load 28) / 812 ms (24 h service, plan 84 ms; load 26)
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { TraceSearchQuery } from '@sextant/api';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { openDatabase } from '../packages/server/src/db/client.ts';
import * as schema from '../packages/server/src/db/schema/index.ts';
import { TraceReads } from '../packages/server/src/modules/traces/reads.ts';
import { benchAppId, FULL_SPAN_SHAPE, loadSpanRows } from './gen/span-rows.ts';
import { PG_SERVER } from './throwaway-database.ts';

const DB_NAME = process.env.KEEP_DB ?? 'sextant_bench_spans';
const RUNS = Number(process.env.RUNS ?? 20);
const SCALE = Number(process.env.SCALE ?? 1);
const OUT = new URL('./out/trace-search/', import.meta.url).pathname;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function ensureDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: PG_SERVER });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [DB_NAME]);
  if (exists.rowCount === 0) await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  const url = new URL(PG_SERVER);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

const url = await ensureDatabase();
const database = await openDatabase({ url });
const present = await database.pool.query('select exists (select 1 from spans) as any');
// The data ends at the start of the current hour on the day it was built; searches are relative to it.
let endMs: number;
if (!present.rows[0].any) {
  endMs = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  const started = performance.now();
  console.log(
    `loading ${FULL_SPAN_SHAPE.days * FULL_SPAN_SHAPE.spansPerDay * SCALE} spans into ${DB_NAME} (load ${load()})`,
  );
  const n = await loadSpanRows(database.pool, {
    ...FULL_SPAN_SHAPE,
    spansPerDay: FULL_SPAN_SHAPE.spansPerDay * SCALE,
    endMs,
  });
  console.log(`loaded ${n} spans in ${((performance.now() - started) / 1000).toFixed(0)} s (load ${load()})`);
}
const range = await database.pool.query<{ last: Date }>('select max(start_time) as last from spans');
endMs = range.rows[0]?.last.getTime() ?? Date.now();
const sizes = await database.pool.query<{ spans: string; bytes: string }>(
  `select sum(c.reltuples)::bigint::text as spans, sum(pg_total_relation_size(c.oid))::text as bytes
   from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'spans'::regclass`,
);
console.log(
  `${DB_NAME}: ${sizes.rows[0]?.spans} spans (estimate), ${(Number(sizes.rows[0]?.bytes) / 2 ** 30).toFixed(2)} GiB with indexes`,
);

// The statements a search runs, captured as drizzle sends them, for EXPLAIN.
const statements: { text: string; params: unknown[] }[] = [];
const traced = drizzle(database.pool, {
  schema,
  logger: { logQuery: (text, params) => void statements.push({ text, params }) },
});
const reads = new TraceReads(traced);

const DAY = 86_400_000;
const busy = benchAppId(1);
const quiet = benchAppId(7);
type Search = Omit<TraceSearchQuery, 'from' | 'to'> & { from: Date; to: Date };
const lastDay = { from: new Date(endMs - DAY), to: new Date(endMs) };
const lastWeek = { from: new Date(endMs - 7 * DAY), to: new Date(endMs) };
const searches: [string, Search][] = [
  ['busy app, last 24 h, no filter', { appId: busy, ...lastDay, limit: 100 }],
  ['busy app, 24 h, service', { appId: busy, ...lastDay, service: 'svc-2', limit: 100 }],
  ['busy app, 24 h, interface', { appId: busy, ...lastDay, interface: 'GET /api/r8', limit: 100 }],
  ['busy app, 24 h, errors', { appId: busy, ...lastDay, status: 'error', limit: 100 }],
  ['busy app, 24 h, ok only', { appId: busy, ...lastDay, status: 'ok', limit: 100 }],
  ['busy app, 24 h, duration >= 1 s', { appId: busy, ...lastDay, minDurationMs: 1000, limit: 100 }],
  [
    'busy app, 24 h, duration 100-200 ms',
    { appId: busy, ...lastDay, minDurationMs: 100, maxDurationMs: 200, limit: 100 },
  ],
  ['busy app, 24 h, attribute user.id=u42', { appId: busy, ...lastDay, attribute: 'user.id=u42', limit: 100 }],
  ['busy app, 24 h, test case', { appId: busy, ...lastDay, testCase: 'CASE-42', limit: 100 }],
  [
    'busy app, 7 d, interface + errors',
    { appId: busy, ...lastWeek, interface: 'GET /api/r8', status: 'error', limit: 100 },
  ],
  [
    'busy app, 7 d, attribute + interface',
    { appId: busy, ...lastWeek, interface: 'GET /api/r8', attribute: 'user.id=u42', limit: 100 },
  ],
  ['busy app, 7 d, no filter, 1000 results', { appId: busy, ...lastWeek, limit: 1000 }],
  ['quiet app, 7 d, no filter', { appId: quiet, ...lastWeek, limit: 100 }],
  ['quiet app, 7 d, errors', { appId: quiet, ...lastWeek, status: 'error', limit: 100 }],
];

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
mkdirSync(OUT, { recursive: true });
console.log(`${RUNS} runs each, in turn (load ${load()})`);
const p99s: number[] = [];
for (const [label, search] of searches) {
  const times: number[] = [];
  let found = 0;
  for (let r = 0; r < RUNS; r++) {
    const started = performance.now();
    found = (await reads.search(search)).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  p99s.push(pct(times, 99));
  statements.length = 0;
  await reads.search(search);
  const statement = statements.at(-1);
  let planLine = '';
  if (statement) {
    const plan = await database.pool.query(`explain (analyze, buffers) ${statement.text}`, statement.params);
    const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
    writeFileSync(`${OUT}${label.replaceAll(/[^a-z0-9]+/gi, '-')}.txt`, `${statement.text}\n\n${text}\n`);
    const buffers = /Buffers: ([^\n]+)/.exec(text)?.[1] ?? '';
    const execution = /Execution Time: ([\d.]+)/.exec(text)?.[1] ?? '?';
    planLine = `; plan ${execution} ms, ${buffers}`;
  }
  console.log(
    `${label}: ${found} traces; p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms, max ${times.at(-1)?.toFixed(1)} ms${planLine} (load ${load()})`,
  );
}
console.log(`worst p99 ${Math.max(...p99s).toFixed(1)} ms (load ${load()})`);
await database.close();
