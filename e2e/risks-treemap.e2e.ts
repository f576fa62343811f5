import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, artifactsDir, baseUrl, signInByApi, useBrowser } from './support/browser.ts';
import { demoWorkspace } from './support/demo.ts';

// Issue 34: the home screen's treemap of the selected version's changed methods, holding the demo's
// data (`npm run demo`), in English and Chinese (screenshots in e2e/artifacts).

type Item = { appId: string; version: string; kind: string };
type Treemap = { reportId: string | null; methods: { changedLines: number; status: string }[] };

describe('the home screen treemap over the demo workspace', () => {
  const chromium = useBrowser();
  let scope = '';
  let treemap: Treemap = { reportId: null, methods: [] };

  beforeAll(async () => {
    expect(await demoWorkspace()).toContain('demo workspace ready');
    const { accessToken } = await apiCall<{ accessToken: string }>('POST', '/api/login', {
      username: 'admin',
      password: inject('adminPassword'),
    });
    const risks = await apiCall<{ items: Item[] }>(
      'GET',
      // Judged ones too: the judgment journey (risk-judgment.e2e.ts) may have judged the open ones.
      '/api/risks?kind=coverage&state=observing,pending,judged&perPage=1',
      undefined,
      accessToken,
    );
    const [item] = risks.items;
    if (!item) throw new Error('the demo left no coverage risk');
    scope = `appId=${item.appId}&version=${encodeURIComponent(item.version)}`;
    treemap = await apiCall<Treemap>('GET', `/api/risks/treemap?${scope}`, undefined, accessToken);
  }, 660_000);

  it('answers the version of an open risk with its changed methods, some uncovered', () => {
    expect(treemap.reportId).not.toBeNull();
    expect(treemap.methods.some((m) => m.changedLines > 0)).toBe(true);
    expect(treemap.methods.some((m) => m.status !== 'covered')).toBe(true);
  });

  it.each([
    ['en', 'Changed methods of this version, sized by changed lines', 'New, uncovered'],
    ['zh', '本版本的变更方法（面积为变更行数）', '新增未覆盖'],
  ])(
    'draws the selected version’s changed methods (%s)',
    async (locale, title, legend) => {
      const context = await chromium.browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
      await context.addInitScript((l) => {
        localStorage.setItem('sextant.locale', l);
        localStorage.setItem('sextant.preferences', JSON.stringify({ routerTransition: 'none' }));
      }, locale);
      await signInByApi(context, 'admin', inject('adminPassword'));
      const page = await context.newPage();
      await page.goto(`/dashboard/observingRiskyItems?${scope}`);
      await page.getByText(title).filter({ visible: true }).first().waitFor({ timeout: 60_000 });
      await page.getByText(legend, { exact: true }).filter({ visible: true }).first().waitFor({ timeout: 60_000 });
      const canvas = page.locator('.ant-card').filter({ hasText: title }).locator('canvas');
      await canvas.first().waitFor({ timeout: 30_000 });
      expect(await canvas.count()).toBeGreaterThan(0);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: `${artifactsDir}risks-treemap-${locale}.png`, fullPage: true });
      await context.close();
    },
    120_000,
  );
});
