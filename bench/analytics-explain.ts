// What each analytics call costs the database, independent of the machine's load: every statement a
// call sends, run again under EXPLAIN (ANALYZE, BUFFERS) on the kept database of bench/analytics.ts
// (KEEP_DB, seeded there first), with its execution time, the buffers it touched and its plan written
// to bench/out/analytics-explain/<call>.txt. Also each call's median over RUNS sequential requests.
// Run: KEEP_DB=<name> npx tsx bench/analytics-explain.ts   (ONLY=<substring of call names>, RUNS)
// Last run (2026-11-29, PostgreSQL 100,001 reports, 534,420 case rows, the calls of analytics-calls.ts on team 2
// and app 21, RUNS=5, 2 cores at load average 17-36 shared with other sessions): before (commit 2749ad0, the
// reads over every report's case rows, the whole app list per request) -> after (app_case_method_reach,
// apps.scopeRefs, case impact in one statement). Server CPU per request (median; noisy at this load), slowest
// statement's execution time (load-dependent) and buffers (not):
//   cases/impact (one team): CPU 152 -> 27 ms; slowest 9,556 ms, 1,798,633 buffers -> 664 ms, 48,074 buffers
//   cases/impact (one app): CPU 76 -> 15 ms; slowest 188 ms, 46,043 buffers -> 30 ms, 1,219 buffers
//   cases/methods (one app, one case): slowest 49.6 ms, 3,408 buffers -> 1.7 ms, 446 buffers
//   cases (one team): slowest 437 ms, 50,765 buffers -> 234 ms, 10,253 buffers
//   every call: one statement fewer (the app list's count), the scope read as id, name and team only.
//   Unchanged and over 100 ms of execution at this load: apps versions page over every app (2,942 buffers,
//   3.3-4.1 s: an aggregate over the 100,000 reports), committers every app (1.9-2.5 s), projects every project
//   (1.9 s), cockpit every app (0.7-0.9 s), mine every app (0.5 s); these need per-app-version summaries.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { buildApp } from '../packages/server/src/app.ts';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { analyticsCalls } from './analytics-calls.ts';
import { BENCH_ABOUT, benchConfig } from './server-config.ts';
import { PG_SERVER } from './throwaway-database.ts';

const NAME = process.env.KEEP_DB;
if (!NAME) throw new Error('KEEP_DB names the database bench/analytics.ts seeded');
const RUNS = Number(process.env.RUNS ?? 5);
const ONLY = process.env.ONLY;
const OUT = new URL('./out/analytics-explain/', import.meta.url);
mkdirSync(OUT, { recursive: true });

const url = new URL(PG_SERVER);
url.pathname = `/${NAME}`;
const database = await openDatabase({ url: url.toString() });
const app = await buildApp({ config: benchConfig(), about: BENCH_ABOUT, db: database.db, runJobs: false });
const login = await app.inject({
  method: 'POST',
  url: '/api/login',
  payload: { username: 'admin', password: 'bench-admin-password' },
});
const token = login.json().data.accessToken as string;
const calls = await analyticsCalls(database.pool);

type Sent = { text: string; values: unknown[] };
let sent: Sent[] = [];
const pool = database.pool as unknown as { query: (...a: unknown[]) => unknown };
const query = pool.query.bind(pool);
pool.query = (...a: unknown[]) => {
  const [first, second] = a as [string | { text: string; values?: unknown[] }, unknown];
  if (typeof first === 'string') sent.push({ text: first, values: Array.isArray(second) ? second : [] });
  else if (first && typeof first === 'object')
    sent.push({ text: first.text, values: first.values ?? (Array.isArray(second) ? second : []) });
  return query(...a);
};

const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)] ?? 0;
process.stdout.write(
  `| call | median ms (${RUNS} sequential) | server CPU ms (median) | statements | slowest statement: exec ms, buffers hit+read | load |\n|---|---|---|---|---|---|\n`,
);
for (const [call, path] of Object.entries(calls)) {
  if (ONLY && !call.includes(ONLY)) continue;
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    sent = [];
    const t = performance.now();
    const c = process.cpuUsage();
    const res = await app.inject({ url: path, headers: { authorization: `Bearer ${token}` } });
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    times.push(performance.now() - t);
    if (res.statusCode !== 200) throw new Error(`${call}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  const statements = sent.filter((s) => /^\s*(with|select)/i.test(s.text));
  const plans: string[] = [];
  let slowest = { ms: 0, buffers: 0 };
  for (const s of statements) {
    const { rows } = (await query(`explain (analyze, buffers, format json) ${s.text}`, s.values)) as {
      rows: { 'QUERY PLAN': unknown }[];
    };
    const plans0 = rows[0]?.['QUERY PLAN'] as { Plan: Record<string, number>; 'Execution Time': number }[] | undefined;
    const plan = plans0?.[0];
    const buffers = Number(plan?.Plan['Shared Hit Blocks'] ?? 0) + Number(plan?.Plan['Shared Read Blocks'] ?? 0);
    const ms = plan?.['Execution Time'] ?? 0;
    if (ms > slowest.ms) slowest = { ms, buffers };
    const { rows: text } = (await query(`explain (analyze, buffers) ${s.text}`, s.values)) as {
      rows: { 'QUERY PLAN': string }[];
    };
    plans.push(
      `-- ${ms.toFixed(1)} ms, ${buffers} buffers\n${s.text}\n-- params ${JSON.stringify(s.values).slice(0, 300)}\n${text.map((r) => r['QUERY PLAN']).join('\n')}\n`,
    );
  }
  writeFileSync(new URL(`${call.replace(/[^a-z0-9]+/gi, '-')}.txt`, OUT), plans.join('\n'));
  process.stdout.write(
    `| ${call} | ${median(times).toFixed(1)} | ${median(cpu).toFixed(1)} | ${statements.length} | ${slowest.ms.toFixed(1)} ms, ${slowest.buffers} | ${loadavg()[0]?.toFixed(2)} |\n`,
  );
}
await app.close();
await database.close();
