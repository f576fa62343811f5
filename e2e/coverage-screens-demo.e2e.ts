import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, useBrowser } from './support/browser.ts';
import { demoWorkspace } from './support/demo.ts';
import { fitsAndShoot, openAs } from './support/screens.ts';

// Issue 37's screenshots on the demo workspace (`sextant demo`, as the README's second step loads it):
// both dashboards with the demo's versions (v2, v3) on the trend's x-axis, the TypeScript app's
// report detail and its report list, each at 1280×800 and 1920×1080, in English and in Chinese, each
// fitting 1280 px without sideways scrolling. Loading the demo again finds what a first load made.

type Report = { id: string; name: string; appId: string; teamId: string; status: string };

describe("the demo's coverage screens at both sizes, in both languages", () => {
  const chromium = useBrowser();
  let typescript: Report;

  beforeAll(async () => {
    // The demo's repositories go to a folder of this suite (SEXTANT_REPO_PATHS is the temporary folder).
    expect(await demoWorkspace()).toContain('demo workspace ready');
    const admin = await apiCall<{ accessToken: string }>('POST', '/api/login', {
      username: 'admin',
      password: inject('adminPassword'),
    });
    const page = await apiCall<{ reports: Report[] }>(
      'POST',
      '/api/searchReports',
      { appName: 'demo-storefront', testType: 1, perPage: 50 },
      admin.accessToken,
    );
    typescript = page.reports.find((r) => r.name === '1.1 unit, full') as Report;
    expect(typescript?.status).toBe('SUCCESS');
  }, 660_000);

  it.each(['en', 'zh'] as const)(
    'dashboards by version, the TypeScript report and its list (%s)',
    async (locale) => {
      const { page } = await openAs(chromium.browser, locale);
      for (const [name, path] of [
        ['team-dashboard', `/dashboard/team?teamId=${typescript.teamId}`],
        ['app-dashboard', `/dashboard/app?appId=${typescript.appId}`],
      ] as const) {
        await page.goto(path);
        // The canvas's label names the x-axis: the versions the demo's reports were made for (its
        // releases 1.0 and 1.1 compare v1→v2 and v2→v3), in their order.
        const chart = page.locator('.trend-chart').first();
        await chart.waitFor({ timeout: 60_000 });
        expect(await chart.getAttribute('aria-label')).toMatch(/[:：]\s*v2, v3$/);
        await fitsAndShoot(page, `${locale}-demo-${name}`);
      }

      await page.goto(`/dashboard/coverage/${typescript.id}`);
      await page.locator('.detail-class').first().waitFor({ timeout: 60_000 });
      await fitsAndShoot(page, `${locale}-typescript-detail`);

      await page.goto('/dashboard/devcoverage?appName=demo-storefront');
      await page.getByRole('row').filter({ hasText: '1.1 unit, full' }).first().waitFor({ timeout: 60_000 });
      await page.locator('.ant-spin-blur').waitFor({ state: 'detached' });
      await fitsAndShoot(page, `${locale}-demo-report-list`);
    },
    240_000,
  );
});
