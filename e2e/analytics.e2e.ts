import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, artifactsDir, baseUrl, signInByApi, useBrowser } from './support/browser.ts';
import { demoWorkspace } from './support/demo.ts';

// Issue 35: the analytics screens, the cockpit and the project dashboards holding the demo's data
// (`npm run demo`), in English and Chinese (screenshots in e2e/artifacts); filters restored on reload;
// the committer table's CSV downloaded and read; the cockpit fits 1920×1080 without scrolling.

describe('analytics screens over the demo workspace', () => {
  const chromium = useBrowser();
  let teamId = '';
  let projectId = '';

  beforeAll(async () => {
    expect(await demoWorkspace()).toContain('demo workspace ready');
    const admin = await apiCall<{ accessToken: string }>('POST', '/api/login', {
      username: 'admin',
      password: inject('adminPassword'),
    });
    const teams = await apiCall<{ items: { id: string; name: string }[] }>(
      'GET',
      '/api/teams?q=Demo%20team',
      undefined,
      admin.accessToken,
    );
    teamId = teams.items.find((t) => t.name === 'Demo team')?.id ?? '';
    const projects = await apiCall<{ items: { id: string; name: string }[] }>(
      'GET',
      '/api/projects?q=Demo%20spring',
      undefined,
      admin.accessToken,
    );
    projectId = projects.items.find((p) => p.name === 'Demo spring release')?.id ?? '';
    expect(teamId).not.toBe('');
    expect(projectId).not.toBe('');
  }, 660_000);

  async function open(locale: string, viewport = { width: 1440, height: 900 }) {
    const context = await chromium.browser.newContext({ baseURL: baseUrl(), viewport, acceptDownloads: true });
    await context.addInitScript((l) => {
      localStorage.setItem('sextant.locale', l);
      localStorage.setItem('sextant.preferences', JSON.stringify({ routerTransition: 'none' }));
    }, locale);
    await signInByApi(context, 'admin', inject('adminPassword'));
    return { context, page: await context.newPage() };
  }

  async function visit(page: Page, locale: string, name: string, path: string, shows: string | RegExp) {
    await page.goto(path);
    // Visible only: the notification list (hidden until opened) names the demo's apps too.
    await page.getByText(shows).filter({ visible: true }).first().waitFor({ timeout: 60_000 });
    // Charts draw on the next frame after their data arrives.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: `${artifactsDir}analytics-${locale}-${name}.png`, fullPage: true });
  }
  /** Switches the first chart card to its table view and waits for a row showing `shows`. */
  async function tableView(page: Page, locale: string, name: string, label: string, shows: string | RegExp) {
    await page.getByText(label, { exact: true }).filter({ visible: true }).first().click();
    await page.locator('td').getByText(shows).filter({ visible: true }).first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: `${artifactsDir}analytics-${locale}-${name}.png`, fullPage: true });
  }

  /** Switches the chart card titled `title` to its table view and waits for a cell showing `shows`. */
  async function cardTable(page: Page, locale: string, name: string, title: string, label: string, shows: string) {
    const card = page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: title }) });
    await card.getByText(label, { exact: true }).click();
    await card.locator('td').getByText(shows, { exact: true }).first().waitFor({ timeout: 30_000 });
    await card.screenshot({ path: `${artifactsDir}analytics-${locale}-${name}.png` });
  }

  it.each([
    [
      'en',
      'Table',
      'Uncovered changed methods by committer',
      'Coverage by project',
      'Coverage by version',
      'Changed methods',
      'Risk burn-down',
      'Agents per app and environment',
    ],
    [
      'zh',
      '表格',
      '各提交者未覆盖的变更方法',
      '各项目覆盖率',
      '各版本覆盖率',
      '变更方法',
      '风险燃尽',
      '各应用和环境的探针',
    ],
  ])(
    'shows the demo figures on every finished screen (%s)',
    async (locale, table, byCommitter, byProject, byVersion, changed, burnDown, agents) => {
      const { context, page } = await open(locale);
      const scope = `teamId=${teamId}`;
      await visit(page, locale, 'app', `/dashboard/appAnalytic?${scope}`, 'demo-inventory');
      // The demo's QA agents beat in env test; the risks its reports opened are on today's row.
      await cardTable(page, locale, 'app-agents-table-view', agents, table, 'demo-storefront');
      const today = new Date().toISOString().slice(0, 10);
      await cardTable(page, locale, 'app-burn-down-table-view', burnDown, table, today);
      await visit(page, locale, 'committers', `/dashboard/committerAnalytic?${scope}`, byCommitter);
      await tableView(page, locale, 'committers-table-view', table, /@/);
      await visit(page, locale, 'committer-table', `/dashboard/committerAnalyticTable?${scope}`, /@/);
      expect(await page.getByRole('columnheader', { name: changed }).count()).toBeGreaterThan(0);
      await visit(page, locale, 'projects', `/dashboard/projectAnalytic?${scope}`, byProject);
      await tableView(page, locale, 'projects-table-view', table, 'Demo spring release');
      await visit(page, locale, 'versions', `/dashboard/versionAnalytic?${scope}`, byVersion);
      await tableView(page, locale, 'versions-table-view', table, 'v3');
      await visit(page, locale, 'project-dashboards', `/dashboard/projectDashboard?${scope}`, byProject);
      await visit(page, locale, 'project-dashboard', `/dashboard/projectDashboard/${projectId}`, 'demo-storefront');
      await context.close();
    },
    300_000,
  );

  it.each(['en', 'zh'])(
    'fits the cockpit on a 1920×1080 screen (%s)',
    async (locale) => {
      const { context, page } = await open(locale, { width: 1920, height: 1080 });
      await visit(
        page,
        locale,
        'cockpit',
        `/dashboard/cockpit?teamId=${teamId}`,
        /Successful reports, 30 days|近 30 天成功报告/,
      );
      // The demo's two apps, each with its latest full report in a grade.
      await page.locator('.ant-statistic-content-value').first().getByText('2').waitFor({ timeout: 30_000 });
      // Open risks, and the two QA agents (alive while their demo heart-beat is under ten minutes old).
      const stats = page.locator('.ant-statistic');
      const openRisks = await stats.nth(4).locator('.ant-statistic-content-value').textContent();
      expect(Number(openRisks)).toBeGreaterThan(0);
      expect(await stats.nth(5).locator('.ant-statistic-content-value').textContent()).toMatch(/^\d+ \/ 2$/);
      await page.getByText(locale === 'en' ? 'Risk burn-down' : '风险燃尽').waitFor();
      await page.screenshot({ path: `${artifactsDir}analytics-${locale}-cockpit-1920.png` });
      const height = await page.evaluate(() => document.scrollingElement?.scrollHeight ?? 0);
      expect(height).toBeLessThanOrEqual(1080);
      await context.close();
    },
    120_000,
  );

  it.each([
    ['en', 'Last import'],
    ['zh', '上次导入'],
  ])(
    'shows the demo ZenTao import on /zentao (%s)',
    async (locale, last) => {
      const { context, page } = await open(locale);
      await page.goto('/zentao');
      const summary = page.getByTestId('zentao-summary');
      await summary.getByText(last).waitFor({ timeout: 60_000 });
      // Four stories and four test cases, made by the first demo run, unchanged by later ones.
      const cells = await summary.locator('tbody tr').first().locator('td').allInnerTexts();
      expect(Number(cells[1]) + Number(cells[3])).toBe(4);
      await page.screenshot({ path: `${artifactsDir}analytics-${locale}-zentao.png`, fullPage: true });
      await context.close();
    },
    120_000,
  );

  it('restores the filters and sort on reload, and exports the whole committer table as CSV', async () => {
    const { context, page } = await open('en');
    await page.goto(`/dashboard/committerAnalyticTable?teamId=${teamId}&testType=1&sortBy=author&sortDesc=false`);
    await page.locator('td').getByText(/@/).first().waitFor({ timeout: 60_000 });
    await page.reload();
    await page.locator('td').getByText(/@/).first().waitFor({ timeout: 60_000 });
    expect(new URL(page.url()).searchParams.get('testType')).toBe('1');
    expect(await page.getByText('Unit tests').filter({ visible: true }).count()).toBeGreaterThan(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSV' }).click(),
    ]);
    const text = readFileSync((await download.path()) as string, 'utf8').replace(/^\ufeff/, '');
    const [header, ...rows] = text.trim().split('\r\n');
    expect(header).toBe('Committer,Changed methods,Covered,Uncovered,Method coverage,Lines of changed methods,Reports');
    expect(rows.length).toBeGreaterThan(0);
    const api = await apiCall<{ accessToken: string }>('POST', '/api/login', {
      username: 'admin',
      password: inject('adminPassword'),
    });
    const all = await apiCall<{ total: number }>(
      'GET',
      `/api/analytics/committers?teamId=${teamId}&testType=1&perPage=1`,
      undefined,
      api.accessToken,
    );
    expect(rows).toHaveLength(all.total);
    await (context as BrowserContext).close();
  }, 120_000);
});
