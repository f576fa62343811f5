import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { type RiskHeadline, type RiskHistoryEntry, type RiskItem, riskSeverity } from '@sextant/api';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../src/db/schema/index.ts';
import { addUpload, fixtureRepo, useReportsApp, waitForReport } from '../reports/pipeline-support.ts';

/**
 * The risk workflow on reports made by the real pipeline (issue 34): the JaCoCo fixture project
 * (tags base and head), its partial report first, then a fuller one for the same version.
 */
describe('coverage risks through the report pipeline', () => {
  const t = useReportsApp();
  let repo: string;
  beforeAll(() => {
    repo = fixtureRepo('jacoco');
  });
  afterAll(() => rmSync(dirname(repo), { recursive: true, force: true }));

  const methodKey = (r: RiskItem) => `${r.filePath}|${r.methodName}|${r.signature ?? ''}`;
  const list = async (query: string, headers = t.admin) => {
    const res = await t.call('GET', `/api/risks?perPage=200&${query}`, undefined, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { items: RiskItem[]; total: number };
  };
  /** An app on the fixture repository with the partial JaCoCo report of head uploaded. */
  const appWithPartialReport = async (name: string) => {
    const appId = await t.createApp({ name, repoUrl: repo });
    await upload(appId, 'jacoco/jacoco-main.xml');
    return appId;
  };
  const upload = (appId: string, fixture: string) =>
    addUpload(t.db, t.dataDir, { appId, commit: 'head', envType: 'test', testType: 2, fixture, format: 'jacoco' });
  const runReport = async (app: string, name: string) => {
    const created = await t.ok<{ id: string }>('POST', '/api/reports', {
      app,
      name,
      baseVersion: 'base',
      newVersion: 'head',
      envType: 'test',
      testType: 2,
      coverageType: 'incremental',
    });
    const done = await waitForReport(t.db, created.id);
    expect(done.status, done.errMsg ?? '').toBe('SUCCESS');
    return created.id;
  };
  const judge = (id: string, body: Record<string, unknown>, headers = t.admin) =>
    t.call('POST', `/api/risks/${id}/judgment`, body, headers);

  let learnedResolved: Set<string>;

  it('opens one observing item per uncovered changed method; a second report of the version does not duplicate it', async () => {
    const appId = await appWithPartialReport('learner');
    const first = await runReport('learner', 'first');
    const opened = await list(`appId=${appId}`);
    expect(opened.total).toBeGreaterThan(1);
    expect(new Set(opened.items.map(methodKey)).size).toBe(opened.total);
    for (const item of opened.items) {
      expect(item).toMatchObject({
        kind: 'coverage',
        state: 'observing',
        version: 'head',
        reportId: first,
        testType: 2,
      });
      expect(item.lineCovered / Math.max(1, item.lineTotal)).toBeLessThan(0.6);
      expect(item.changedLines).toBeGreaterThan(0);
      expect(item.severity).toBeGreaterThan(0);
      // The score the list sorts by (SQL) is the documented one (packages/api).
      const ageDays = (Date.now() - Date.parse(item.createdAt)) / 86_400_000;
      expect(item.severity).toBeCloseTo(riskSeverity({ ...item, ageDays }), 1);
    }

    const second = await runReport('learner', 'second');
    const again = await list(`appId=${appId}`);
    expect(again.total).toBe(opened.total);
    expect(again.items.map((i) => i.id).sort()).toEqual(opened.items.map((i) => i.id).sort());
    expect(again.items.every((i) => i.reportId === second && i.state === 'observing')).toBe(true);

    // A fuller report of the same version resolves what it covers, naming itself.
    await upload(appId, 'jacoco/jacoco.xml');
    const third = await runReport('learner', 'third');
    const after = await list(`appId=${appId}`);
    const resolved = after.items.filter((i) => i.state === 'resolved');
    expect(resolved.length).toBeGreaterThan(1);
    expect(resolved.length).toBeLessThan(after.total);
    expect(resolved.every((i) => i.resolvedByReportId === third && i.resolvedAt !== null)).toBe(true);
    learnedResolved = new Set(resolved.map(methodKey));

    const history = await t.ok<RiskHistoryEntry[]>('GET', `/api/risks/${resolved[0]?.id}/history`);
    expect(history.map((h) => [h.fromState, h.toState, h.reportId])).toEqual([
      [null, 'observing', first],
      ['observing', 'resolved', third],
    ]);
    const headline = await t.ok<RiskHeadline>('GET', `/api/risks/headline?appId=${appId}`);
    expect(headline).toMatchObject({
      open: after.total - resolved.length,
      newThisWeek: after.total,
      resolvedThisWeek: resolved.length,
    });
    expect(headline.oldestOpenAt).not.toBeNull();
  });

  it('keeps judgments across reports: accepted stays accepted, needs-test resolves when covered, pending stays', async () => {
    const tester = await t.createUser('tester1', 'tester');
    const appId = await appWithPartialReport('judged');
    await runReport('judged', 'first');
    const items = (await list(`appId=${appId}`)).items;
    const willResolve = items.filter((i) => learnedResolved.has(methodKey(i)));
    const staysOpen = items.filter((i) => !learnedResolved.has(methodKey(i)));
    const [accepted, needsTest] = willResolve as [RiskItem, RiskItem];
    const pending = staysOpen[0] as RiskItem;

    // showJudgment is off by default: the API refuses judgments and no row says it may be judged.
    const refused = await judge(accepted.id, { judgment: 'accepted', reason: 'legacy path' });
    expect(refused.statusCode).toBe(403);
    expect(items.every((i) => !i.mayJudge)).toBe(true);
    await t.ok('PATCH', '/api/settings', { showJudgment: true });
    expect((await list(`appId=${appId}`)).items.every((i) => i.mayJudge)).toBe(true);

    expect((await judge(accepted.id, { judgment: 'accepted', reason: 'legacy path' })).statusCode).toBe(200);
    const assigned = await judge(needsTest.id, {
      judgment: 'needs-test',
      assigneeId: tester.id,
      dueDate: '2020-01-31',
      reason: 'add a unit test',
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().data).toMatchObject({ state: 'judged', judgment: 'needs-test', overdue: true });
    const asked = await t.ok<{ asked: number }>('POST', '/api/risks/ask-decision', { ids: [pending.id, accepted.id] });
    expect(asked.asked).toBe(1);

    // The assignee is told; every transition is audited.
    const notes = await t.call('GET', '/api/notifications?perPage=50', undefined, tester.headers);
    expect(notes.json().data.items.map((n: { title: string }) => n.title)).toContain('A risk was assigned to you');
    const audit = await t.db.select().from(auditLogs).where(eq(auditLogs.entity, 'risk'));
    expect(audit.map((a) => a.entityId).sort()).toEqual([accepted.id, needsTest.id, pending.id].sort());

    await upload(appId, 'jacoco/jacoco.xml');
    const covering = await runReport('judged', 'covering');
    const byId = new Map((await list(`appId=${appId}`)).items.map((i) => [i.id, i]));
    expect(byId.get(accepted.id)).toMatchObject({ state: 'judged', judgment: 'accepted', reason: 'legacy path' });
    expect(byId.get(needsTest.id)).toMatchObject({ state: 'resolved', resolvedByReportId: covering });
    expect(byId.get(pending.id)).toMatchObject({ state: 'pending' });
    const history = await t.ok<RiskHistoryEntry[]>('GET', `/api/risks/${needsTest.id}/history`);
    expect(history.map((h) => [h.fromState, h.toState, h.actorName])).toEqual([
      [null, 'observing', null],
      ['observing', 'judged', 'admin'],
      ['judged', 'resolved', null],
    ]);
    expect((await list(`appId=${appId}&state=pending,judged`)).items.map((i) => i.id).sort()).toEqual(
      [accepted.id, pending.id].sort(),
    );
    await t.ok('PATCH', '/api/settings', { showJudgment: false });
  });

  it('lets only readers see risks, and only authors, team testers or risk managers judge', async () => {
    const client = await t.createUser('client1', 'client');
    const developer = await t.createUser('dev1', 'developer');
    const outsider = await t.createUser('dev2', 'developer');
    const teamTester = await t.createUser('tester2', 'tester');
    await t.ok('PATCH', `/api/teams/${t.teamId}`, { memberIds: [developer.id, teamTester.id] });
    const appId = await appWithPartialReport('guarded');
    await runReport('guarded', 'first');
    const [item] = (await list(`appId=${appId}`)).items as [RiskItem];
    await t.ok('PATCH', '/api/settings', { showJudgment: true });

    expect((await t.call('GET', '/api/risks', undefined, client.headers)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/risks/headline', undefined, client.headers)).statusCode).toBe(403);
    expect((await judge(item.id, { judgment: 'accepted', reason: 'x' }, client.headers)).statusCode).toBe(403);
    // Outside the app's team nothing is seen: the item answers as missing.
    expect((await list('', outsider.headers)).total).toBe(0);
    expect((await judge(item.id, { judgment: 'accepted', reason: 'x' }, outsider.headers)).statusCode).toBe(404);
    // A team member who is neither the author nor a tester sees it but may not judge it.
    const seen = await list(`appId=${appId}`, developer.headers);
    expect(seen.items.find((i) => i.id === item.id)?.mayJudge).toBe(false);
    expect((await judge(item.id, { judgment: 'accepted', reason: 'x' }, developer.headers)).statusCode).toBe(403);
    const byTester = await judge(item.id, { judgment: 'false-positive', reason: 'generated code' }, teamTester.headers);
    expect(byTester.statusCode, byTester.body).toBe(200);
    // Bad judgments change nothing.
    for (const bad of [
      { judgment: 'accepted' },
      { judgment: 'needs-test', assigneeId: developer.id },
      { judgment: 'needs-test', assigneeId: '00000000-0000-4000-8000-000000000000', dueDate: '2030-01-01' },
      { judgment: 'maybe', reason: 'x' },
    ]) {
      expect((await judge(item.id, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    const [still] = (await list(`ids=${item.id}`)).items;
    expect(still).toMatchObject({ judgment: 'false-positive', reason: 'generated code' });
    await t.ok('PATCH', `/api/teams/${t.teamId}`, { memberIds: [] });
    await t.ok('PATCH', '/api/settings', { showJudgment: false });
  });
});
