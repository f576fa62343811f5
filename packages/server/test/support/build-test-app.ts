import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type AppOptions, buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { users } from '../../src/db/schema/index.ts';
import { seed } from '../../src/db/seed.ts';

export const ADMIN_PASSWORD = 'admin-test-password';
/** The key test apps sign access tokens with (a test may forge tokens with it). */
export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256!!';

/**
 * A test app's configuration: the server's defaults (as `loadConfig` reads an empty environment) except
 * a throw-away data folder per app, a web folder that does not exist, and no database or Redis URL
 * (so no such secret is masked in build output). `given` overrides any of it.
 */
export function testConfig(given: Partial<Config> = {}): Config {
  const dataDir = given.dataDir ?? mkdtempSync(join(tmpdir(), 'sextant-data-'));
  return {
    port: 0,
    host: '127.0.0.1',
    databaseUrl: undefined,
    redisUrl: undefined,
    metricsToken: undefined,
    dataDir,
    adminPassword: undefined,
    jwtSecret: TEST_JWT_SECRET,
    accessTokenTtl: 900,
    refreshIdleMs: 12 * 3600_000,
    traceViewerPort: 5173,
    webDist: '/nonexistent-web-dist',
    uploadStorage: 'file',
    uploadLimitBytes: 512 * 1024 * 1024,
    uploadMaxRatio: 100,
    uploadParsers: 2,
    uploadQueue: 8,
    uploadParseMemoryMb: 2048,
    shutdownDelayMs: 0,
    jacocoLib: '/usr/share/java',
    reportConcurrency: 2,
    analyticsCacheMs: 30_000,
    gitTimeoutMs: 300_000,
    wsConnectTimeoutMs: 10_000,
    wsRecheckMs: 2000,
    buildSandbox: 'auto',
    buildUser: 'nobody',
    buildEnvPass: [],
    repoPaths: [join(dataDir, 'demo-repos')],
    repoAllowLoopback: false,
    otlpLimitBytes: 64 * 1024 * 1024,
    otlpConcurrency: 16,
    otlpGrpcPort: 0,
    ...given,
  };
}

/** `buildApp`'s options for a test: the config completed by `testConfig`, and `/api/about` saying version `test`. */
export function testAppOptions(
  opts: Omit<AppOptions, 'config' | 'about'> & { config?: Partial<Config>; about?: AppOptions['about'] },
): AppOptions {
  return {
    ...opts,
    // A test app fetches no branches by itself (a refresh racing the test's own); branch-jobs.test.ts does.
    refreshBranches: opts.refreshBranches ?? false,
    scheduleZentao: opts.scheduleZentao ?? false,
    config: testConfig(opts.config),
    about: opts.about ?? { version: 'test', commit: null, database: 'embedded' },
  };
}

const MIGRATIONS = new URL('../../src/db/migrations/', import.meta.url);

/** Names what a migrated empty database holds: the migrations and PGlite's version. */
function schemaHash(): string {
  const hash = createHash('sha256');
  const engine = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  hash.update(readFileSync(join(dirname(engine), '..', 'package.json')));
  for (const name of readdirSync(MIGRATIONS, { recursive: true }).map(String).sort()) {
    if (name.endsWith('.sql') || name.endsWith('.json'))
      hash.update(name).update(readFileSync(new URL(name, MIGRATIONS)));
  }
  return hash.digest('hex').slice(0, 16);
}

let embeddedTemplate: Promise<string> | undefined;

/**
 * A migrated, empty embedded database dumped to a file, made once per machine and schema: starting
 * from it skips PGlite's initdb and the migrations, most of a test database's start.
 */
export function embeddedTemplateFile(): Promise<string> {
  embeddedTemplate ??= (async () => {
    const file = join(tmpdir(), `sextant-test-db-${schemaHash()}.tar`);
    if (existsSync(file)) return file;
    const database = await openDatabase({});
    await database.dumpTo?.(file);
    await database.close();
    return file;
  })();
  return embeddedTemplate;
}

let serverTemplate: Promise<string> | undefined;

/**
 * The same on a PostgreSQL server: a migrated template database, built under another name and renamed
 * once nobody is connected (PostgreSQL copies a template only then), so parallel test files agree.
 */
function serverTemplateName(url: string): Promise<string> {
  serverTemplate ??= (async () => {
    const name = `sx_template_${schemaHash()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) return name;
      const building = `${name}_${randomBytes(4).toString('hex')}`;
      await admin.query(`create database ${building}`);
      const target = new URL(url);
      target.pathname = `/${building}`;
      await (await openDatabase({ url: target.toString() })).close();
      try {
        await admin.query(`alter database ${building} rename to ${name}`);
      } catch {
        await admin.query(`drop database if exists ${building}`); // another test file made it first
      }
      return name;
    } finally {
      await admin.end();
    }
  })();
  return serverTemplate;
}

/**
 * In-memory PGlite by default; with DATABASE_URL, a throw-away database on that server, dropped on
 * close. Both start from a migrated template. `traceHolds`: see `Database.takeHolds` (PGlite only).
 */
export async function freshDatabase(opts: { traceHolds?: boolean } = {}): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) return openDatabase({ loadFrom: await embeddedTemplateFile(), traceHolds: opts.traceHolds });
  const template = await serverTemplateName(url);
  const name = `sx_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
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
  const app: FastifyInstance = await buildApp(
    testAppOptions({
      db: database.db,
      modules: opts.modules,
      config: {
        accessTokenTtl: opts.accessTokenTtl ?? 900,
        ...(opts.webDist ? { webDist: opts.webDist } : {}),
        // Test repositories are local paths in the temporary folder, or placeholders under /srv never
        // probed (SEXTANT_REPO_PATHS).
        repoPaths: [tmpdir(), '/srv'],
      },
    }),
  ).catch(async (e: unknown) => {
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

/**
 * A fresh migrated database with the seed, and the seeded admin's id: for tests that call services
 * directly (no app), as the auth module's rule tests do.
 */
export async function seededDatabase(): Promise<{ database: Database; adminId: string }> {
  const database = await freshDatabase();
  await seed(database.db, ADMIN_PASSWORD);
  const [admin] = await database.db.select().from(users).where(eq(users.username, 'admin'));
  return { database, adminId: admin?.id as string };
}
