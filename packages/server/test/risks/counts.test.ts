import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RiskHeadline, RiskItem } from '@sextant/api';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUpload, fixtureRepo, useReportsApp, waitForReport } from '../reports/pipeline-support.ts';

/**
 * risk_item_counts (kept by triggers, migrations 0010 and 0018) answers the lists' totals and the
 * headline's open and pending figures without counting risk_items (issue 34): after every kind of
 * write (a report's new items, a re-run report, asking for a decision, each judgment, a resolution)
 * it must equal a recount, and the figures it gives must equal the exact ones.
 */
describe('maintained risk counts', () => {
  const t = useReportsApp();
  let repo: string;
  beforeAll(() => {
    repo = fixtureRepo('jacoco');
  });
  afterAll(() => rmSync(dirname(repo), { recursive: true, force: true }));

  const upload = (appId: string, fixture: string) =>
    addUpload(t.db, t.dataDir, { appId, commit: 'head', envType: 'test', testType: 2, fixture, format: 'jacoco' });
  const runReport = async (name: string) => {
    const created = await t.ok<{ id: string }>('POST', '/api/reports', {
      app: 'counted',
      name,
      baseVersion: 'base',
      newVersion: 'head',
      envType: 'test',
      testType: 2,
      coverageType: 'incremental',
    });
    const done = await waitForReport(t.db, created.id);
    expect(done.status, done.errMsg ?? '').toBe('SUCCESS');
  };
  const rows = async (query: ReturnType<typeof sql>) =>
    (await t.db.execute<{ key: string; n: number }>(query)).rows.map((r) => `${r.key}=${Number(r.n)}`).sort();
  /** The maintained counts (zero rows left out) against a recount of risk_items. */
  const expectCountsTrue = async (step: string) => {
    const kept = await rows(sql`select concat_ws('|', app_id, kind, state, judgment) as key, n
      from risk_item_counts where n <> 0`);
    const recount = await rows(sql`select concat_ws('|', app_id, kind, state, coalesce(judgment, '')) as key,
      count(*) as n from risk_items group by app_id, kind, state, coalesce(judgment, '')`);
    expect(kept, step).toEqual(recount);
    expect(recount.length, step).toBeGreaterThan(0);
  };
  /** Totals and headline from the counts (apps and states only) against exact ones (a version narrows to count). */
  const expectFiguresExact = async (appId: string, step: string) => {
    for (const state of ['observing,pending', 'pending,judged', 'judged', 'resolved', '']) {
      const kept = await t.ok<{ total: number }>('GET', `/api/risks?appId=${appId}&state=${state}`);
      const exact = await t.ok<{ total: number }>('GET', `/api/risks?appId=${appId}&version=head&state=${state}`);
      expect(kept.total, `${step}: total of ${state}`).toBe(exact.total);
    }
    const kept = await t.ok<RiskHeadline>('GET', `/api/risks/headline?appId=${appId}`);
    const exact = await t.ok<RiskHeadline>('GET', `/api/risks/headline?appId=${appId}&version=head`);
    expect(kept, step).toEqual(exact);
  };
  const items = async (appId: string) =>
    (await t.ok<{ items: RiskItem[] }>('GET', `/api/risks?perPage=200&appId=${appId}`)).items;

  it('equal a recount after new items, a re-run report, each transition and a resolution', async () => {
    const tester = await t.createUser('counter', 'tester');
    const appId = await t.createApp({ name: 'counted', repoUrl: repo });
    await upload(appId, 'jacoco/jacoco-main.xml');
    await runReport('first');
    await expectCountsTrue('new items');
    const opened = await items(appId);
    expect(opened.length).toBeGreaterThan(3);
    await expectFiguresExact(appId, 'new items');

    await runReport('re-run');
    await expectCountsTrue('re-run report');

    await t.ok('PATCH', '/api/settings', { showJudgment: true });
    const [asked, accepted, needsTest, falsePositive] = opened as [RiskItem, RiskItem, RiskItem, RiskItem];
    await t.ok('POST', '/api/risks/ask-decision', { ids: [asked.id, accepted.id] });
    await expectCountsTrue('asked for a decision');
    const judge = async (id: string, body: Record<string, unknown>) => {
      const res = await t.call('POST', `/api/risks/${id}/judgment`, body);
      expect(res.statusCode, res.body).toBe(200);
    };
    await judge(accepted.id, { judgment: 'accepted', reason: 'legacy' });
    await judge(needsTest.id, {
      judgment: 'needs-test',
      assigneeId: tester.id,
      dueDate: '2020-01-31',
      reason: 'add a test',
    });
    await judge(falsePositive.id, { judgment: 'false-positive', reason: 'generated' });
    // Judged again: the counts move from one judgment to the other.
    await judge(falsePositive.id, { judgment: 'accepted', reason: 'known' });
    await expectCountsTrue('judgments');
    await expectFiguresExact(appId, 'judgments');
    expect((await t.ok<RiskHeadline>('GET', `/api/risks/headline?appId=${appId}`)).overdue).toBe(1);

    // A fuller report of the version resolves what it covers.
    await upload(appId, 'jacoco/jacoco.xml');
    await runReport('covering');
    const after = await items(appId);
    expect(after.some((i) => i.state === 'resolved')).toBe(true);
    await expectCountsTrue('resolution');
    await expectFiguresExact(appId, 'resolution');
    await t.ok('PATCH', '/api/settings', { showJudgment: false });
  });
});
