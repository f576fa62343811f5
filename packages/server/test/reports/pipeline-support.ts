import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { type AppOptions, buildApp } from '../../src/app.ts';
import type { Db } from '../../src/db/client.ts';
import { coverageUploads, messages, reports } from '../../src/db/schema/index.ts';
import { seed } from '../../src/db/seed.ts';
import { uploadsDir } from '../../src/lib/data-paths.ts';
import { ADMIN_PASSWORD, freshDatabase, signIn, testAppOptions } from '../support/build-test-app.ts';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256!!';
export const FIXTURES = new URL('../../../coverage/fixtures/', import.meta.url).pathname;
export const TERMINAL = [
  'SUCCESS',
  'CLONE_FAIL',
  'COMPILE_FAIL',
  'DIFF_METHOD_FAIL',
  'FAILADDMODULE',
  'ENVREPORT_FAIL',
  'GENERATEREPORT_FAIL',
];

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A fixture project (packages/coverage/fixtures/<tool>/repo.bundle, tags base and head) cloned to disk. */
export function fixtureRepo(tool: string): string {
  const dir = mkdtempSync(join(tmpdir(), `sx-report-repo-${tool}-`));
  const repo = join(dir, 'repo');
  execFileSync('git', ['clone', '--quiet', '--branch', 'main', '--', join(FIXTURES, tool, 'repo.bundle'), repo]);
  return repo;
}

/**
 * One app per test file with a known data directory, the report workers on, signed in as admin, and
 * a team "reporting" that owns the apps the tests register.
 */
export function useReportsApp(config: Partial<AppOptions['config']> = {}) {
  const t = {} as {
    app: FastifyInstance;
    db: Db;
    dataDir: string;
    admin: Headers;
    teamId: string;
    call: (method: Method, url: string, payload?: unknown, headers?: Headers) => Promise<LightMyRequestResponse>;
    ok: <T = Record<string, unknown>>(method: Method, url: string, payload?: unknown) => Promise<T>;
    createApp: (input: { name: string; repoUrl: string; buildCommand?: string }) => Promise<string>;
    createUser: (username: string, role: string) => Promise<{ id: string; headers: Headers }>;
    close: () => Promise<void>;
  };
  beforeAll(async () => {
    const database = await freshDatabase();
    await seed(database.db, ADMIN_PASSWORD);
    t.dataDir = mkdtempSync(join(tmpdir(), 'sx-report-data-'));
    t.app = await buildApp(
      testAppOptions({
        db: database.db,
        config: {
          jwtSecret: TEST_JWT_SECRET,
          accessTokenTtl: 900,
          dataDir: t.dataDir,
          repoPaths: [tmpdir()],
          ...config,
        },
      }),
    );
    t.db = database.db;
    t.close = async () => {
      await t.app.close();
      await database.close();
      rmSync(t.dataDir, { recursive: true, force: true });
    };
    t.admin = (await signIn(t.app, 'admin', ADMIN_PASSWORD)).headers;
    t.call = (method, url, payload, headers = t.admin) =>
      t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    t.ok = async (method, url, payload) => {
      const res = await t.call(method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res.json().data;
    };
    t.teamId = (await t.ok<{ id: string }>('POST', '/api/teams', { name: 'reporting' })).id;
    t.createApp = async (input) =>
      (
        await t.ok<{ id: string }>('POST', '/api/apps', {
          teamId: t.teamId,
          language: 'java',
          environments: ['test', 'dev'],
          ...input,
        })
      ).id;
    t.createUser = async (username, role) => {
      const password = `${username}-password`;
      const user = await t.ok<{ id: string }>('POST', '/api/users', {
        username,
        email: `${username}@example.test`,
        role,
        password,
      });
      return { id: user.id, headers: (await signIn(t.app, username, password)).headers };
    };
  }, 120_000);
  afterAll(async () => t.close?.());
  return t;
}

/**
 * Stores a fixture report (a path under the fixtures, or an absolute one) as the intake module does: the file under the data directory, a
 * coverage_uploads row naming it (commit as sent, not yet resolved).
 */
export async function addUpload(
  db: Db,
  dataDir: string,
  input: {
    appId: string;
    commit: string;
    envType: string;
    testType: 1 | 2;
    fixture: string;
    format: string;
    caseId?: string;
  },
): Promise<string> {
  const id = randomUUID();
  const dir = uploadsDir(dataDir, input.appId);
  mkdirSync(dir, { recursive: true });
  const stored = join(dir, id);
  copyFileSync(isAbsolute(input.fixture) ? input.fixture : join(FIXTURES, input.fixture), stored);
  await db.insert(coverageUploads).values({
    id,
    appId: input.appId,
    commit: input.commit,
    envType: input.envType,
    testType: input.testType,
    caseId: input.caseId ?? null,
    format: input.format,
    storedPath: relative(dataDir, stored),
    sizeBytes: statSync(stored).size,
    files: 0,
  });
  return id;
}

/** Polls the report row until `done` holds (no fixed sleeps: a deadline bounds the wait). */
export async function waitForReport(
  db: Db,
  id: string,
  done: (row: typeof reports.$inferSelect) => boolean = (row) => TERMINAL.includes(row.status),
  timeoutMs = 90_000,
): Promise<typeof reports.$inferSelect> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await db.select().from(reports).where(eq(reports.id, id));
    // A report's end is recorded, then published: wait for the message too, which tests read next.
    if (row && done(row) && (!TERMINAL.includes(row.status) || (await statusesOf(db, id)).includes(row.status))) {
      return row;
    }
    if (Date.now() > deadline) throw new Error(`report ${id} still ${row?.status ?? 'missing'} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The statuses the message centre published for a report, in order. */
export async function statusesOf(db: Db, reportId: string): Promise<string[]> {
  const rows = await db
    .select({ status: messages.status })
    .from(messages)
    .where(eq(messages.reportId, reportId))
    .orderBy(asc(messages.seq));
  return rows.map((r) => r.status ?? '');
}
