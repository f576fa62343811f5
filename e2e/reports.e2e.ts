import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, artifactsDir, baseUrl, newPage, signInByApi, useBrowser } from './support/browser.ts';

// Issue 6, "must show" in the browser: a report made through the form from coverage uploaded over the API,
// its steps shown live up to SUCCESS, then the list, the detail with a class opened to its methods, and
// the source view with the lines c8 recorded as run / not run marked as such.
const fixtures = new URL('../packages/coverage/fixtures/js/', import.meta.url).pathname;
const LCOV = join(fixtures, 'lcov.info');

/** diff-cover's changed-lines figure for lcov.info at head against base (its JSON beside the fixture). */
function diffCoverChangedLines(): { covered: number; total: number } {
  const report = JSON.parse(readFileSync(join(fixtures, 'diff-cover-lcov.json'), 'utf8')) as {
    total_num_lines: number;
    total_num_violations: number;
  };
  return { covered: report.total_num_lines - report.total_num_violations, total: report.total_num_lines };
}

/** The lcov DA records of one file: line → hits. */
function lcovHits(path: string): Map<number, number> {
  const hits = new Map<number, number>();
  let inFile = false;
  for (const line of readFileSync(LCOV, 'utf8').split('\n')) {
    if (line.startsWith('SF:')) inFile = line.slice(3) === path;
    else if (inFile && line.startsWith('DA:')) {
      const [n, h] = line.slice(3).split(',').map(Number);
      hits.set(n as number, h as number);
    }
  }
  return hits;
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${artifactsDir}${name}.png`, fullPage: true });
}

describe('coverage reports in the browser', () => {
  const chromium = useBrowser();
  const suffix = Date.now().toString(36);
  const appName = `ledger-${suffix}`;
  const reportName = `Ledger changes ${suffix}`;
  const work = mkdtempSync(join(tmpdir(), 'sx-e2e-reports-'));
  const repo = join(work, 'ledger');
  let head = '';

  beforeAll(async () => {
    execFileSync('git', ['clone', '-q', '--branch', 'main', join(fixtures, 'repo.bundle'), repo]);
    head = execFileSync('git', ['rev-parse', 'head'], { cwd: repo, encoding: 'utf8' }).trim();
    const admin = await apiCall<{ accessToken: string }>('POST', '/api/login', {
      username: 'admin',
      password: inject('adminPassword'),
    });
    const team = await apiCall<{ id: string }>(
      'POST',
      '/api/teams',
      { name: `Ledger team ${suffix}` },
      admin.accessToken,
    );
    const app = await apiCall<{ ingestionToken: string }>(
      'POST',
      '/api/apps',
      { teamId: team.id, name: appName, language: 'javascript', repoUrl: repo, environments: ['test'] },
      admin.accessToken,
    );
    // CI's step: the c8 report for the head commit, sent with the app's ingestion token.
    const query = new URLSearchParams({ app: appName, commit: head, envType: 'test', testType: '1' });
    const upload = await fetch(`${baseUrl()}/api/coverage/uploads?${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.ingestionToken}`, 'content-type': 'text/plain' },
      body: readFileSync(LCOV),
    });
    const answer = (await upload.json()) as { code: number; message: string; data: { files: number } };
    expect(answer.code, answer.message).toBe(201);
    expect(answer.data.files).toBeGreaterThan(0);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('creates an incremental report in the form, watches it reach SUCCESS, and reads it down to the line', async () => {
    const { context, page } = await newPage(chromium.browser);
    const session = await signInByApi(context, 'admin', inject('adminPassword'));

    // The form: app, versions as free text (tags of the repository), environment from the app.
    await page.goto('/dashboard/coverageAdd?testType=1');
    await page.locator('#app').click();
    await page.locator('#app').fill(appName);
    await page.getByTitle(new RegExp(`^${appName}`)).click();
    await page.locator('#name').fill(reportName);
    await page.locator('#baseVersion').fill('base');
    await page.locator('#newVersion').fill('head');
    await page.locator('#envType').fill('test');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Create report' }).click();

    // Live steps fed by the report's STOMP messages, up to SUCCESS.
    const progress = page.locator('.ant-card').filter({ has: page.getByText('Progress', { exact: true }) });
    await progress.getByText('Clone').waitFor();
    await progress.getByText('The report is ready.').waitFor({ timeout: 120_000 });
    await shot(page, 'reports-form-progress');

    await progress.getByRole('link', { name: reportName }).click();
    await page.getByRole('heading', { name: reportName }).waitFor();
    await page.getByLabel('Changed lines coverage').waitFor();
    const figure = (await page.getByLabel('Changed lines coverage').textContent()) ?? '';
    // The value diff-cover gives for the same report and commits, as the screen writes it.
    const diffCover = diffCoverChangedLines();
    const shown = new Intl.NumberFormat('en', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
    expect(figure).toContain(shown.format(diffCover.covered / diffCover.total));
    expect(figure).toContain(`${diffCover.covered} / ${diffCover.total}`);
    // A class row opens to its methods, fetched on demand.
    // (a virtual table: its rows are laid out in a scroller, so take the expander that is on screen)
    await page.locator('button.ant-table-row-expand-icon:visible').first().click();
    await page.locator('.detail-method').first().waitFor();
    await shot(page, 'reports-detail');

    // The list shows it with its status and figures.
    await page.goto('/dashboard/devcoverage');
    const row = page.getByRole('row').filter({ hasText: reportName });
    await row.waitFor();
    await row.getByText('SUCCESS').waitFor();
    await page.locator('.ant-spin-blur').waitFor({ state: 'detached' });
    await shot(page, 'reports-list');

    // Live status in the list: a re-run started elsewhere shows its steps in the row without a reload.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenStatuses: string[] }).seenStatuses = seen;
      new MutationObserver(() => {
        for (const tag of document.querySelectorAll('.ant-table-row .ant-tag')) {
          const text = tag.textContent ?? '';
          if (text && seen.at(-1) !== text) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const reportId = new URL(
      (await row.getByRole('link', { name: reportName }).getAttribute('href')) ?? '',
      baseUrl(),
    ).pathname
      .split('/')
      .at(-1) as string;
    await apiCall('PATCH', `/api/reports/${reportId}`, { rerun: true }, session.accessToken);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { seenStatuses: string[] }).seenStatuses), {
        timeout: 120_000,
      })
      .toEqual(expect.arrayContaining(['CLONING', 'SUCCESS']));
    await row.getByText('SUCCESS').waitFor();

    // The source view: file tree, then a file whose lines carry the marks c8 recorded.
    await row.getByRole('link', { name: 'Source' }).click();
    await page.getByRole('tree').waitFor();
    await page.getByRole('tree').getByText('ledger.js').click();
    await page.locator('section[aria-label="Source of src/ledger.js"] .source-line').first().waitFor();
    const marks = await page.$$eval('section[aria-label="Source of src/ledger.js"] .source-line', (rows) =>
      rows.map((r) => ({ n: Number(r.getAttribute('data-line')), cls: r.className, title: r.getAttribute('title') })),
    );
    const expected = lcovHits('src/ledger.js');
    expect(expected.size).toBeGreaterThan(0);
    for (const [line, hits] of expected) {
      const mark = marks.find((m) => m.n === line);
      if (hits === 0) expect(mark?.cls, `line ${line}`).toContain('uncovered');
      else expect(mark?.cls, `line ${line}`).toMatch(/\b(covered|partial)\b/);
    }
    // Source text is shown as text: markup in it would be escaped, and the code reads as written.
    const text = await page.locator('section[aria-label="Source of src/ledger.js"]').textContent();
    expect(text).toContain("throw new TypeError('cents must be an integer');");
    await shot(page, 'reports-source');

    // The app dashboard: the latest incremental figures of this app and the trend chart (ECharts canvas).
    await page.goto('/dashboard/team');
    const card = page
      .locator('.ant-card')
      .filter({ hasText: `${appName}` })
      .filter({ hasText: 'unit tests' });
    await card.getByText('Changed lines').waitFor();
    expect(await card.getByText(figure.match(/\d+(\.\d)?%/)?.[0] ?? '?').count()).toBeGreaterThan(0);
    await shot(page, 'reports-team-dashboard');
    await context.close();
  }, 240_000);

  it('shows a failed report with its failure status and the reason', async () => {
    const { context, page } = await newPage(chromium.browser);
    const session = await signInByApi(context, 'admin', inject('adminPassword'));
    const report = await apiCall<{ id: string }>(
      'POST',
      '/api/reports',
      {
        app: appName,
        name: `Unknown ref ${suffix}`,
        baseVersion: 'base',
        newVersion: 'no-such-branch',
        envType: 'test',
        testType: 1,
        coverageType: 'incremental',
      },
      session.accessToken,
    ).catch(async (error: Error) => {
      // apiCall takes only code 200 as an answer; a 201 Created is an answer too.
      const created = /^POST \/api\/reports: 201 /.test(error.message);
      if (!created) throw error;
      const list = await apiCall<{ reports: { id: string; name: string }[] }>(
        'POST',
        '/api/searchReports',
        { appName, perPage: 50 },
        session.accessToken,
      );
      return list.reports.find((r) => r.name === `Unknown ref ${suffix}`) as { id: string };
    });
    await page.goto(`/dashboard/coverage/${report.id}`);
    const alert = page.locator('.ant-alert-error').first();
    await alert.waitFor({ timeout: 120_000 });
    expect(await alert.textContent()).toMatch(/CLONE_FAIL|DIFF_METHOD_FAIL/);
    expect(await alert.textContent()).toContain('no-such-branch');
    await shot(page, 'reports-failed');
    await context.close();
  }, 180_000);
});
