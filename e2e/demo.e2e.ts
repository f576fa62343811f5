import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, artifactsDir, newPage, signInByApi, useBrowser } from './support/browser.ts';
import { demoReposDir, demoWorkspace, runDemo } from './support/demo.ts';

// Issue 7, "must show": on the server `npm start` started with a fresh data folder, `sextant demo`
// (`npm run demo`) loads the demo workspace; the home screen, both dashboards, both coverage lists, a report detail
// and the source view then hold demo data, in English and in Chinese (screenshots in e2e/artifacts).

type Report = { id: string; name: string; appName: string; appId: string; teamId: string; status: string };

describe('the demo workspace in the browser, in both languages', () => {
  const chromium = useBrowser();
  let full: Report;
  let incremental: Report;

  beforeAll(async () => {
    expect(await demoWorkspace()).toContain('demo workspace ready');
    const admin = await apiCall<{ accessToken: string }>('POST', '/api/login', {
      username: 'admin',
      password: inject('adminPassword'),
    });
    const page = await apiCall<{ reports: Report[] }>(
      'POST',
      '/api/searchReports',
      { appName: 'demo-inventory', testType: 1, perPage: 50 },
      admin.accessToken,
    );
    full = page.reports.find((r) => r.name === '1.1 unit, full') as Report;
    incremental = page.reports.find((r) => r.name === '1.1 unit, incremental') as Report;
    expect(full?.status).toBe('SUCCESS');
    expect(incremental?.status).toBe('SUCCESS');
  }, 660_000);

  async function visit(page: Page, locale: string, name: string, path: string, shows: string | RegExp) {
    await page.goto(path);
    // Visible only: the notification list (hidden until opened) names the demo's apps too.
    await page.getByText(shows).filter({ visible: true }).first().waitFor({ timeout: 60_000 });
    await page.screenshot({ path: `${artifactsDir}demo-${locale}-${name}.png`, fullPage: true });
  }

  it.each([
    ['en', 'Code coverage (unit tests)'],
    ['zh', '代码覆盖率（单元测试）'],
  ])(
    'shows the demo data on every coverage screen (%s)',
    async (locale, devTitle) => {
      const { context, page } = await newPage(chromium.browser);
      await context.addInitScript((l) => {
        localStorage.setItem('sextant.locale', l);
        // Screenshots of settled screens: no route transition mid-fade.
        localStorage.setItem('sextant.preferences', JSON.stringify({ routerTransition: 'none' }));
      }, locale);
      await signInByApi(context, 'admin', inject('adminPassword'));
      // The home screen's risk list, grouped by app and version, once its answer is in.
      await visit(page, locale, 'home', '/', /demo-inventory · /);
      // Other journeys of this suite share the server: every screen is scoped to the demo's team or app.
      await visit(page, locale, 'team-dashboard', `/dashboard/team?teamId=${full.teamId}`, 'demo-inventory');
      await visit(page, locale, 'app-dashboard', `/dashboard/app?appId=${full.appId}`, 'demo-inventory');
      await visit(
        page,
        locale,
        'dev-coverage',
        '/dashboard/devcoverage?appName=demo-inventory',
        '1.1 unit, incremental',
      );
      expect(await page.locator('.navbar-title').textContent()).toBe(devTitle);
      await visit(
        page,
        locale,
        'test-coverage',
        '/dashboard/testcoverage?appName=demo-inventory',
        '1.1 QA, incremental',
      );
      await visit(page, locale, 'report-detail', `/dashboard/coverage/${incremental.id}`, /Alerts/);
      await visit(page, locale, 'source-view', `/codecoverage/${full.id}`, /package demo\.inventory;/);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale === 'zh' ? 'zh-CN' : 'en');
      await context.close();
    },
    300_000,
  );

  it('runs again without changing anything', async () => {
    expect(await runDemo(['--repos-dir', demoReposDir()])).toMatch(/0 created/);
  }, 300_000);
});
