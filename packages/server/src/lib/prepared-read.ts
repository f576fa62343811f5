import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Db } from '../db/client.ts';

const dialect = new PgDialect();
/** Pools whose connections share one session (PGlite behind pglite-socket): names would collide there. */
const sharedSession = new WeakSet<pg.Pool>();
const DUPLICATE_PREPARED_STATEMENT = '42P05';

/**
 * Runs a read as a named prepared statement, so each statement text is parsed and planned once per
 * connection: a page of the report or risk list is an index walk over a few rows, and planning it cost more
 * than running it (bench/search-reports.ts, bench/risks.ts). Values stay parameters; the name is the text's hash.
 * PGlite serves every pool connection from one session, where another connection's statement of the
 * same name already exists: there, reads fall back to unnamed statements after the first collision.
 */
export async function preparedRows(db: Db, query: SQL): Promise<Record<string, unknown>[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const values = params as unknown[];
  const pool = (db as Db & { $client: pg.Pool }).$client;
  if (sharedSession.has(pool)) return (await pool.query({ text, values })).rows;
  const name = `rv_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  try {
    return (await pool.query({ name, text, values })).rows;
  } catch (e) {
    if ((e as { code?: string }).code !== DUPLICATE_PREPARED_STATEMENT) throw e;
    sharedSession.add(pool);
    return (await pool.query({ text, values })).rows;
  }
}

/** An EXPLAIN of a read, unnamed (a plan of a plan is not worth keeping). */
export async function explainRows(db: Db, query: SQL): Promise<Record<string, unknown>[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const pool = (db as Db & { $client: pg.Pool }).$client;
  return (await pool.query({ text, values: params as unknown[] })).rows;
}
