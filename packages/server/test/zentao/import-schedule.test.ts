import { type FakeZentao, startFakeZentao } from '@sextant/cli/zentao-shaped';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { Database, Db } from '../../src/db/client.ts';
import { seed } from '../../src/db/seed.ts';
import { DEFAULT_ZENTAO_IMPORT_CRON, ZENTAO_IMPORT_QUEUE } from '../../src/modules/zentao/import-jobs.ts';
import { ADMIN_PASSWORD, freshDatabase, signIn, testAppOptions } from '../support/build-test-app.ts';

/** Issue 35: the import runs on a pg-boss schedule too, audited under "schedule". */
describe('scheduled ZenTao import', () => {
  let database: Database;
  let app: FastifyInstance;
  let headers: Record<string, string>;
  let zentao: FakeZentao;
  beforeAll(async () => {
    zentao = await startFakeZentao({
      account: 'importer',
      password: 'zt-cron-secret',
      data: {
        products: [{ id: 1, name: 'Cron', code: 'CRON' }],
        stories: { 1: [{ id: 501, title: 'Nightly export', status: 'active', stage: 'wait', product: 1 }] },
        testcases: { 1: [] },
      },
    });
    database = await freshDatabase();
    await seed(database.db, ADMIN_PASSWORD);
    app = await buildApp(testAppOptions({ db: database.db, scheduleZentao: true }));
    await app.ready();
    headers = (await signIn(app, 'admin', ADMIN_PASSWORD)).headers;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await zentao?.close();
  });

  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => {
    const res = await app.inject({ method, url, headers, payload: payload as never });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('is scheduled, and the scheduled job imports as "schedule"', async () => {
    const pool = (database.db as Db & { $client: pg.Pool }).$client;
    const schedules = await pool.query("select name, cron, timezone from pgboss.schedule where name like 'zentao-%'");
    expect(schedules.rows).toEqual([{ name: ZENTAO_IMPORT_QUEUE, cron: DEFAULT_ZENTAO_IMPORT_CRON, timezone: 'UTC' }]);

    const team = await call('POST', '/api/teams', { name: 'Cron team' });
    await call('POST', '/api/projects', { name: 'Cron', teamId: team.id, appIds: [] });
    await call('PATCH', '/api/zentao/config', { url: zentao.url, account: 'importer', password: 'zt-cron-secret' });
    // What the cron sends at its time, sent now: the app's worker takes it.
    const sender = new PgBoss({ db: { executeSql: (text, values) => pool.query(text, values) }, migrate: false });
    await sender.start();
    try {
      expect(await sender.send(ZENTAO_IMPORT_QUEUE, {})).toBeTruthy();
    } finally {
      await sender.stop({ graceful: false, wait: true, close: false });
    }
    // The job runs in the background: poll the screen's status for its summary, for at most a minute.
    const deadline = Date.now() + 60_000;
    let last: { by: string; requirements: { created: number } } | null = null;
    while (Date.now() < deadline && !last) {
      last = (await call('GET', '/api/zentao')).lastImport;
      if (!last) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(last).toMatchObject({ by: 'schedule', requirements: { created: 1 } });
    const audited = await pool.query(
      "select actor_id, actor_name from audit_logs where entity = 'zentao' and entity_id = 'import'",
    );
    expect(audited.rows).toEqual([{ actor_id: null, actor_name: 'schedule' }]);
  });
});
