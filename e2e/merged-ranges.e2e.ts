import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
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

// Issue 38 on screen: two real JaCoCo runs uploaded for one commit, which covered different branches
// of the same lines, show their branch figure as "20–24 / 30" with a tooltip saying why, graded by
// the lower bound, and a note naming the exact figures and the ranges.
const fixtures = new URL('../packages/coverage/fixtures/jacoco/', import.meta.url).pathname;
type Report = { id: string; status: string; branchCovered: number; branchCoveredAtMost: number | null };

describe('a report merged from two JaCoCo XML runs', () => {
  const chromium = useBrowser();
  const suffix = Date.now().toString(36);
  const work = mkdtempSync(join(tmpdir(), 'sx-e2e-ranges-'));
  let token = '';
  let report: Report;

  beforeAll(async () => {
    token = await adminToken();
    const repo = join(work, 'jacoco');
    execFileSync('git', ['clone', '-q', '--branch', 'main', join(fixtures, 'repo.bundle'), repo]);
    const head = execFileSync('git', ['rev-parse', 'head'], { cwd: repo, encoding: 'utf8' }).trim();
    const appName = `ranges-${suffix}`;
    const team = await apiCall<{ id: string }>('POST', '/api/teams', { name: `Ranges ${suffix}` }, token);
    const app = await apiCall<{ ingestionToken: string }>(
      'POST',
      '/api/apps',
      { teamId: team.id, name: appName, language: 'java', repoUrl: repo, environments: ['test'] },
      token,
    );
    const query = new URLSearchParams({ app: appName, commit: head, envType: 'test', testType: '1' });
    for (const run of ['jacoco-main.xml', 'jacoco-cli.xml']) {
      const upload = await fetch(`${baseUrl()}/api/coverage/uploads?${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.ingestionToken}`, 'content-type': 'text/plain' },
        body: readFileSync(join(fixtures, run)),
      });
      expect(upload.status).toBe(201);
    }
    const body = {
      app: appName,
      name: `two runs ${suffix}`,
      baseVersion: 'base',
      newVersion: 'head',
      envType: 'test',
      testType: 1,
      coverageType: 'full',
    };
    const created = await fetch(`${baseUrl()}/api/reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    const { id } = ((await created.json()) as { data: { id: string } }).data;
    report = await reportWhenDone<Report>(id, token);
  }, 400_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('shows the branch range with its reason, graded by the lower bound, and names the exact figures', async () => {
    expect([report.branchCovered, report.branchCoveredAtMost]).toEqual([20, 24]);
    const { context, page } = await newPage(chromium.browser);
    await signInByApi(context, 'admin', inject('adminPassword'));
    await page.goto(`/dashboard/coverage/${report.id}`);
    const branches = page.locator('.report-figure').filter({ hasText: 'Branches' });
    await expect.poll(() => branches.textContent()).toContain('20–24 / 30');
    // 20 of 30 is 66.7 %: the lower bound's percentage, not 24's 80 %.
    expect(await branches.locator('.grade').textContent()).toMatch(/^66\.[67]/);
    const note = await page.locator('.ranged-note').textContent();
    expect(note).toContain('Exact: Lines, Methods, Classes');
    expect(note).toContain('Branches, Instructions, Complexity');
    await branches.locator('.count-range').hover();
    await expect.poll(() => page.locator('.ant-tooltip').textContent()).toContain('per-line sums, not probes');
    await page.screenshot({ path: `${artifactsDir}merged-ranges-report.png` });
    const calculator = page.locator('.detail-class').filter({ hasText: /^Calculator/ });
    await calculator.first().waitFor();
    expect(await page.locator('.ant-table-row .count-range').count()).toBeGreaterThan(0);
    await page.locator('.ant-table-row .count-range').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifactsDir}merged-ranges-classes.png`, fullPage: true });
    await context.close();
  }, 240_000);
});
