import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { Db } from '../../src/db/client.ts';
import { reportDetails, reports, riskItems } from '../../src/db/schema/index.ts';
import { seed } from '../../src/db/seed.ts';
import { ADMIN_PASSWORD, freshDatabase, signIn, testAppOptions } from '../support/build-test-app.ts';

type Headers = Record<string, string>;
export type NewReport = Partial<typeof reports.$inferInsert> & { appId: string };
export type NewDetail = Partial<typeof reportDetails.$inferInsert> & { reportId: string; name: string };

/**
 * One app per test file over a fresh database, with a data directory the test can see (the source view
 * reads mirrors from it), signed in as admin, with a `client` user beside it. No report jobs run: the
 * tests write report rows themselves, as the pipeline would.
 */
export function useReportViews() {
  const t = {} as {
    app: FastifyInstance;
    db: Db;
    dataDir: string;
    admin: Headers;
    client: Headers;
    get: (url: string, headers?: Headers) => Promise<LightMyRequestResponse>;
    post: (url: string, payload: object, headers?: Headers) => Promise<LightMyRequestResponse>;
    ok: <T = Record<string, unknown>>(method: 'GET' | 'POST', url: string, payload?: object) => Promise<T>;
    createUser: (username: string, role: string) => Promise<Headers>;
    createApp: (teamName: string, appName: string) => Promise<{ appId: string; teamId: string }>;
    insertReport: (report: NewReport) => Promise<string>;
    insertDetail: (detail: NewDetail) => Promise<string>;
    insertRisk: (reportId: string, appId: string, state: string) => Promise<void>;
  };
  let close: () => Promise<void> = async () => {};
  const teams = new Map<string, string>();
  beforeAll(async () => {
    const database = await freshDatabase();
    await seed(database.db, ADMIN_PASSWORD);
    t.dataDir = mkdtempSync(join(tmpdir(), 'sx-report-views-'));
    t.db = database.db;
    t.app = await buildApp(
      testAppOptions({
        db: database.db,
        runJobs: false,
        config: {
          jwtSecret: 'test-secret-that-is-long-enough-for-hs256!!',
          accessTokenTtl: 900,
          dataDir: t.dataDir,
          repoPaths: [tmpdir()],
        },
      }),
    );
    close = async () => {
      await t.app.close();
      await database.close();
      rmSync(t.dataDir, { recursive: true, force: true });
    };
    t.admin = (await signIn(t.app, 'admin', ADMIN_PASSWORD)).headers;
    t.get = (url, headers = t.admin) => t.app.inject({ method: 'GET', url, headers });
    t.post = (url, payload, headers = t.admin) => t.app.inject({ method: 'POST', url, headers, payload });
    t.ok = async (method, url, payload) => {
      const res = method === 'GET' ? await t.get(url) : await t.post(url, payload ?? {});
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
      return res.json().data;
    };
    t.createUser = async (username, role) => {
      const password = `${username}-password`;
      await t.ok('POST', '/api/users', { username, email: `${username}@example.test`, role, password });
      return (await signIn(t.app, username, password)).headers;
    };
    t.createApp = async (teamName, appName) => {
      let teamId = teams.get(teamName);
      if (!teamId) {
        teamId = (await t.ok<{ id: string }>('POST', '/api/teams', { name: teamName })).id;
        teams.set(teamName, teamId);
      }
      const app = await t.ok<{ id: string }>('POST', '/api/apps', {
        teamId,
        name: appName,
        language: 'java',
        repoUrl: `https://git.example.test/${appName}.git`,
      });
      return { appId: app.id, teamId };
    };
    t.insertReport = async (report) => {
      const [row] = await t.db
        .insert(reports)
        .values({
          name: 'report',
          baseVersion: 'v1',
          newVersion: 'v2',
          envType: 'test',
          testType: 1,
          coverageType: 'full',
          status: 'SUCCESS',
          ...report,
        })
        .returning({ id: reports.id });
      return row!.id;
    };
    t.insertDetail = async (detail) => {
      const [row] = await t.db
        .insert(reportDetails)
        .values({ kind: detail.classId ? 'method' : 'class', ...detail })
        .returning({ id: reportDetails.id });
      return String(row!.id);
    };
    t.insertRisk = async (reportId, appId, state) => {
      await t.db.insert(riskItems).values({
        reportId,
        appId,
        state,
        version: 'v2',
        className: 'C',
        methodName: 'm',
        filePath: 'C.java',
        lineCovered: 0,
        lineTotal: 3,
      });
    };
    t.client = await t.createUser('plainclient', 'client');
  }, 60_000);
  afterAll(async () => close());
  return t;
}
