import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useReportViews } from './support.ts';

type Report = { id: string; name: string; lineCoverage: number | null; riskCount: number } & Record<string, unknown>;
type Page = { reports: Report[]; total: number; totalExact: boolean };

describe('searchReports and getReport (specification point 7)', () => {
  const t = useReportViews();
  const ids: Record<string, string> = {};
  const search = (body: object) => t.ok<Page>('POST', '/api/searchReports', body);
  const names = (page: Page) => page.reports.map((r) => r.name);

  beforeAll(async () => {
    const checkout = await t.createApp('Shop', 'checkout');
    const billing = await t.createApp('Shop', 'billing');
    const opsCheckout = await t.createApp('Ops', 'checkout');
    const line = (covered: number | null, total: number | null) => ({ lineCovered: covered, lineTotal: total });
    ids.A = await t.insertReport({
      appId: checkout.appId,
      name: 'A',
      newVersion: 'v2',
      ...line(8, 10),
      branchCovered: 1,
      branchTotal: 4,
      complexityCovered: 3,
      complexityTotal: 6,
      codeAuthor: 'ada',
    });
    ids.B = await t.insertReport({ appId: checkout.appId, name: 'B', newVersion: 'v3', ...line(2, 10) });
    ids.C = await t.insertReport({
      appId: billing.appId,
      name: 'C',
      envType: 'dev',
      ...line(5, 10),
      branchCovered: 3,
      branchTotal: 4,
    });
    // A total of 0 has no figure: it sorts with the nulls, never as 0 %.
    ids.D = await t.insertReport({ appId: billing.appId, name: 'D', ...line(0, 0), branchCovered: 0, branchTotal: 2 });
    ids.E = await t.insertReport({
      appId: opsCheckout.appId,
      name: 'E',
      ...line(5, 10),
      branchCovered: 2,
      branchTotal: 4,
    });
    ids.F = await t.insertReport({ appId: checkout.appId, name: 'F', testType: 2, ...line(1, 1) });
    for (const state of ['observing', 'observing', 'pending', 'judged', 'resolved']) {
      await t.insertRisk(ids.A, checkout.appId, state);
    }
  });
  // C and E tie at 0.5: the id decides, in the sort's direction.
  const tied = () => [ids.C, ids.E].sort().map((id) => (id === ids.C ? 'C' : 'E'));

  it('defaults: testType 1, lineCoverage ascending with absent figures last, 10 per page', async () => {
    const page = await search({});
    expect(page.total).toBe(5);
    expect(names(page)).toEqual(['B', ...tied(), 'A', 'D']);
    const a = page.reports.find((r) => r.name === 'A');
    expect(a).toMatchObject({
      lineCoverage: 0.8,
      lineCovered: 8,
      lineTotal: 10,
      branchCoverage: 0.25,
      cxty: 0.5,
      instructionCoverage: null,
      instructionTotal: null,
      appName: 'checkout',
      testType: 1,
      riskCount: 3,
      codeAuthor: 'ada',
      status: 'SUCCESS',
    });
    expect(page.reports.find((r) => r.name === 'D')?.lineCoverage).toBeNull();
  });

  it('sorts descending with absent figures still last', async () => {
    expect(names(await search({ sortDesc: true }))).toEqual(['A', ...tied().reverse(), 'B', 'D']);
    expect(names(await search({ sortBy: 'branchCoverage' }))).toEqual(['D', 'A', 'E', 'C', 'B']);
    expect(names(await search({ sortBy: 'branchCoverage', sortDesc: 'true' }))).toEqual(['C', 'E', 'A', 'D', 'B']);
    expect(names(await search({ sortBy: 'name', sortDesc: true }))).toEqual(['E', 'D', 'C', 'B', 'A']);
    const byApp = names(await search({ sortBy: 'appName' }));
    expect([byApp.slice(0, 2).sort(), byApp.slice(2).sort()]).toEqual([
      ['C', 'D'],
      ['A', 'B', 'E'],
    ]);
  });

  it('filters by appName, newVersion and envType only when given, and by testType always', async () => {
    expect((await search({ appName: 'checkout' })).total).toBe(3);
    expect(names(await search({ appName: 'checkout', sortBy: 'name' }))).toEqual(['A', 'B', 'E']);
    expect(names(await search({ newVersion: 'v2', sortBy: 'name' }))).toEqual(['A', 'C', 'D', 'E']);
    expect(names(await search({ envType: 'dev' }))).toEqual(['C']);
    expect(names(await search({ appName: 'checkout', newVersion: 'v2', envType: 'test', sortBy: 'name' }))).toEqual([
      'A',
      'E',
    ]);
    expect(await search({ appName: 'nothing' })).toEqual({ reports: [], total: 0, totalExact: true });
    const second = await search({ testType: 2 });
    expect([names(second), second.total]).toEqual([['F'], 1]);
  });

  it('pages without overlap; total counts every match', async () => {
    const all = names(await search({ perPage: 10 }));
    const pages = await Promise.all([1, 2, 3].map((page) => search({ perPage: 2, page })));
    expect(pages.map((p) => p.total)).toEqual([5, 5, 5]);
    expect(pages.flatMap(names)).toEqual(all);
    expect(await search({ perPage: 2, page: 4 })).toEqual({ reports: [], total: 5, totalExact: true });
  });

  it('refuses a bad search with the field, and changes nothing', async () => {
    const res = await t.post('/api/searchReports', { sortBy: 'password', testType: 3, perPage: 0 });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().data.fields).sort()).toEqual(['perPage', 'sortBy', 'testType']);
  });

  it('getReport answers the report with its figures, or 404 for an unknown or malformed id', async () => {
    const report = await t.ok<Report>('GET', `/api/getReport?reportId=${ids.A}`);
    const fromSearch = (await search({ appName: 'checkout' })).reports.find((r) => r.id === ids.A);
    expect(report).toEqual(fromSearch);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'abc', "1' or '1'='1"]) {
      const res = await t.get(`/api/getReport?reportId=${encodeURIComponent(id)}`);
      expect([id, res.statusCode, res.json().data]).toEqual([id, 404, { error: 'not-found' }]);
    }
    expect((await t.get('/api/getReport')).statusCode).toBe(400);
  });

  it('reuses a search total for a few seconds, and forgets it when reports or apps change here', async () => {
    const perf = await t.createApp('Shop', 'perf-app');
    await t.insertReport({ appId: perf.appId, name: 'P1', envType: 'perf', testType: 2 });
    expect((await search({ envType: 'perf', testType: 2 })).total).toBe(1);
    // Written behind the API's back (as another instance would): the page shows it, the total lags
    // (a full page: a short one is the last and gives the exact total itself).
    await t.insertReport({ appId: perf.appId, name: 'P2', envType: 'perf', testType: 2 });
    const stale = await search({ envType: 'perf', testType: 2, perPage: 1, sortBy: 'name' });
    expect([names(stale), stale.total]).toEqual([['P1'], 1]);
    expect((await search({ envType: 'perf', testType: 2 })).total).toBe(2);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/apps/${perf.appId}`,
      headers: t.admin,
      payload: { name: 'perf' },
    });
    expect((await search({ envType: 'perf', testType: 2, perPage: 1 })).total).toBe(2);
  });

  it('needs a sign-in and read on Report', async () => {
    expect((await t.post('/api/searchReports', {}, {})).statusCode).toBe(401);
    expect((await t.get(`/api/getReport?reportId=${ids.A}`, {})).statusCode).toBe(401);
    const denied = await t.post('/api/searchReports', {}, t.client);
    expect([denied.statusCode, denied.json().data.error]).toEqual([403, 'forbidden']);
    expect((await t.get(`/api/getReport?reportId=${ids.A}`, t.client)).statusCode).toBe(403);
    const developer = await t.createUser('dev1', 'developer');
    const res = await t.post('/api/searchReports', {}, developer);
    expect([res.statusCode, res.json().data.total]).toEqual([200, 5]);
  });

  it('a broad filter answers the estimate (no count of every row), a narrow one the exact count (issue 41)', async () => {
    const bulk = await t.createApp('Shop', 'bulk-app');
    await t.db.execute(sql`insert into reports (app_id, name, base_version, new_version, env_type, test_type,
        coverage_type, status)
      select ${bulk.appId}, 'bulk-' || g, 'v1', 'v2', 'bulk', 2, 'full', 'SUCCESS' from generate_series(1, 12000) g`);
    await t.db.execute(sql`analyze reports`);
    const broad = await search({ testType: 2, perPage: 5 });
    expect(broad.totalExact).toBe(false);
    // The planner's estimate from the table's statistics: near the 12,002 reports of test type 2.
    expect(Math.abs(broad.total - 12_002)).toBeLessThan(1200);
    const narrow = await search({ testType: 2, envType: 'perf', perPage: 1 });
    expect([narrow.total, narrow.totalExact]).toEqual([2, true]);
    // The last page is exact whatever the estimate: its rows are all there are.
    const last = await search({ testType: 2, appName: 'perf', perPage: 50 });
    expect([last.total, last.totalExact]).toEqual([2, true]);
  });
});
