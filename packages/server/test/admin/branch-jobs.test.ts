import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { Database, Db } from '../../src/db/client.ts';
import { seed } from '../../src/db/seed.ts';
import { BRANCH_REFRESH_ALL_QUEUE, DEFAULT_BRANCH_REFRESH_CRON } from '../../src/modules/branches/refresh-jobs.ts';
import { ADMIN_PASSWORD, freshDatabase, signIn, testAppOptions } from '../support/build-test-app.ts';
import { git, makeRepo } from './git-fixture.ts';

/** Issue 37: a new app's branches are fetched without anyone pressing refresh, and every app's on a schedule. */
describe('branches fetched by the server', () => {
  let database: Database;
  let app: FastifyInstance;
  let headers: Record<string, string>;
  const repo = makeRepo(['feature/cart', 'release-2']);
  beforeAll(async () => {
    database = await freshDatabase();
    await seed(database.db, ADMIN_PASSWORD);
    app = await buildApp(testAppOptions({ db: database.db, refreshBranches: true, config: { repoPaths: [tmpdir()] } }));
    await app.ready();
    headers = (await signIn(app, 'admin', ADMIN_PASSWORD)).headers;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    repo.remove();
  });

  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const res = await app.inject({ method, url, headers, payload: payload as never });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().data;
  };
  const branchNames = async (appId: string) =>
    ((await call('GET', `/api/branches?appId=${appId}&sortBy=name`)).items as { name: string; present: boolean }[])
      .filter((b) => b.present)
      .map((b) => b.name);
  /** Polls the branch list (the jobs run in the background) until it holds `names`, for at most a minute. */
  const untilBranches = async (appId: string, names: string[]) => {
    const deadline = Date.now() + 60_000;
    let seen: string[] = [];
    while (Date.now() < deadline) {
      seen = await branchNames(appId);
      if (JSON.stringify(seen) === JSON.stringify(names)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen).toEqual(names);
  };

  let appId = '';
  it("fetches a new app's branches when it is created, without an audit entry of a user", async () => {
    const team = await call('POST', '/api/teams', { name: 'Fetchers' });
    appId = (await call('POST', '/api/apps', { teamId: team.id, name: 'shop', language: 'java', repoUrl: repo.path }))
      .id;
    await untilBranches(appId, ['feature/cart', 'main', 'release-2']);
    const pool = (database.db as Db & { $client: pg.Pool }).$client;
    const audited = await pool.query("select action from audit_logs where entity = 'branch' and entity_id = $1", [
      appId,
    ]);
    expect(audited.rows).toEqual([]);
  });

  it("schedules every app's refresh, and the scheduled job fetches new branches", async () => {
    const pool = (database.db as Db & { $client: pg.Pool }).$client;
    // other modules schedule their own jobs (the risks' trace and severity runs) on the same pg-boss schema
    const schedules = await pool.query("select name, cron, timezone from pgboss.schedule where name like 'branch-%'");
    expect(schedules.rows).toEqual([
      { name: BRANCH_REFRESH_ALL_QUEUE, cron: DEFAULT_BRANCH_REFRESH_CRON, timezone: 'UTC' },
    ]);

    git(repo.path, 'branch', 'hotfix-9', 'main');
    // What the cron sends at its time, sent now: the app's worker takes it.
    const sender = new PgBoss({ db: { executeSql: (text, values) => pool.query(text, values) }, migrate: false });
    await sender.start();
    try {
      expect(await sender.send(BRANCH_REFRESH_ALL_QUEUE, {})).toBeTruthy();
    } finally {
      await sender.stop({ graceful: false, wait: true, close: false });
    }
    await untilBranches(appId, ['feature/cart', 'hotfix-9', 'main', 'release-2']);
  });
});
