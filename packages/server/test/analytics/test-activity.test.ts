import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AppOverview, Cockpit, RiskItem } from '@sextant/api';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUpload, fixtureRepo, useReportsApp, waitForReport } from '../reports/pipeline-support.ts';

/**
 * Issue 35: the risk burn-down (from the risk items' history, written by the real pipeline and by a
 * judgment through the API), uploads per day and the agents alive now, on app analytics and the cockpit.
 */
describe('test activity and risk burn-down', () => {
  const t = useReportsApp();
  let repo: string;
  let appId: string;
  const today = new Date().toISOString().slice(0, 10);
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  beforeAll(async () => {
    repo = fixtureRepo('jacoco');
    appId = await t.createApp({ name: 'burning', repoUrl: repo });
    await t.ok('PATCH', '/api/settings', { showJudgment: true });
    const head = execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    await addUpload(t.db, t.dataDir, {
      appId,
      commit: head,
      envType: 'test',
      testType: 2,
      fixture: 'jacoco/jacoco-main.xml',
      format: 'jacoco',
    });
    const created = await t.ok<{ id: string }>('POST', '/api/reports', {
      app: 'burning',
      name: 'main',
      baseVersion: 'base',
      newVersion: 'main',
      envType: 'test',
      testType: 2,
      coverageType: 'incremental',
    });
    const done = await waitForReport(t.db, created.id);
    expect(done.status, done.errMsg ?? '').toBe('SUCCESS');
  }, 120_000);
  afterAll(() => rmSync(dirname(repo), { recursive: true, force: true }));

  const get = async <T>(url: string) => {
    const res = await t.call('GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as T;
  };
  const items = async () => (await get<{ items: RiskItem[] }>(`/api/risks?perPage=200&appId=${appId}`)).items;
  const open = (i: RiskItem) =>
    i.state === 'observing' || i.state === 'pending' || (i.state === 'judged' && i.judgment === 'needs-test');

  it('counts the items the report opened and the one judged an accepted risk, per day', async () => {
    const opened = await items();
    expect(opened.length).toBeGreaterThan(1);
    const first = opened[0] as RiskItem;
    const judged = await t.call('POST', `/api/risks/${first.id}/judgment`, { judgment: 'accepted', reason: 'legacy' });
    expect(judged.statusCode, judged.body).toBe(200);

    const overview = await get<AppOverview>(`/api/analytics/apps/overview?appId=${appId}`);
    expect(overview.burnDown.bucket).toBe('day');
    expect(overview.burnDown.points).toHaveLength(30);
    const last = overview.burnDown.points.at(-1);
    expect(last).toEqual({ day: today, opened: opened.length, closed: 1, open: opened.length - 1 });
    expect(last?.open).toBe((await items()).filter(open).length);
    expect(overview.burnDown.points.slice(0, -1).every((p) => p.opened === 0 && p.closed === 0 && p.open === 0)).toBe(
      true,
    );
  });

  it('carries the open count into a later range, draws long ranges per week, and filters', async () => {
    const n = (await items()).filter(open).length;
    const later = await get<AppOverview>(`/api/analytics/apps/overview?appId=${appId}&from=${today}&to=${today}`);
    expect(later.burnDown.points).toEqual([expect.objectContaining({ day: today, open: n })]);
    const before = await get<AppOverview>(`/api/analytics/apps/overview?appId=${appId}&to=${daysAgo(1)}`);
    expect(before.burnDown.points.every((p) => p.open === 0)).toBe(true);
    const long = await get<AppOverview>(`/api/analytics/apps/overview?appId=${appId}&from=${daysAgo(200)}`);
    expect(long.burnDown.bucket).toBe('week');
    expect(new Date(`${long.burnDown.points[0]?.day}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(long.burnDown.points.at(-1)?.open).toBe(n);
    const unit = await get<AppOverview>(`/api/analytics/apps/overview?appId=${appId}&testType=1`);
    expect(unit.burnDown.points.every((p) => p.opened === 0 && p.open === 0)).toBe(true);
    const cockpit = await get<Cockpit>(`/api/analytics/cockpit?appId=${appId}`);
    expect(cockpit.burnDown.points.at(-1)?.open).toBe(n);
  });

  it('counts uploads per day and the agents alive now per environment', async () => {
    const beat = (agentId: string, status: string, envType = 'test') =>
      t.ok('POST', '/api/coverage/agents/heartbeat', {
        app: 'burning',
        agentId,
        envType,
        status,
        ...(status === 'HEART_BEAT_ERROR' ? { error: 'upload refused' } : {}),
      });
    await beat('qa-1', 'HEART_BEAT_DONE');
    await beat('qa-2', 'HEART_BEAT_ERROR');
    await beat('qa-3', 'HEART_BEAT_DONE');
    await beat('dev-1', 'HEART_BEAT_DONE', 'dev');
    // qa-3 last beat an hour ago: known, not alive.
    await t.db.execute(
      sql`update coverage_agents set last_heartbeat_at = now() - interval '1 hour' where agent_id = 'qa-3'`,
    );
    const overview = await get<AppOverview>(`/api/analytics/apps/overview?appId=${appId}`);
    expect(overview.agents.map((a) => [a.appName, a.envType, a.agents, a.alive, a.failing])).toEqual([
      ['burning', 'dev', 1, 1, 0],
      ['burning', 'test', 3, 1, 1],
    ]);
    expect(overview.uploads).toEqual([{ day: today, uploads: 1, agents: 0 }]);
    const test = await get<Cockpit>(`/api/analytics/cockpit?appId=${appId}&envType=test`);
    expect(test.agents.map((a) => a.envType)).toEqual(['test']);
    expect(test.uploads).toEqual([{ day: today, uploads: 1, agents: 0 }]);
    const dev = await get<Cockpit>(`/api/analytics/cockpit?appId=${appId}&envType=dev`);
    expect(dev.uploads).toEqual([]);
  });
});
