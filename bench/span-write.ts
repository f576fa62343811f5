// The span write alone (issue 36): the unnest insert against COPY, on each engine, for the rows of
// bench/otlp-ingest.ts's exports in 5,000-row statements into a freshly truncated table, best of ROUNDS.
// - PGlite, in this process (no socket, so both ways pay the same): the unnest insert the server
//   uses there against PGlite's own `COPY ... FROM '/dev/blob'` (rows passed as a Blob). CPU of this
//   process (PGlite's WebAssembly runs on this thread).
// - PostgreSQL (a throw-away database): the repository's unnest insert against its COPY FROM STDIN;
//   CPU of this process (building and sending) and of the backend (/proc).
// CPU milliseconds per 1,000 spans depend far less on the machine's load than the rates beside them.
//
// Last run (2026-11-29, 20,000 spans, load average 29-33 on 2 shared cores, so read the CPU figures):
//   PGlite unnest insert:        115.5 ms CPU per 1,000 spans (before migration 0025)
//   PGlite COPY FROM /dev/blob:   70.7 ms CPU — 39 % less; the server does not use it yet (it would
//     have to run in PGlite's worker between other connections' transactions, not inside one)
//   PostgreSQL unnest insert:     49.7 ms CPU here + 43.0 ms backend
//   PostgreSQL COPY FROM STDIN:   11.5 ms CPU here + 20.0 ms backend (what the server now does)
//   the same COPY without the GIN index on attributes (WITHOUT=spans_attributes): 11.7 + 17.0 ms
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import { DEFAULT_SETTINGS } from '@sextant/api';
import { drizzle as nodePgDrizzle } from 'drizzle-orm/node-postgres';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type Db, openDatabase } from '../packages/server/src/db/client.ts';
import * as schema from '../packages/server/src/db/schema/index.ts';
import { decodeProtobufExport } from '../packages/server/src/modules/traces/otlp-proto.ts';
import { type SpanRow, TracesRepository } from '../packages/server/src/modules/traces/repository.ts';
import { TracesService } from '../packages/server/src/modules/traces/service.ts';
import { copyBody, SPAN_COPY_COLUMNS } from '../packages/server/src/modules/traces/span-copy.ts';
import { otlpExports } from './otlp-exports.ts';
import { throwawayPostgres } from './throwaway-database.ts';

const EXPORTS = Number(process.env.EXPORTS ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const STATEMENT_ROWS = Number(process.env.STATEMENT_ROWS ?? 5000);
const ENGINES = (process.env.ENGINES ?? 'pglite,postgresql').split(',');
/** `WITHOUT=spans_attributes,...`: indexes dropped after migrating, to see what each costs the write. */
const WITHOUT = (process.env.WITHOUT ?? '').split(',').filter((name) => /^\w+$/.test(name));
const dropIndexes = WITHOUT.map((name) => `drop index if exists ${name};`).join('\n');

const rows: SpanRow[] = [];
const collect = { insertSpans: async (r: SpanRow[]) => rows.push(...r) } as unknown as TracesRepository;
const service = new TracesService(collect, async () => DEFAULT_SETTINGS, 1000);
for (const body of otlpExports(EXPORTS, 100).protobuf)
  await service.ingest('00000000-0000-4000-8000-000000000001', decodeProtobufExport(body));

type Way = [label: string, write: (batch: SpanRow[]) => Promise<unknown>];
type Engine = {
  ways: Way[];
  reset: () => Promise<void>;
  count: () => Promise<number>;
  backendMs: () => Promise<number>;
};

async function measure(engine: string, e: Engine): Promise<void> {
  const best = new Map<string, { cpu: number; db: number; wall: number }>();
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [label, write] of e.ways) {
      await e.reset();
      const db0 = await e.backendMs();
      const cpu0 = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < rows.length; i += STATEMENT_ROWS) await write(rows.slice(i, i + STATEMENT_ROWS));
      const wall = performance.now() - started;
      const used = process.cpuUsage(cpu0);
      const db = (await e.backendMs()) - db0;
      const stored = await e.count();
      if (stored !== rows.length) throw new Error(`${engine} ${label}: ${stored} of ${rows.length} rows stored`);
      // Round 0 warms up (JIT, the day's partition) and is not counted.
      if (round === 0) continue;
      const perK = (ms: number) => ms / (rows.length / 1000);
      const now = { cpu: perK((used.user + used.system) / 1000), db: perK(db), wall: perK(wall) };
      const was = best.get(label);
      if (!was || now.cpu + now.db < was.cpu + was.db) best.set(label, now);
    }
  }
  for (const [label, f] of best)
    console.log(
      `${engine} ${label}${WITHOUT.length ? ` without ${WITHOUT.join(', ')}` : ''}: per 1,000 spans ${f.cpu.toFixed(1)} ms CPU here${engine === 'PostgreSQL' ? ` + ${f.db.toFixed(1)} ms backend` : ''}, ${f.wall.toFixed(1)} ms wall (${Math.round(1_000_000 / f.wall)} spans/s; best of ${ROUNDS}, ${rows.length} spans in ${STATEMENT_ROWS}-row statements; load ${loadavg()[0]?.toFixed(1)})`,
    );
}

if (ENGINES.includes('pglite')) {
  const pglite = await PGlite.create();
  const db = drizzle(pglite, { schema });
  await migrate(db, { migrationsFolder: new URL('../packages/server/src/db/migrations', import.meta.url).pathname });
  await pglite.exec(dropIndexes);
  const repository = new TracesRepository(db as unknown as Db);
  const COPY = `copy spans (${SPAN_COPY_COLUMNS.join(', ')}) from '/dev/blob'`;
  await measure('PGlite', {
    ways: [
      ['unnest insert', (batch) => repository.insertSpans(batch)],
      ['COPY FROM /dev/blob', (batch) => pglite.query(COPY, [], { blob: new Blob([copyBody(batch)]) })],
    ],
    reset: async () => void (await pglite.exec('truncate spans')),
    count: async () => (await pglite.query<{ n: number }>('select count(*)::int as n from spans')).rows[0]?.n ?? 0,
    backendMs: async () => 0,
  });
  await pglite.close();
}

if (ENGINES.includes('postgresql')) {
  const fresh = await throwawayPostgres();
  const database = await openDatabase({ url: fresh.url });
  database.pool.on('error', () => {});
  if (dropIndexes) await database.pool.query(dropIndexes);
  // One connection, so that its backend's /proc figures are all the writes' database CPU.
  const pool = new pg.Pool({ connectionString: fresh.url, max: 1 });
  const single = { pool, db: nodePgDrizzle(pool, { schema }) };
  const pid = (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
  const backendMs = async () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  try {
    const unnest = new TracesRepository(single.db, null);
    const copy = new TracesRepository(single.db, single.pool);
    await measure('PostgreSQL', {
      ways: [
        ['unnest insert', (batch) => unnest.insertSpans(batch)],
        ['COPY FROM STDIN', (batch) => copy.insertSpans(batch)],
      ],
      reset: async () => void (await single.pool.query('truncate spans')),
      count: async () => Number((await single.pool.query('select count(*) as n from spans')).rows[0].n),
      backendMs,
    });
  } finally {
    await pool.end();
    await database.close();
    await fresh.drop();
  }
}
