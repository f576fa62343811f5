// The risk burn-down read (issue 35: the cockpit's and app analytics' burn-down) over 100,000 risk items
// of 1,000 apps with 180,000 history transitions, on PostgreSQL (and PGlite with TARGETS=pglite): the
// read alone, called one after another, for every app (the cockpit unfiltered), one team (100 apps) and
// one app, two ways in the same run: from the per-app and per-day counts the triggers keep
// (risk_open_days, migration 0022: what the screens read) and from the transitions themselves (the read
// before it, still used with a test type or version); beside the timings, EXPLAIN's rows and buffers of
// each way's range read, which do not depend on the machine's load.
// Run: npx tsx bench/risk-burn-down.ts   (APPS, ITEMS, CALLS, TARGETS change the defaults)
// Last run (2026-11-29, PostgreSQL, CALLS=15, 2 cores at load average 28): every app 1,194 ms p50 from the
// history (120,000 rows, 3,932 buffers) against 68 ms from risk_open_days (1,050 rows, 11 buffers); one
// team 419 against 24 ms (11,100 rows, 43,340 buffers against 94 rows, 11 buffers); one app 28 against 20 ms.
import { cpus, loadavg } from 'node:os';
import type { Database } from '../packages/server/src/db/client.ts';
import { riskBurnDown } from '../packages/server/src/modules/risks/burn-down.ts';

type Source = 'history' | 'kept';

import { onFreshPglite, onFreshPostgres } from './throwaway-database.ts';

const APPS = Number(process.env.APPS ?? 1000);
const ITEMS = Number(process.env.ITEMS ?? 100_000);
const CALLS = Number(process.env.CALLS ?? 40);

type Row = {
  engine: string;
  scope: string;
  source: string;
  p50: number;
  p99: number;
  rows: string;
  buffers: string;
  load: string;
};

/** 1,000 apps of 10 teams; 100 items per app opened over 40 days; four in five moved on a day later. */
async function fill(database: Database): Promise<void> {
  const { pool } = database;
  await pool.query(`insert into teams (name) select 'team-' || g from generate_series(1, 10) g`);
  await pool.query(
    `insert into apps (team_id, name, language, repo_url, default_branch, coverage_source, ingestion_token_hash)
     select (select id from teams order by name offset (g % 10) limit 1), 'app-' || g, 'java',
            'https://example.test/' || g || '.git', 'main', 'upload', 'hash-' || g
     from generate_series(1, $1::int) g`,
    [APPS],
  );
  await pool.query(
    `insert into risk_items (app_id, test_type, version, class_name, method_name, file_path, line_covered, line_total,
       state, judgment, created_at)
     select a.id, 1 + (g % 2), 'v' || (g % 4), 'pkg/Class' || (g % 50), 'method' || g, 'src/C' || (g % 50) || '.java',
            g % 7, 10, (array['observing','observing','pending','judged','resolved'])[1 + g % 5],
            case when g % 5 = 3 then 'accepted' end, now() - (g % 40) * interval '1 day'
     from generate_series(1, $1::int) g
     join (select id, row_number() over (order by id) - 1 as n from apps) a on a.n = g % $2::int`,
    [ITEMS, APPS],
  );
  await pool.query(`insert into risk_item_history (risk_item_id, at, from_state, to_state)
    select id, created_at, null, 'observing' from risk_items`);
  await pool.query(`insert into risk_item_history (risk_item_id, at, from_state, to_state, judgment)
    select id, created_at + interval '1 day', 'observing', state, judgment from risk_items where state <> 'observing'`);
  await pool.query('vacuum analyze');
}

async function explain(
  database: Database,
  appIds: string[],
  source: Source,
): Promise<{ rows: string; buffers: string }> {
  // The read's range part (the default 30 days) with the scope's app ids, as EXPLAIN counts it.
  const { rows } = await database.pool.query(
    source === 'history'
      ? `explain (analyze, buffers, format json) select h.risk_item_id, h.at, h.id
     from risk_item_history h join risk_items i on i.id = h.risk_item_id
       join unnest($1::uuid[]) as s(app_id) on s.app_id = i.app_id
     where h.at >= current_date - 29`
      : `explain (analyze, buffers, format json) select d.day, d.opened, d.closed
     from risk_open_days d join unnest($1::uuid[]) as s(app_id) on s.app_id = d.app_id
     where d.day >= current_date - 29`,
    [`{${appIds.join(',')}}`],
  );
  const plan = (rows[0] as { 'QUERY PLAN': { Plan: Record<string, number> }[] })['QUERY PLAN'][0]?.Plan ?? {};
  return {
    rows: String(plan['Actual Rows'] ?? '?'),
    buffers: `${(plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0)}`,
  };
}

async function bench(engine: string, database: Database): Promise<Row[]> {
  const started = Date.now();
  await fill(database);
  process.stdout.write(`${engine}: ${ITEMS} items over ${APPS} apps written in ${Date.now() - started} ms\n`);
  const apps = (await database.pool.query<{ id: string; team_id: string }>('select id, team_id from apps')).rows;
  const team = apps[0]?.team_id;
  const scopes = {
    'every app (cockpit)': apps.map((a) => a.id),
    'one team (100 apps)': apps.filter((a) => a.team_id === team).map((a) => a.id),
    'one app': apps.slice(0, 1).map((a) => a.id),
  };
  const out: Row[] = [];
  for (const [scope, appIds] of Object.entries(scopes)) {
    for (const source of ['history', 'kept'] as const) {
      await riskBurnDown(database.db, { appIds }, 30, source);
      const times: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const t0 = performance.now();
        await riskBurnDown(database.db, { appIds }, 30, source);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0);
      out.push({
        engine,
        scope,
        source: source === 'kept' ? 'risk_open_days' : 'history',
        p50: at(0.5),
        p99: at(0.99),
        ...(await explain(database, appIds, source)),
        load: loadavg()[0]?.toFixed(1) ?? '?',
      });
    }
  }
  return out;
}

const targets = process.env.TARGETS?.split(',') ?? ['postgres'];
const rows = [
  ...(targets.includes('postgres') ? await onFreshPostgres((d) => bench('PostgreSQL', d)) : []),
  ...(targets.includes('pglite') ? await onFreshPglite((d) => bench('PGlite', d)) : []),
];
process.stdout.write(`\nrisk burn-down, ${CALLS} calls one after another; ${cpus().length} cores\n`);
process.stdout.write('| engine | scope | read from | p50 ms | p99 ms | rows read | buffers | load (1 min) |\n');
process.stdout.write('|---|---|---|---|---|---|---|---|\n');
for (const r of rows) {
  process.stdout.write(
    `| ${r.engine} | ${r.scope} | ${r.source} | ${r.p50} | ${r.p99} | ${r.rows} | ${r.buffers} | ${r.load} |\n`,
  );
}
