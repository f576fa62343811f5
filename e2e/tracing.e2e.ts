import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { demoTraceExport } from '../packages/cli/src/commands/demo/traces.ts';
import { apiCall, artifactsDir, baseUrl, signInByApi, useBrowser } from './support/browser.ts';
import { demoWorkspace } from './support/demo.ts';

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

  // The tie Jaeger lacks: the demo's traces name their code methods, and the demo's reports know them,
  // so a span opens its method's coverage in the report's source view at the method's line.
  it('links a span of the demo to its method in a coverage report, at its line', async () => {
    expect(await demoWorkspace()).toContain('demo workspace ready');
    const apps = await apiCall<{ items: { id: string; name: string }[] }>(
      'GET',
      '/api/apps?q=demo-inventory',
      undefined,
      token,
    );
    const demoApp = apps.items.find((a) => a.name === 'demo-inventory');
    expect(demoApp).toBeDefined();
    const page = await signedInPage(chromium.browser, 'en');
    await page.goto(`/otel/otel?appId=${demoApp?.id}&interface=${encodeURIComponent('POST /reservations')}`);
    const first = page.getByRole('button', { name: /^Open trace / }).first();
    await first.waitFor();
    const [viewer] = await Promise.all([page.context().waitForEvent('page'), first.click()]);
    const rows = viewer.getByRole('treeitem');
    await rows.first().waitFor();
    await rows.nth(1).click();
    const link = viewer.getByTestId('span-coverage-link');
    await link.waitFor();
    const href = new URL((await link.getAttribute('href')) ?? '');
    expect(href.origin).toBe(new URL(baseUrl()).origin);
    expect(href.pathname).toMatch(/^\/codecoverage\/[0-9a-f-]{36}$/);
    expect(href.searchParams.get('file')).toMatch(/Reservations\.java$/);
    const line = Number(href.searchParams.get('line'));
    expect(line).toBeGreaterThan(0);
    const report = await apiCall<{ appId: string }>(
      'GET',
      `/api/getReport?reportId=${href.pathname.split('/').pop()}`,
      undefined,
      token,
    );
    expect(report.appId).toBe(demoApp?.id);
    await page.goto(`${href.pathname}${href.search}`);
    await page
      .getByText(/Reservations\.java/)
      .first()
      .waitFor();
    await page
      .getByText(/\breserve\b/)
      .first()
      .waitFor();
    await page.screenshot({ path: `${artifactsDir}tracing-code-link-en.png` });
  }, 600_000);
});
