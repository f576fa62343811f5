import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../packages/server/src/db/client.ts';

/** The PostgreSQL server the benches create their throw-away databases on. */
export const PG_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs `work` on a fresh embedded database in a temporary folder, removed afterwards. */
export async function onFreshPglite<T>(
  work: (database: Database) => Promise<T>,
  opts: { traceHolds?: boolean } = {},
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'sx-bench-'));
  const database = await openDatabase({ pgliteDir: join(dir, 'pg'), traceHolds: opts.traceHolds });
  try {
    return await work(database);
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A fresh database of the PostgreSQL server (its URL and name), dropped by `drop()`. */
export async function throwawayPostgres(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `sextant_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_SERVER });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** Runs `work` on a fresh database of the PostgreSQL server, dropped afterwards. */
export async function onFreshPostgres<T>(work: (database: Database) => Promise<T>): Promise<T> {
  const fresh = await throwawayPostgres();
  const database = await openDatabase({ url: fresh.url });
  // pool.end() resolves before its sockets have closed: the forced drop below may end one of them,
  // which the pool then reports as an error nobody listens for (and the process would stop).
  database.pool.on('error', () => {});
  try {
    return await work(database);
  } finally {
    await database.close();
    await fresh.drop();
  }
}
