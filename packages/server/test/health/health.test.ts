import { readFileSync } from 'node:fs';
import { PATHS } from '@sextant/api';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingRedis, skipWithout } from '../../../../tools/test-support/machine.ts';
import { buildApp } from '../../src/app.ts';
import { createRedisFanOut } from '../../src/realtime/fanout-redis.ts';
import { buildTestApp, freshDatabase, testAppOptions } from '../support/build-test-app.ts';

const shipped = (
  JSON.parse(readFileSync(new URL('../../src/db/migrations/meta/_journal.json', import.meta.url), 'utf8')) as {
    entries: unknown[];
  }
).entries.length;

// Issue 41: probes a process manager or load balancer asks without a session.
describe('/healthz and /readyz', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    t = await buildTestApp();
  }, 120_000);
  afterAll(async () => t?.close());

  it('says alive without a session', async () => {
    const res = await t.app.inject({ url: PATHS.healthz });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ alive: true });
  });

  it('is ready when the database answers and every shipped migration is applied', async () => {
    const res = await t.app.inject({ url: PATHS.readyz });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ready: true,
      checks: {
        database: { ok: true, detail: 'ok' },
        migrations: { ok: true, detail: 'ok' },
        redis: { ok: true, detail: 'not configured' },
      },
    });
  });

  it('answers 503 naming the gap when a migration is missing', async () => {
    await t.database.db.execute(
      sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
    );
    const res = await t.app.inject({ url: PATHS.readyz });
    expect(res.statusCode).toBe(503);
    expect(res.json().ready).toBe(false);
    expect(res.json().checks.migrations).toEqual({
      ok: false,
      detail: `${shipped - 1} of ${shipped} migrations applied`,
    });
    expect(res.json().checks.database.ok).toBe(true);
  });
});

describe('/readyz during a graceful shutdown', () => {
  it('answers 503 as soon as the shutdown begins, while the rest still serves', async () => {
    const t = await buildTestApp();
    try {
      t.app.beginShutdown();
      const res = await t.app.inject({ url: PATHS.readyz });
      expect(res.statusCode).toBe(503);
      // Whatever the other checks say (each may time out on a loaded machine).
      expect(res.json()).toMatchObject({ ready: false, checks: { shutdown: { ok: false, detail: 'shutting down' } } });
      expect((await t.app.inject({ url: PATHS.healthz })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  }, 120_000);
});

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const noRedis = skipWithout('readiness with Redis', await missingRedis(REDIS_URL));

describe.skipIf(noRedis)('/readyz with Redis', () => {
  it('checks Redis with a PING and answers 503 once it is gone', async () => {
    const database = await freshDatabase();
    const fanOut = await createRedisFanOut(REDIS_URL, `sextant:test:health:${process.pid}`);
    const app = await buildApp(testAppOptions({ db: database.db, fanOut }));
    try {
      const ready = await app.inject({ url: PATHS.readyz });
      expect(ready.statusCode).toBe(200);
      expect(ready.json().checks.redis).toEqual({ ok: true, detail: 'ok' });
      await fanOut.close();
      const gone = await app.inject({ url: PATHS.readyz });
      expect(gone.statusCode).toBe(503);
      expect(gone.json().checks.redis.ok).toBe(false);
    } finally {
      await app.close();
      await database.close();
    }
  }, 120_000);
});
