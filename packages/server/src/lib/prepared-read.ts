import { createHash } from 'node:crypto';
import { fillPlaceholders, type SQL } from 'drizzle-orm';
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
  return run(db, text, statementName(text), params as unknown[]);
}

const statementName = (text: string) => `rv_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;

/** A read's text and name, its values standing as placeholders (`sql.placeholder`) to fill per call. */
export type Statement = { text: string; name: string; params: unknown[] };
/** Statements kept at most per cache; past it the cache starts again (a shape is only built anew). */
const STATEMENTS_KEPT = 2000;

/**
 * Statements by shape (which filters are set, the sort, ...), each built and turned into text once:
 * for a page of 20 rows, building the query and hashing its text cost about as much as decoding the
 * answer (bench/risks.ts). `build` must give the same text for every call of one shape, its values
 * as named placeholders; `preparedStatementRows` fills them.
 */
export class StatementCache {
  private readonly kept = new Map<string, Statement>();

  get(shape: string, build: () => SQL): Statement {
    const known = this.kept.get(shape);
    if (known) return known;
    const { sql: text, params } = dialect.sqlToQuery(build());
    const statement = { text, name: statementName(text), params: params as unknown[] };
    if (this.kept.size >= STATEMENTS_KEPT) this.kept.clear();
    this.kept.set(shape, statement);
    return statement;
  }
}

/** Runs a cached statement with its placeholders' values. */
export function preparedStatementRows(
  db: Db,
  statement: Statement,
  values: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  return run(db, statement.text, statement.name, fillPlaceholders(statement.params, values));
}

async function run(db: Db, text: string, name: string, values: unknown[]): Promise<Record<string, unknown>[]> {
  const pool = (db as Db & { $client: pg.Pool }).$client;
  if (sharedSession.has(pool)) return (await pool.query({ text, values })).rows;
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
