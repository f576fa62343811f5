import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, reportDetails, reports, riskItems } from '../../src/db/schema/index.ts';
import { PIPELINE_ACTOR } from '../../src/modules/reports/index.ts';
import { addUpload, fixtureRepo, statusesOf, useReportsApp, waitForReport } from './pipeline-support.ts';

/** POST/PATCH/DELETE /api/reports: permissions, bad input, rename, re-run, delete. */
describe('report create, edit and delete', () => {
  const t = useReportsApp();
  // What users did to a report; the pipeline's own status transitions are entries too (issue 34).
  const usersEntries = async (id: string) =>
    (await t.db.select().from(auditLogs).where(eq(auditLogs.entityId, id)).orderBy(auditLogs.id)).filter(
      (a) => a.actorName !== PIPELINE_ACTOR,
    );
  let repo: string;
  let appId: string;
  beforeAll(async () => {
    repo = fixtureRepo('jacoco');
    appId = await t.createApp({ name: 'calculator', repoUrl: repo });
    await addUpload(t.db, t.dataDir, {
      appId,
      commit: 'head',
      envType: 'test',
      testType: 2,
      fixture: 'jacoco/jacoco-main.xml',
      format: 'jacoco',
    });
  });
  afterAll(() => rmSync(dirname(repo), { recursive: true, force: true }));

  const body = (extra: Record<string, unknown> = {}) => ({
    app: 'calculator',
    name: 'sprint',
    baseVersion: 'base',
    newVersion: 'head',
    envType: 'test',
    testType: 2,
    coverageType: 'incremental',
    ...extra,
  });
  const reportCount = async () => (await t.db.select({ n: count() }).from(reports))[0]?.n ?? 0;

  it('refuses bad input and unknown apps, creating nothing', async () => {
    const before = await reportCount();
    const unknown = await t.call('POST', '/api/reports', body({ app: 'no-such-app' }));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No such app.');
    const unknownId = await t.call('POST', '/api/reports', body({ app: '00000000-0000-4000-8000-000000000000' }));
    expect(unknownId.statusCode).toBe(404);
    for (const bad of [
      body({ coverageType: 'partial' }),
      body({ newVersion: '--upload-pack=touch /tmp/x' }),
      body({ testType: 3 }),
      body({ envType: 'Bad Env' }),
      body({ extra: 1 }),
      { app: 'calculator' },
    ]) {
      const res = await t.call('POST', '/api/reports', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().data.error).toBe('validation-failed');
    }
    expect(await reportCount()).toBe(before);
  });

  it('lets only members of the app’s team (or an administrator) create, edit and delete', async () => {
    const outsider = await t.createUser('outsider', 'developer');
    const reader = await t.createUser('reader', 'client');
    const before = await reportCount();
    const denied = await t.call('POST', '/api/reports', body(), outsider.headers);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Only members of team reporting may change the reports of calculator.');
    expect((await t.call('POST', '/api/reports', body(), reader.headers)).statusCode).toBe(403);
    expect(await reportCount()).toBe(before);

    await t.ok('PATCH', `/api/teams/${t.teamId}`, { memberIds: [outsider.id] });
    const allowed = await t.call('POST', '/api/reports', body({ name: 'by a member' }), outsider.headers);
    expect(allowed.statusCode, allowed.body).toBe(201);
    const id = allowed.json().data.id as string;
    await waitForReport(t.db, id);

    await t.ok('PATCH', `/api/teams/${t.teamId}`, { memberIds: [] });
    expect((await t.call('PATCH', `/api/reports/${id}`, { name: 'x' }, outsider.headers)).statusCode).toBe(403);
    expect((await t.call('DELETE', `/api/reports/${id}`, undefined, outsider.headers)).statusCode).toBe(403);
    expect((await t.db.select().from(reports).where(eq(reports.id, id)))[0]?.name).toBe('by a member');
  });

  it('renames without running again, and records who changed what', async () => {
    const created = await t.ok<{ id: string }>('POST', '/api/reports', body({ name: 'before rename' }));
    const first = await waitForReport(t.db, created.id);
    expect(first.status).toBe('SUCCESS');
    const renamed = await t.ok<{ name: string; status: string }>('PATCH', `/api/reports/${created.id}`, {
      name: 'after rename',
    });
    expect(renamed).toMatchObject({ name: 'after rename', status: 'SUCCESS' });
    const [row] = await t.db.select().from(reports).where(eq(reports.id, created.id));
    expect(row?.run).toBe(first.run);
    const audit = await usersEntries(created.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update']);
    expect(audit[1]?.changes).toEqual({ name: { from: 'before rename', to: 'after rename' } });
    expect(audit[1]?.actorName).toBe('admin');
  });

  it('re-runs after a new upload: figures go up and risk items resolve', async () => {
    const created = await t.ok<{ id: string }>('POST', '/api/reports', body({ name: 'rerun' }));
    const first = await waitForReport(t.db, created.id);
    expect(first.status).toBe('SUCCESS');
    const openRisks = async () =>
      (
        await t.db
          .select({ n: count() })
          .from(riskItems)
          .where(and(eq(riskItems.reportId, created.id), inArray(riskItems.state, ['observing', 'pending'])))
      )[0]?.n ?? 0;
    const risksBefore = await openRisks();
    expect(risksBefore).toBeGreaterThan(0);

    await addUpload(t.db, t.dataDir, {
      appId,
      commit: first.newCommit as string,
      envType: 'test',
      testType: 2,
      fixture: 'jacoco/jacoco.xml',
      format: 'jacoco',
    });
    const res = await t.call('PATCH', `/api/reports/${created.id}`, { rerun: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'QUEUED', errMsg: null, finishedAt: null });
    const second = await waitForReport(t.db, created.id, (r) => r.run === first.run + 1 && r.status === 'SUCCESS');
    expect(second.lineCovered).toBeGreaterThan(first.lineCovered as number);
    expect(second.diffLineCovered).toBeGreaterThan(first.diffLineCovered as number);
    expect(await openRisks()).toBeLessThan(risksBefore);
    const statuses = await statusesOf(t.db, created.id);
    expect(statuses.filter((s) => s === 'SUCCESS')).toHaveLength(2);
    expect(statuses.filter((s) => s === 'QUEUED')).toHaveLength(2);
  });

  it('a changed coverage type runs again as run 2; the report ends as run 2 computed it', async () => {
    const created = await t.ok<{ id: string }>('POST', '/api/reports', body({ name: 'moving', coverageType: 'full' }));
    // Changed at once, while the first run is queued or cloning.
    const res = await t.call('PATCH', `/api/reports/${created.id}`, { coverageType: 'incremental' });
    expect(res.statusCode, res.body).toBe(200);
    const done = await waitForReport(t.db, created.id, (r) => r.status === 'SUCCESS');
    expect(done.run).toBe(2);
    expect(done.coverageType).toBe('incremental');
    expect(done.diffLineTotal).toBeGreaterThan(0);
    const classes = await t.db
      .select({ n: count() })
      .from(reportDetails)
      .where(and(eq(reportDetails.reportId, created.id), eq(reportDetails.kind, 'class')));
    const [again] = await t.db.select().from(reports).where(eq(reports.id, created.id));
    expect(again?.status).toBe('SUCCESS');
    expect(classes[0]?.n).toBeGreaterThan(0);
  });

  it('deletes a report with its rows, audited; a second delete is 404', async () => {
    const created = await t.ok<{ id: string }>('POST', '/api/reports', body({ name: 'doomed' }));
    await waitForReport(t.db, created.id);
    expect((await t.call('DELETE', `/api/reports/${created.id}`)).statusCode).toBe(200);
    expect(await t.db.select().from(reports).where(eq(reports.id, created.id))).toEqual([]);
    const [details] = await t.db
      .select({ n: count() })
      .from(reportDetails)
      .where(eq(reportDetails.reportId, created.id));
    expect(details?.n).toBe(0);
    const audit = await usersEntries(created.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'delete']);
    expect((await t.call('DELETE', `/api/reports/${created.id}`)).statusCode).toBe(404);
    expect((await t.call('PATCH', `/api/reports/${created.id}`, { rerun: true })).statusCode).toBe(404);
  });

  it('deleting a running report stops its job (the build is killed, its checkout removed)', async () => {
    const slowApp = await t.createApp({ name: 'slow', repoUrl: repo, buildCommand: 'sleep 60' });
    const created = await t.ok<{ id: string }>('POST', '/api/reports', body({ app: slowApp, name: 'stopped' }));
    await waitForReport(t.db, created.id, (r) => r.status === 'COMPILING');
    // COMPILING is published before the export of the commit is written: wait for the build to start,
    // recorded under <data>/builds with its folder (the checkout).
    const records = join(t.dataDir, 'builds');
    const started = Date.now() + 15_000;
    const running = () => (existsSync(records) ? readdirSync(records).filter((f) => f.endsWith('.json')) : []);
    while (running().length === 0 && Date.now() < started) await new Promise((r) => setTimeout(r, 50));
    const [record] = running();
    expect(record).toBeDefined();
    const { buildRoot } = JSON.parse(readFileSync(join(records, record as string), 'utf8')) as { buildRoot: string };
    expect(existsSync(join(buildRoot, 'src'))).toBe(true);
    expect((await t.call('DELETE', `/api/reports/${created.id}`)).statusCode).toBe(200);
    const deadline = Date.now() + 15_000;
    while ((existsSync(buildRoot) || running().length > 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(existsSync(buildRoot)).toBe(false);
    expect(running()).toEqual([]);
    expect(await t.db.select().from(reports).where(eq(reports.id, created.id))).toEqual([]);
  });
});
