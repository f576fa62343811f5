import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, artifactsDir, baseUrl, signInByApi, useBrowser } from './support/browser.ts';
import { demoWorkspace } from './support/demo.ts';

// Issue 35: requirement and case analytics holding the demo's data (`npm run demo`), in English and
// Chinese (screenshots in e2e/artifacts); a filter restored on reload; the case table's CSV read.

describe('requirement and case analytics over the demo workspace', () => {
  const chromium = useBrowser();
  let teamId = '';
  let token = '';

  beforeAll(async () => {
    expect(await demoWorkspace()).toContain('demo workspace ready');
    token = (
      await apiCall<{ accessToken: string }>('POST', '/api/login', {
        username: 'admin',
        password: inject('adminPassword'),
      })
    ).accessToken;
    const teams = await apiCall<{ items: { id: string; name: string }[] }>(
      'GET',
      '/api/teams?q=Demo%20team',
      undefined,
      token,
    );
    teamId = teams.items.find((t) => t.name === 'Demo team')?.id ?? '';
    expect(teamId).not.toBe('');
  }, 660_000);

  async function open(locale: string) {
    const context = await chromium.browser.newContext({
      baseURL: baseUrl(),
      viewport: { width: 1440, height: 900 },
      acceptDownloads: true,
    });
    await context.addInitScript((l) => {
      localStorage.setItem('sextant.locale', l);
      localStorage.setItem('sextant.preferences', JSON.stringify({ routerTransition: 'none' }));
    }, locale);
    await signInByApi(context, 'admin', inject('adminPassword'));
    return { context, page: await context.newPage() };
  }

  const shot = async (page: Page, name: string) => {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: `${artifactsDir}analytics-cases-${name}.png`, fullPage: true });
  };
  const visible = (page: Page, text: string | RegExp) =>
    page.getByText(text).filter({ visible: true }).first().waitFor({ timeout: 60_000 });

  it('the demo fills both read models with real figures', async () => {
    const reqs = await apiCall<{ items: { key: string; changedMethods: number; commits: unknown[] }[] }>(
      'GET',
      `/api/analytics/requirements?teamId=${teamId}&perPage=50`,
      undefined,
      token,
    );
    // The demo's own requirements, beside the stories its ZenTao-shaped import added (keyed by ZenTao id).
    const keys = reqs.items.map((r) => r.key);
    expect(keys.filter((k) => k.startsWith('REQ-'))).toEqual([
      'REQ-101',
      'REQ-102',
      'REQ-103',
      'REQ-201',
      'REQ-202',
      'REQ-203',
    ]);
    expect(keys.filter((k) => !k.startsWith('REQ-')).every((k) => /^\d+$/.test(k))).toBe(true);
    // REQ-101 and REQ-201 were each app's first commit (tag v1), the base of every report: no report's
    // range holds them. The other four are named by commits of v1..v2 or v2..v3.
    expect(reqs.items.filter((r) => r.commits.length > 0).map((r) => r.key)).toEqual([
      'REQ-102',
      'REQ-103',
      'REQ-202',
      'REQ-203',
    ]);
    expect(reqs.items.filter((r) => r.changedMethods > 0).length).toBeGreaterThanOrEqual(4);
    const cases = await apiCall<{ items: { caseKey: string; runs: number; methods: number }[] }>(
      'GET',
      `/api/analytics/cases?teamId=${teamId}`,
      undefined,
      token,
    );
    // The demo's run cases, beside the never-run cases its ZenTao-shaped import added.
    const ran = cases.items.filter((c) => c.caseKey.startsWith('TC-'));
    expect(ran.map((c) => [c.caseKey, c.runs])).toEqual([
      ['TC-101', 2],
      ['TC-102', 1],
      ['TC-201', 2],
      ['TC-202', 1],
    ]);
    expect(ran.every((c) => c.methods > 0)).toBe(true);
    expect(cases.items.filter((c) => !c.caseKey.startsWith('TC-')).every((c) => c.runs === 0)).toBe(true);
    const impact = await apiCall<{ changedMethods: number; reruns: unknown[] }>(
      'GET',
      `/api/analytics/cases/impact?teamId=${teamId}`,
      undefined,
      token,
    );
    expect(impact.changedMethods).toBeGreaterThan(0);
    expect(impact.reruns.length).toBeGreaterThan(0);
  });

  it.each([
    ['en', 'Table', 'Changed methods of each', 'Cases to re-run', 'Linked cases', 'Test gaps', 'Methods only this'],
    ['zh', '表格', '各需求变更方法的覆盖', '需重跑的用例', '关联用例', '测试缺口', '仅此用例覆盖的方法'],
  ])(
    'shows requirement and case analytics (%s)',
    async (locale, table, byRequirement, rerun, linked, gaps, alone) => {
      const { context, page } = await open(locale);
      await page.goto(`/dashboard/requirementAnalytic?teamId=${teamId}`);
      await visible(page, byRequirement);
      await page.locator('td').getByText('REQ-102', { exact: true }).first().waitFor({ timeout: 30_000 });
      await shot(page, `${locale}-requirements`);
      // The row opens onto its commits, methods and cases.
      await page.locator('tr', { hasText: 'REQ-102' }).locator('.ant-table-row-expand-icon').first().click();
      await visible(page, linked);
      await shot(page, `${locale}-requirements-row`);
      await page.getByText(table, { exact: true }).filter({ visible: true }).first().click();
      await page.locator('.ant-card td').getByText('REQ-203').first().waitFor({ timeout: 30_000 });
      await shot(page, `${locale}-requirements-table-view`);

      await page.goto(`/dashboard/caseAnalytic?teamId=${teamId}`);
      await visible(page, new RegExp(rerun));
      await page.locator('td').getByText('TC-202', { exact: true }).first().waitFor({ timeout: 30_000 });
      await shot(page, `${locale}-cases`);
      await page.locator('tr', { hasText: 'TC-101' }).locator('.ant-table-row-expand-icon').first().click();
      await visible(page, alone);
      await page.locator('td code', { hasText: 'Stock.receive' }).first().waitFor({ timeout: 30_000 });
      await shot(page, `${locale}-cases-row`);
      // Release 1.0 (tag v2): its changed methods, with the gaps no case ever reached.
      const v2 = await apiCall<{ gaps: { total: number; items: { method: string }[] } }>(
        'GET',
        `/api/analytics/cases/impact?teamId=${teamId}&version=v2&perPage=10`,
        undefined,
        token,
      );
      await page.goto(`/dashboard/caseAnalytic?teamId=${teamId}&version=v2`);
      await visible(page, 'demo-inventory v2, demo-storefront v2');
      const first = v2.gaps.items[0];
      // Shown by its source name (`Reservations.heldFor(String, String): int`), so found by the method's own name.
      const name = first?.method.split('(')[0] ?? '';
      if (first) await page.locator('td code', { hasText: name }).first().waitFor({ timeout: 30_000 });
      await shot(page, `${locale}-cases-v2-gaps`);
      const gapRows = page.locator('.ant-card', { hasText: gaps }).locator('tbody tr.ant-table-row');
      expect(await gapRows.count()).toBe(Math.min(10, v2.gaps.total));
      await context.close();
    },
    180_000,
  );

  it('restores a filter on reload, and exports every case as CSV', async () => {
    const { context, page } = await open('en');
    await page.goto(`/dashboard/caseAnalytic?teamId=${teamId}&testType=2&sortBy=runs&sortDesc=true`);
    await page.locator('td').getByText('TC-101', { exact: true }).first().waitFor({ timeout: 60_000 });
    await page.reload();
    await page.locator('td').getByText('TC-101', { exact: true }).first().waitFor({ timeout: 60_000 });
    expect(new URL(page.url()).searchParams.get('testType')).toBe('2');
    expect(await page.getByText('Functional tests').filter({ visible: true }).count()).toBeGreaterThan(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSV', exact: true }).first().click(),
    ]);
    expect(download.suggestedFilename()).toBe('cases.csv');
    const text = readFileSync((await download.path()) as string, 'utf8').replace(/^\ufeff/, '');
    const [header, ...rows] = text.trim().split('\r\n');
    expect(header).toBe(
      'Case,Title,App,Runs,Last run,Reports,Methods covered,Only this case,Latest version,Changed methods reached',
    );
    // Sorted by runs, most first, as the URL asks.
    // The cases the demo ran come first; the cases its ZenTao-shaped import added never ran, so they follow.
    const keys = rows.map((r) => r.split(',')[0] as string);
    expect(keys.slice(0, 4)).toEqual(['TC-101', 'TC-201', 'TC-102', 'TC-202']);
    expect(keys.slice(4).filter((k) => k.startsWith('TC-'))).toEqual([]);
    const all = await apiCall<{ items: { caseKey: string; methods: number }[] }>(
      'GET',
      `/api/analytics/cases?teamId=${teamId}&testType=2&sortBy=runs&sortDesc=true`,
      undefined,
      token,
    );
    expect(rows.map((r) => Number(r.split(',')[6]))).toEqual(all.items.map((c) => c.methods));
    await context.close();
  }, 120_000);
});
