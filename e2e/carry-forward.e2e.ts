import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RUN_1, RUN_2, RUN_3, writeCarryRepository } from '../packages/server/test/reports/carry-forward-fixture.ts';
import {
  adminToken,
  apiCall,
  artifactsDir,
  baseUrl,
  newPage,
  reportWhenDone,
  signInByApi,
  useBrowser,
} from './support/browser.ts';

// Issue 38 on screen: three builds of one app; the report over the third carries forward what the
// second build's run covered of a method unchanged since. The screen shows it beside the fresh
// figures, tags the method and marks its lines in the source view, in English and Chinese.
type Report = { id: string; status: string; lineCovered: number; carried: { lineCovered: number } | null };

describe('a report that carries coverage forward from older builds', () => {
  const chromium = useBrowser();
  const suffix = Date.now().toString(36);
  const work = mkdtempSync(join(tmpdir(), 'sx-e2e-carry-'));
  let token = '';
  let report: Report;
  let commits: string[] = [];

  beforeAll(async () => {
    token = await adminToken();
    const repo = join(work, 'repo');
    commits = writeCarryRepository(repo);
    const appName = `carry-${suffix}`;
    const team = await apiCall<{ id: string }>('POST', '/api/teams', { name: `Carry ${suffix}` }, token);
    const app = await apiCall<{ ingestionToken: string }>(
      'POST',
      '/api/apps',
      { teamId: team.id, name: appName, language: 'javascript', repoUrl: repo, environments: ['test'] },
      token,
    );
    for (const [i, run] of [RUN_1, RUN_2, RUN_3].entries()) {
      const query = new URLSearchParams({ app: appName, commit: commits[i] as string, envType: 'test', testType: '2' });
      const upload = await fetch(`${baseUrl()}/api/coverage/uploads?${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.ingestionToken}`, 'content-type': 'text/plain' },
        body: run,
      });
      expect(upload.status, await upload.text()).toBe(201);
    }
    const response = await fetch(`${baseUrl()}/api/reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        app: appName,
        name: `carried ${suffix}`,
        baseVersion: 'c1',
        newVersion: 'c3',
        envType: 'test',
        testType: 2,
        coverageType: 'full',
        carryForwardDays: 7,
      }),
    });
    expect(response.status).toBe(201);
    const created = ((await response.json()) as { data: { id: string } }).data;
    report = await reportWhenDone<Report>(created.id, token);
  }, 400_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('shows the carried figure beside the fresh one, its source, the carried method and lines', async () => {
    expect([report.lineCovered, report.carried?.lineCovered]).toEqual([3, 6]);
    const { context, page } = await newPage(chromium.browser);
    await signInByApi(context, 'admin', inject('adminPassword'));
    await page.goto(`/dashboard/coverage/${report.id}`);
    const lines = page.locator('.report-figure').filter({ hasText: 'Lines' });
    await expect.poll(() => lines.textContent()).toContain('3 / 11');
    const carried = page.locator('.carried-figures');
    await expect.poll(() => carried.textContent()).toContain('Lines with carried coverage');
    expect(await carried.textContent()).toContain('6 / 11');
    expect(await carried.textContent()).toContain(`${commits[1]?.slice(0, 12)}: 1 upload(s)`);
    await carried.locator('.carried-tag').hover();
    await expect
      .poll(() => page.locator('.ant-tooltip').last().textContent())
      .toContain('changed and new methods are never carried');
    await page.screenshot({ path: `${artifactsDir}carry-forward-report.png`, fullPage: true });

    await page.locator('.ant-table-row-expand-icon').first().click();
    const price = page.locator('.detail-method').filter({ hasText: 'price' });
    await price.locator('.carried-tag').waitFor();
    expect(await page.locator('.detail-method .carried-tag').count()).toBe(1);

    await page.goto(`/codecoverage/${report.id}?file=src/shop.js`);
    await page.locator('.source-line').first().waitFor();
    expect(await page.locator('.source-line.carried').evaluateAll((rows) => rows.map((r) => r.dataset.line))).toEqual([
      '5',
      '6',
      '7',
    ]);
    await page.screenshot({ path: `${artifactsDir}carry-forward-source.png`, fullPage: true });

    await page.evaluate(() => localStorage.setItem('sextant.locale', 'zh'));
    await page.goto(`/dashboard/coverage/${report.id}`);
    await expect.poll(() => page.locator('.carried-figures').textContent()).toContain('行覆盖率（含结转）');
    await context.close();
  }, 240_000);
});
