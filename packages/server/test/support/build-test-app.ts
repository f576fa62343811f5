import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { seed } from '../../src/db/seed.ts';

export const ADMIN_PASSWORD = 'admin-test-password';
/** The key test apps sign access tokens with (a test may forge tokens with it). */
export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256!!';

/**
 * In-memory PGlite by default; with DATABASE_URL, a throw-away database on that server, dropped on close.
 */
export async function freshDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) return openDatabase({});
  const name = `sx_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.toString() });
  return {
    ...database,
    close: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name}`);
      await dropper.end();
    },
  };
}

/** A fresh in-memory PGlite database (in its worker) per test file, seeded, with the app on top. */
export async function buildTestApp(
  opts: { accessTokenTtl?: number; webDist?: string; modules?: ((app: FastifyInstance) => void)[] } = {},
) {
  const database: Database = await freshDatabase();
  await seed(database.db, ADMIN_PASSWORD);
  const app: FastifyInstance = await buildApp({
    db: database.db,
    modules: opts.modules,
    config: {
      jwtSecret: TEST_JWT_SECRET,
      accessTokenTtl: opts.accessTokenTtl ?? 900,
      webDist: opts.webDist,
      // Test repositories are local paths in the temporary folder, or placeholders under /srv never
      // probed (SEXTANT_REPO_PATHS).
      repoPaths: [tmpdir(), '/srv'],
    },
  }).catch(async (e: unknown) => {
    await database.close();
    throw e;
  });
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export async function signIn(app: FastifyInstance, username: string, password: string) {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
  const data = res.json().data as { accessToken: string; refreshToken: string };
  return { ...data, headers: { authorization: `Bearer ${data.accessToken}` } };
}

/**
 * Registers hooks that build the app before a suite and close it after, signed in as admin.
 * Read the fields inside tests (they are filled in by `beforeAll`).
 */
export function useAdminApp(opts: Parameters<typeof buildTestApp>[0] = {}) {
  const state = {} as Awaited<ReturnType<typeof buildTestApp>> & { admin: Awaited<ReturnType<typeof signIn>> };
  beforeAll(async () => {
    Object.assign(state, await buildTestApp(opts));
    state.admin = await signIn(state.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(async () => state.close?.());
  return state;
}
