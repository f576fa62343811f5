import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Cockpit, GroupFigures, MyCoverage } from '@sextant/api';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { addUpload, fixtureRepo, TEST_JWT_SECRET, useReportsApp, waitForReport } from '../reports/pipeline-support.ts';
import { ADMIN_PASSWORD, signIn, testAppOptions } from '../support/build-test-app.ts';

/**
 * The analytics answer cache (lib/generation-cache.ts, issue 35) on two server instances over one
 * database, as several web processes run: an answer either instance keeps must never hide a report
 * reaching SUCCESS through the pipeline, nor a write made through the other instance; while nothing is
 * written a kept answer is given again; and answers are kept per scope, so callers whose scopes differ
 * never get each other's.
 */
describe('the analytics answer cache across instances', () => {
  const t = useReportsApp();
  const repo = fixtureRepo('jacoco');
  let other: FastifyInstance;
  let otherHeaders: Record<string, string>;
  let teamB: string;

  /** An app of `teamId` with one incremental report made by the real pipeline from the JaCoCo fixture. */
  const report = async (name: string, teamId: string) => {
    const app = await t.ok<{ id: string }>('POST', '/api/apps', {
      teamId,
      language: 'java',
      environments: ['test'],
      name,
      repoUrl: repo,
    });
    await addUpload(t.db, t.dataDir, {
      appId: app.id,
      commit: 'head',
      envType: 'test',
      testType: 1,
      fixture: 'jacoco/jacoco-main.xml',
      format: 'jacoco',
    });
    const body = { app: name, name: `${name} head`, baseVersion: 'base', newVersion: 'head', envType: 'test' };
    const queued = await t.ok<{ id: string }>('POST', '/api/reports', {
      ...body,
      testType: 1,
      coverageType: 'incremental',
    });
    const done = await waitForReport(t.db, queued.id);
    expect(done.status, done.errMsg ?? '').toBe('SUCCESS');
    return { appId: app.id, reportId: queued.id };
  };
  let first: { appId: string; reportId: string };

  beforeAll(async () => {
    first = await report('cached-a', t.teamId);
    teamB = (await t.ok<{ id: string }>('POST', '/api/teams', { name: 'other team' })).id;
    other = await buildApp(
      testAppOptions({ db: t.db, runJobs: false, config: { jwtSecret: TEST_JWT_SECRET, dataDir: t.dataDir } }),
    );
    otherHeaders = (await signIn(other, 'admin', ADMIN_PASSWORD)).headers;
  }, 240_000);
  afterAll(async () => {
    await other?.close();
    rmSync(join(repo, '..'), { recursive: true, force: true });
  });

  const get = async <T>(app: FastifyInstance, url: string, headers?: Record<string, string>): Promise<T> => {
    const res = await app.inject({ method: 'GET', url, headers: headers ?? (app === other ? otherHeaders : t.admin) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as T;
  };
  const cockpit = (app: FastifyInstance) => get<Cockpit>(app, '/api/analytics/cockpit');
  const versions = (app: FastifyInstance, query = '') => get<GroupFigures[]>(app, `/api/analytics/versions?${query}`);

  it('gives a kept answer again while nothing is written, and a report reaching SUCCESS at the next read', async () => {
    for (const app of [t.app, other]) expect(await cockpit(app)).toMatchObject({ apps: 1, reports: 1 });

    // With the bump switched off, a change made behind the cache's back stays unseen: the answer is the
    // kept one (which is why every write must bump the generation).
    await t.db.execute(sql`alter table reports disable trigger analytics_generation_bump_update`);
    try {
      await t.db.execute(sql`update reports set status = 'GENERATEREPORT_FAIL' where id = ${first.reportId}`);
      expect(await cockpit(t.app), 'kept answer').toMatchObject({ reports: 1 });
    } finally {
      await t.db.execute(sql`alter table reports enable trigger analytics_generation_bump_update`);
    }
    await t.db.execute(sql`update reports set status = 'SUCCESS' where id = ${first.reportId}`);
    expect(await cockpit(t.app), 'after a write').toMatchObject({ reports: 1 });

    // A second app's report made by the pipeline: both instances' next answers count it.
    const second = await report('cached-b', teamB);
    for (const app of [t.app, other]) {
      const now = await cockpit(app);
      expect(now).toMatchObject({ apps: 2, reports: 2 });
      expect(now.standings.map((s) => s.appName).sort()).toEqual(['cached-a', 'cached-b']);
    }
    expect(second.appId).not.toBe(first.appId);
  });

  it('shows a write made through the other instance at the next read', async () => {
    const before = await get<GroupFigures[]>(t.app, `/api/analytics/projects?teamId=${t.teamId}`);
    expect(before.map((p) => p.name)).not.toContain('cached project');
    const created = await other.inject({
      method: 'POST',
      url: '/api/projects',
      headers: otherHeaders,
      payload: { name: 'cached project', teamId: t.teamId, appIds: [first.appId] },
    });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const after = await get<GroupFigures[]>(t.app, `/api/analytics/projects?teamId=${t.teamId}`);
    expect(after.find((p) => p.name === 'cached project')).toMatchObject({ apps: 1, reports: 1 });

    // Renamed through the other instance: the first one's cockpit shows the new name.
    const renamed = await other.inject({
      method: 'PATCH',
      url: `/api/apps/${first.appId}`,
      headers: otherHeaders,
      payload: { name: 'cached-a2' },
    });
    expect(renamed.statusCode, renamed.body).toBeLessThan(300);
    expect((await cockpit(t.app)).standings.map((s) => s.appName).sort()).toEqual(['cached-a2', 'cached-b']);
  });

  it('never gives one scope the answer kept for another', async () => {
    // The same query over different teams, asked in turn: each answer holds its own team's apps only.
    for (let round = 0; round < 2; round++) {
      const a = await versions(t.app, `teamId=${t.teamId}`);
      const b = await versions(t.app, `teamId=${teamB}`);
      const all = await versions(t.app);
      expect(a.map((v) => v.reports)).toEqual([1]);
      expect(b.map((v) => v.reports)).toEqual([1]);
      expect(all.map((v) => v.reports)).toEqual([2]);
      expect((await get<Cockpit>(t.app, `/api/analytics/cockpit?teamId=${teamB}`)).standings).toEqual([
        expect.objectContaining({ appName: 'cached-b' }),
      ]);
    }

    // "Mine" is the caller's own: a user who is the fixture's author Bob sees his changed methods, the
    // administrator asking the same query just before and after does not get his answer.
    const bob = await t.ok<{ id: string }>('POST', '/api/users', {
      username: 'bob',
      email: 'bob@example.com',
      role: 'tester',
      password: 'bob-password-1',
    });
    expect(bob.id).toBeTruthy();
    const bobHeaders = (await signIn(t.app, 'bob', 'bob-password-1')).headers;
    const mine = (headers?: Record<string, string>) => get<MyCoverage>(t.app, '/api/analytics/mine', headers);
    const admin = await mine();
    const his = await mine(bobHeaders);
    expect(his.authors).toEqual(['Bob Fixture <bob@example.com>']);
    expect(his.reports.length).toBeGreaterThan(0);
    expect(admin.authors).toEqual([]);
    expect((await mine()).authors).toEqual([]);
    expect((await mine(bobHeaders)).authors).toEqual(his.authors);
  });

  it('is not bumped by reads, and once by a write', async () => {
    const generation = async () =>
      Number((await t.db.execute(sql`select n from analytics_generation where id = 1`)).rows[0]?.n);
    const before = await generation();
    await Promise.all(Array.from({ length: 20 }, () => cockpit(t.app)));
    expect(await generation(), 'reads do not bump').toBe(before);
    await t.db.execute(sql`update apps set name = name where id = ${first.appId}`);
    expect(await generation(), 'a write bumps once').toBe(before + 1);
  });
});
