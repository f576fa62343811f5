import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Db = NodePgDatabase<typeof schema>;
export type Database = {
  db: Db;
  pool: pg.Pool;
  close: () => Promise<void>;
  /** Embedded only: writes the whole database to a file that `loadFrom` can start another from. */
  dumpTo?: (file: string) => Promise<void>;
  /** Embedded, opened with `traceHolds`: how long connections kept the engine to themselves since the last call. */
  takeHolds?: () => Promise<Hold[]>;
};

/** One stretch during which a single connection had PGlite to itself (`db/pglite-holds.mjs`). */
export type Hold = {
  ms: number;
  busyMs: number;
  cpuMs: number;
  statements: number;
  /** Its distinct statement texts (the first 20), each shortened to 100 characters. */
  sql: string[];
};

const MIGRATIONS = new URL('./migrations', import.meta.url).pathname;

/** The pools that reach PGlite through pglite-socket, which carries no COPY FROM STDIN. */
const EMBEDDED_POOLS = new WeakSet<pg.Pool>();

/** The pool of `db` when it reaches a PostgreSQL server, where COPY FROM STDIN can be sent; else null. */
export function copyPool(db: Db): pg.Pool | null {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool && !EMBEDDED_POOLS.has(client) ? client : null;
}

/**
 * One driver (node-postgres) for both engines. Without a URL, PGlite runs in a worker thread behind
 * pglite-socket. CAVEAT: pglite-socket gives one connection exclusive use while it is inside a
 * transaction — another pool client's query waits until COMMIT — so never await a query on another
 * pool connection inside a transaction (it would deadlock).
 */
export async function openDatabase(opts: {
  url?: string;
  pgliteDir?: string;
  loadFrom?: string;
  /** Embedded only: record each connection's hold on the engine (benches and tests; see `takeHolds`). */
  traceHolds?: boolean;
}): Promise<Database> {
  if (opts.url) {
    // No JIT: the reads are short, and an over-estimated plan (the analytics' CTEs) spent seconds
    // compiling for a query that runs in milliseconds (bench/analytics-explain.ts). Set before the
    // pool hands the new connection out.
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: 10,
      onConnect: async (client) => {
        await client.query('set jit = off');
      },
    });
    return finish(pool, async () => pool.end(), true);
  }
  if (opts.pgliteDir && !opts.loadFrom) await initialiseApart(opts.pgliteDir);
  const sockDir = mkdtempSync(join(tmpdir(), 'sx-'));
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: {
      dataDir: opts.pgliteDir ?? 'memory://',
      socketPath: join(sockDir, '.s.PGSQL.5432'),
      loadFrom: opts.loadFrom,
      traceHolds: opts.traceHolds ?? false,
    },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', () => resolve());
  });
  const pool = new pg.Pool({ host: sockDir, user: 'postgres', database: 'postgres', max: 10 });
  EMBEDDED_POOLS.add(pool);
  const dumpTo = async (file: string) => {
    const dumped = new Promise((resolve) => worker.once('message', resolve));
    worker.postMessage({ dumpTo: file });
    await dumped;
  };
  const takeHolds = async () => {
    const taken = new Promise<{ holds: Hold[] }>((resolve) => worker.once('message', resolve));
    worker.postMessage({ takeHolds: true });
    return (await taken).holds;
  };
  const database = await finish(pool, async () => {
    await pool.end();
    const stopped = new Promise((resolve) => worker.once('message', resolve));
    worker.postMessage({ stop: true });
    await stopped;
    await worker.terminate();
    rmSync(sockDir, { recursive: true, force: true });
  });
  return { ...database, dumpTo, takeHolds };
}

/** A PGlite folder not initialised yet is initialised by a process of its own (pglite-init.mjs says why). */
async function initialiseApart(dir: string): Promise<void> {
  if (dir.startsWith('memory://') || existsSync(join(dir, 'PG_VERSION'))) return;
  await promisify(execFile)(process.execPath, [new URL('./pglite-init.mjs', import.meta.url).pathname, dir]);
}

/** The advisory lock that lets one process migrate at a time (several web and worker processes start together). */
const MIGRATION_LOCK = 0x5e7a27;

async function finish(pool: pg.Pool, close: () => Promise<void>, shared = false): Promise<Database> {
  const db = drizzle(pool, { schema });
  if (!shared) {
    await migrate(db, { migrationsFolder: MIGRATIONS });
    return { db, pool, close };
  }
  // On a shared PostgreSQL the lock is held by one session while migrate runs on others; the next
  // process finds the migrations applied. (Not on PGlite: one process, and one connection at a time.)
  const holder = await pool.connect();
  try {
    await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(db, { migrationsFolder: MIGRATIONS });
    } finally {
      await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    holder.release();
  }
  return { db, pool, close };
}
