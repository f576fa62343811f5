import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { demoTraceExport } from '../packages/cli/src/commands/demo/traces.ts';
import { apiCall, artifactsDir, baseUrl, signInByApi, useBrowser } from './support/browser.ts';

// Issue 36 in the browser: trace search, the viewer on its own port signed in with the app's
// session, interface analytics and a regression run, each screenshotted in English and Chinese.
describe('tracing screens', () => {
  const chromium = useBrowser();
  const suffix = Date.now().toString(36);
  let token = '';
  let appId = '';
  let runId = '';

  beforeAll(async () => {
    const admin = await apiCall<{ accessToken: string }>('POST', '/api/login', {
      username: 'admin',
      password: inject('adminPassword'),
    });
    token = admin.accessToken;
    await apiCall(
      'PATCH',
      '/api/settings',
      { licenseVersion: 'advanced', traceViewerUrl: `http://127.0.0.1:${inject('traceViewerPort')}` },
      token,
    );
    const team = await apiCall<{ id: string }>('POST', '/api/teams', { name: `Tracing ${suffix}` }, token);
    const app = await apiCall<{ id: string; ingestionToken: string }>(
      'POST',
      '/api/apps',
      { teamId: team.id, name: `inventory-${suffix}`, language: 'java', repoUrl: 'https://example.invalid/inv.git' },
      token,
    );
    appId = app.id;
    for (const version of ['1.0', '1.1'] as const) {
      const res = await fetch(`${baseUrl()}/v1/traces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.ingestionToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(demoTraceExport('inventory', version, Date.now())),
      });
      expect(await res.text()).toBe('{}');
    }
    const run = await apiCall<{ id: string }>(
      'POST',
      '/api/traces/regressions',
      {
        appId,
        name: '1.0 → 1.1',
        base: { kind: 'version', version: '1.0' },
        candidate: { kind: 'version', version: '1.1' },
      },
      token,
    );
    runId = run.id;
  });

  async function signedInPage(browser: Browser, locale: 'en' | 'zh'): Promise<Page> {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
    await signInByApi(context, 'admin', inject('adminPassword'));
    await context.addInitScript((l) => localStorage.setItem('sextant.locale', l), locale);
    // Both ports render the whole app: on a busy two-core machine a screen can take a while.
    context.setDefaultTimeout(90_000);
    return context.newPage();
  }

  for (const locale of ['en', 'zh'] as const) {
    const words =
      locale === 'en'
        ? { open: 'Open trace', critical: 'Critical path', histogram: 'Latency histogram', slower: 'Slower' }
        : { open: '打开链路', critical: '关键路径', histogram: '延迟分布', slower: '变慢' };

    it(`searches traces and opens one in the viewer on its own port (${locale})`, async () => {
      const page = await signedInPage(chromium.browser, locale);
      await page.goto(`/otel/otel?appId=${appId}&interface=${encodeURIComponent('POST /reservations')}`);
      const first = page.getByRole('button', { name: new RegExp(`^${words.open} `) }).first();
      await first.waitFor();
      await page.locator('canvas').first().waitFor();
      await page.screenshot({ path: `${artifactsDir}tracing-search-${locale}.png` });
      const [viewer] = await Promise.all([page.context().waitForEvent('page'), first.click()]);
      await viewer.waitForURL(new RegExp(`:${inject('traceViewerPort')}/trace/[0-9a-f]{32}\\?appId=`));
      const rows = viewer.getByRole('treeitem');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(3);
      expect(await viewer.locator('[data-critical]').count()).toBe(3);
      await expect.poll(() => viewer.getByText(words.critical).count()).toBeGreaterThan(0);
      await rows.nth(1).click();
      await viewer.getByText('code.function.name').waitFor();
      await viewer.screenshot({ path: `${artifactsDir}tracing-viewer-${locale}.png` });
    }, 300_000);

    it(`shows interface analytics and a regression run (${locale})`, async () => {
      const page = await signedInPage(chromium.browser, locale);
      await page.goto(`/otel/interfaceAnalytic?appId=${appId}`);
      await page.getByRole('link', { name: 'POST /reservations' }).waitFor();
      await page.screenshot({ path: `${artifactsDir}tracing-interfaces-${locale}.png` });
      await page.getByRole('link', { name: 'POST /reservations' }).click();
      await page.getByText(words.histogram).waitFor();
      await page.getByText('TC-101').first().waitFor();
      await page.getByText('demo.inventory.Reservations.reserve').waitFor();
      await page.screenshot({ path: `${artifactsDir}tracing-interface-${locale}.png`, fullPage: true });
      await page.goto(`/otel/regression/${runId}`);
      await page.getByText('Mann-Whitney U').first().waitFor();
      const slowerRow = page.getByRole('row', { name: /POST \/reservations/ });
      await expect.poll(() => slowerRow.textContent()).toContain(words.slower);
      await page.screenshot({ path: `${artifactsDir}tracing-regression-${locale}.png`, fullPage: true });
    }, 300_000);
  }
});
