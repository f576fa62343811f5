import { beforeAll, describe, expect, it } from 'vitest';
import { useReportViews } from './support.ts';

type Summary = {
  appName: string;
  teamName: string;
  testType: number;
  latestFull: { name: string } | null;
  latestIncremental: { name: string; diffLineCoverage: number | null } | null;
  trend: { name: string; lineCoverage: number | null }[];
};
type Dashboard = { apps: Summary[]; running: { name: string; status: string }[]; openRisks: number };

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

describe('team and app dashboards', () => {
  const t = useReportViews();
  const scope: Record<string, string> = {};
  const board = (query = '') => t.ok<Dashboard>('GET', `/api/dashboard${query}`);
  const summary = (d: Dashboard, app: string, testType: number) =>
    d.apps.find((a) => a.appName === app && a.testType === testType);

  beforeAll(async () => {
    const checkout = await t.createApp('Shop', 'checkout');
    const billing = await t.createApp('Shop', 'billing');
    const api = await t.createApp('Ops', 'api');
    Object.assign(scope, { shop: checkout.teamId, ops: api.teamId, api: api.appId });
    const done = (minute: number) => ({ finishedAt: at(minute), createdAt: at(minute - 1) });
    await t.insertReport({ appId: checkout.appId, name: 'full-old', ...done(10), lineCovered: 1, lineTotal: 4 });
    await t.insertReport({ appId: checkout.appId, name: 'full-new', ...done(20), lineCovered: 3, lineTotal: 4 });
    await t.insertReport({
      appId: checkout.appId,
      name: 'incr',
      coverageType: 'incremental',
      ...done(30),
      diffLineCovered: 1,
      diffLineTotal: 2,
    });
    await t.insertReport({ appId: checkout.appId, name: 'failed', status: 'CLONE_FAIL', ...done(40) });
    await t.insertReport({ appId: checkout.appId, name: 'cloning', status: 'CLONING', createdAt: at(50) });
    for (let i = 1; i <= 25; i++) {
      await t.insertReport({ appId: billing.appId, name: `b${i}`, ...done(100 + i), lineCovered: i, lineTotal: 25 });
    }
    const apiReport = await t.insertReport({ appId: api.appId, name: 'queued', status: 'QUEUED', createdAt: at(60) });
    const risky = await t.insertReport({ appId: checkout.appId, name: 'risky', testType: 2, ...done(70) });
    for (const state of ['observing', 'observing', 'pending', 'judged', 'resolved']) {
      await t.insertRisk(risky, checkout.appId, state);
    }
    await t.insertRisk(apiReport, api.appId, 'observing');
  });

  it('shows every app per test type: latest successful full and incremental report and the trend', async () => {
    const all = await board();
    expect(all.apps.map((a) => `${a.teamName}/${a.appName}/${a.testType}`)).toEqual([
      'Ops/api/1',
      'Ops/api/2',
      'Shop/billing/1',
      'Shop/billing/2',
      'Shop/checkout/1',
      'Shop/checkout/2',
    ]);
    const checkout = summary(all, 'checkout', 1);
    expect(checkout?.latestFull?.name).toBe('full-new');
    expect(checkout?.latestIncremental).toMatchObject({ name: 'incr', diffLineCoverage: 0.5 });
    expect(checkout?.trend.map((p) => p.name)).toEqual(['full-old', 'full-new', 'incr']);
    expect(checkout?.trend[0]?.lineCoverage).toBe(0.25);
    expect(summary(all, 'checkout', 2)).toMatchObject({ latestFull: { name: 'risky' }, latestIncremental: null });
    expect(summary(all, 'api', 1)).toMatchObject({ latestFull: null, latestIncremental: null, trend: [] });
    const billing = summary(all, 'billing', 1)?.trend ?? [];
    expect(billing.map((p) => p.name)).toEqual(Array.from({ length: 20 }, (_, i) => `b${i + 6}`));
    expect(billing.at(-1)?.lineCoverage).toBe(1);
    expect(all.running.map((r) => [r.name, r.status])).toEqual([
      ['cloning', 'CLONING'],
      ['queued', 'QUEUED'],
    ]);
    expect(all.openRisks).toBe(4);
  });

  it('orders the trend by version, each version at the date its first report was asked for', async () => {
    const inventory = await t.createApp('Ops', 'inventory');
    const done = (minute: number) => ({ finishedAt: at(minute), createdAt: at(minute - 1) });
    await t.insertReport({ appId: inventory.appId, name: 'v1', newVersion: 'v1.0', ...done(200) });
    await t.insertReport({ appId: inventory.appId, name: 'v2', newVersion: 'v2.0', ...done(210) });
    // v1.0 again, later (a re-run or another environment): it stays with its version, before v2.0.
    await t.insertReport({ appId: inventory.appId, name: 'v1 again', newVersion: 'v1.0', ...done(220) });
    // v3.0's report asked for before v4.0's but finished after it (a longer build): v3.0 still comes first.
    await t.insertReport({
      appId: inventory.appId,
      name: 'v3',
      newVersion: 'v3.0',
      createdAt: at(230),
      finishedAt: at(260),
    });
    await t.insertReport({
      appId: inventory.appId,
      name: 'v4',
      newVersion: 'v4.0',
      createdAt: at(240),
      finishedAt: at(250),
    });
    const board = await t.ok<Dashboard>('GET', `/api/dashboard?appId=${inventory.appId}`);
    const trend = (board.apps.find((a) => a.testType === 1)?.trend ?? []) as unknown as {
      name: string;
      version: string;
      versionDate: string;
      date: string;
    }[];
    expect(trend.map((p) => [p.name, p.version])).toEqual([
      ['v1', 'v1.0'],
      ['v1 again', 'v1.0'],
      ['v2', 'v2.0'],
      ['v3', 'v3.0'],
      ['v4', 'v4.0'],
    ]);
    expect(trend.map((p) => p.versionDate)).toEqual(
      [at(199), at(199), at(209), at(230), at(240)].map((d) => d.toISOString()),
    );
    expect(trend[1]?.date).toBe(at(220).toISOString());
  });

  it('narrows to a team or an app', async () => {
    const shop = await board(`?teamId=${scope.shop}`);
    expect(new Set(shop.apps.map((a) => a.appName))).toEqual(new Set(['checkout', 'billing']));
    expect([shop.running.map((r) => r.name), shop.openRisks]).toEqual([['cloning'], 3]);
    const api = await board(`?appId=${scope.api}`);
    expect([api.apps.length, api.running.map((r) => r.name), api.openRisks]).toEqual([2, ['queued'], 1]);
    const mismatch = await board(`?teamId=${scope.shop}&appId=${scope.api}`);
    expect(mismatch).toEqual({ apps: [], running: [], openRisks: 0 });
  });

  it('answers 404 for an unknown team or app and 400 for a malformed id', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await t.get(`/api/dashboard?teamId=${unknown}`)).statusCode).toBe(404);
    expect((await t.get(`/api/dashboard?appId=${unknown}`)).statusCode).toBe(404);
    expect((await t.get('/api/dashboard?teamId=shop')).statusCode).toBe(400);
  });

  it('needs AppDashboard for an app, and TeamDashboard too for a team or all apps', async () => {
    expect((await t.get('/api/dashboard', {})).statusCode).toBe(401);
    expect((await t.get('/api/dashboard', t.client)).statusCode).toBe(403);
    await t.ok('POST', '/api/roles', {
      name: 'app-board-reader',
      ability: [{ action: 'read', resource: 'AppDashboard' }],
      resourceNums: { AppDashboard: 1 },
    });
    const appReader = await t.createUser('appreader', 'app-board-reader');
    expect((await t.get(`/api/dashboard?appId=${scope.api}`, appReader)).statusCode).toBe(200);
    const team = await t.get(`/api/dashboard?teamId=${scope.ops}`, appReader);
    expect([team.statusCode, team.json().data.error]).toEqual([403, 'forbidden']);
    const developer = await t.createUser('dev1', 'developer');
    expect((await t.get(`/api/dashboard?teamId=${scope.ops}`, developer)).statusCode).toBe(200);
  });
});
