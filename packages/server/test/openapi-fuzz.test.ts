import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import * as schema from '../src/db/schema/index.ts';
import { seed } from '../src/db/seed.ts';
import { ADMIN_PASSWORD, freshDatabase, signIn, testAppOptions } from './support/build-test-app.ts';
import {
  type FuzzOperation,
  fuzzOperations,
  fuzzRequest,
  HOSTILE_STRINGS,
  type OpenApiDocument,
  type StringField,
} from './support/openapi-fuzz.ts';

/** Tables a refused request may still write by design: a failed sign-in is counted (lockout). */
const WRITTEN_BY_REFUSALS = new Set(['login_failures', 'throttle_events']);

const TABLES = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableName(table));

/** Mulberry32: the same sample of hostile values on every run, so a failure is reproducible. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Issue 32, finding 6: every route and every string field of the served OpenAPI document gets the
 * hostile strings, as the admin and without credentials: no 5xx, and a refusal changes no table.
 * Per field the admin sends NUL and two more of the list, a stranger one; the choice is seeded.
 */
describe('OpenAPI fuzz: hostile strings in every string field', () => {
  let app: FastifyInstance;
  let database: Database;
  let dataDir: string;
  let admin: Record<string, string>;
  let operations: FuzzOperation[];

  beforeAll(async () => {
    database = await freshDatabase();
    await seed(database.db, ADMIN_PASSWORD);
    dataDir = mkdtempSync(join(tmpdir(), 'sx-fuzz-'));
    app = await buildApp(
      testAppOptions({
        db: database.db,
        runJobs: false,
        config: { jwtSecret: 'test-secret-that-is-long-enough-for-hs256!!', accessTokenTtl: 3600, dataDir },
      }),
    );
    admin = (await signIn(app, 'admin', ADMIN_PASSWORD)).headers;
    const docs = await app.inject({ url: '/api/docs/json' });
    operations = fuzzOperations(docs.json() as OpenApiDocument);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const rowCounts = async (): Promise<Record<string, number>> => {
    const union = TABLES.map((t) => `select '${t}' as t, count(*)::int as n from "${t}"`).join(' union all ');
    const rows = (await database.db.execute(sql.raw(union))).rows as { t: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
  };

  it('reads the routes from the document', () => {
    expect(operations.length).toBeGreaterThan(60);
    expect(operations.reduce((n, op) => n + op.fields.length, 0)).toBeGreaterThan(150);
    const login = operations.find((op) => op.template === '/api/login');
    expect(login?.public).toBe(true);
    expect(login?.fields.map((f) => f.path.join('.'))).toEqual(['username', 'password']);
  });

  it('never answers 5xx, and a refused request stores nothing', async () => {
    const random = seededRandom(32);
    const pick = (n: number, first: string[] = []) => {
      const rest = HOSTILE_STRINGS.filter((h) => !first.includes(h.label));
      const chosen = HOSTILE_STRINGS.filter((h) => first.includes(h.label));
      while (chosen.length < n && rest.length > 0) chosen.push(...rest.splice(Math.floor(random() * rest.length), 1));
      return chosen;
    };
    const failures: string[] = [];
    let sent = 0;
    const send = async (
      op: FuzzOperation,
      field: StringField,
      hostile: { label: string; value: string },
      as: string,
    ) => {
      const request = fuzzRequest(op, field, hostile.value);
      const before = await rowCounts();
      const res = await app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: {
          ...(as === 'admin' ? admin : {}),
          ...(request.payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(request.payload === undefined ? {} : { payload: JSON.stringify(request.payload) }),
      });
      sent++;
      const where = `${op.method} ${op.template} ${field.part}:${field.path.join('.')} = ${hostile.label} as ${as}`;
      if (res.statusCode >= 500) failures.push(`${where}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      // Else the admin's requests would stop at the access check, and the rest of the run would prove nothing.
      if (as === 'admin' && !op.public && res.statusCode === 401)
        failures.push(`${where}: the admin's session was lost`);
      if (res.statusCode >= 400) {
        const after = await rowCounts();
        const changed = TABLES.filter((t) => !WRITTEN_BY_REFUSALS.has(t) && before[t] !== after[t]);
        if (changed.length) failures.push(`${where}: ${res.statusCode} but rows changed in ${changed.join(', ')}`);
      }
    };
    for (const op of operations) {
      for (const field of op.fields) {
        for (const hostile of pick(3, ['NUL'])) await send(op, field, hostile, 'admin');
        for (const hostile of pick(op.public ? 3 : 1, op.public ? ['NUL'] : []))
          await send(op, field, hostile, 'nobody');
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  }, 180_000);
});
