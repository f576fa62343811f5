import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { apiCall, baseUrl, useBrowser } from './support/browser.ts';
import { fitsAndShoot, openAs, sidewaysScrollers } from './support/screens.ts';

// Issue 37 in the browser: at 1280×800 no coverage table scrolls sideways (English and Chinese); a
// Java report names classes and methods as Java does (the JVM name on hover); a statement-based
// report labels its counter "Statements" and has no column for what its format lacks; a functional
// report highlights its own list; the source view shows hit counts, jumps with n / p and links lines.
const fixtures = new URL('../packages/coverage/fixtures/', import.meta.url).pathname;
type Report = { id: string; status: string; appId: string; teamId: string };

/** POST that takes 200 and 201 as answers (apiCall takes only 200). */
async function post<T>(path: string, body: unknown, token: string): Promise<T> {
  const response = await fetch(baseUrl() + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  if (envelope.code !== 200 && envelope.code !== 201) throw new Error(`${path}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

describe('coverage screens as a reviewer reads them', () => {
  const chromium = useBrowser();
  const suffix = Date.now().toString(36);
  const work = mkdtempSync(join(tmpdir(), 'sx-e2e-screens-'));
  let token = '';
  let java: Report;
  let istanbul: Report;

  async function reportOf(
    tool: 'jacoco' | 'js',
    report: string,
    language: string,
    testType: 1 | 2,
    coverageType: 'full' | 'incremental',
  ) {
    const repo = join(work, tool);
    execFileSync('git', ['clone', '-q', '--branch', 'main', join(fixtures, tool, 'repo.bundle'), repo]);
    const head = execFileSync('git', ['rev-parse', 'head'], { cwd: repo, encoding: 'utf8' }).trim();
    const appName = `${tool}-screens-${suffix}`;
    const team = await apiCall<{ id: string }>('POST', '/api/teams', { name: `Screens ${tool} ${suffix}` }, token);
    const app = await apiCall<{ ingestionToken: string }>(
      'POST',
      '/api/apps',
      { teamId: team.id, name: appName, language, repoUrl: repo, environments: ['test'] },
      token,
    );
    const query = new URLSearchParams({ app: appName, commit: head, envType: 'test', testType: String(testType) });
    const upload = await fetch(`${baseUrl()}/api/coverage/uploads?${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.ingestionToken}`, 'content-type': 'text/plain' },
      body: readFileSync(join(fixtures, tool, report)),
    });
    expect(upload.status).toBe(201);
    const created = await post<Report>(
      '/api/reports',
      {
        app: appName,
        name: `${tool} ${suffix}`,
        baseVersion: 'base',
        newVersion: 'head',
        envType: 'test',
        testType,
        coverageType,
      },
      token,
    );
    // The pipeline runs on the server: wait for its last step (a failure ends the wait at once).
    await vi.waitFor(
      async () => {
        const { status } = await apiCall<Report>('GET', `/api/getReport?reportId=${created.id}`, undefined, token);
        if (status !== 'SUCCESS' && !/FAIL/.test(status)) throw new Error(`still ${status}`);
        expect(status).toBe('SUCCESS');
      },
      { timeout: 180_000, interval: 1000 },
    );
    return apiCall<Report>('GET', `/api/getReport?reportId=${created.id}`, undefined, token);
  }

  beforeAll(async () => {
    token = (
      await apiCall<{ accessToken: string }>('POST', '/api/login', {
        username: 'admin',
        password: inject('adminPassword'),
      })
    ).accessToken;
    java = await reportOf('jacoco', 'jacoco.xml', 'java', 1, 'incremental');
    // A full report: its counters are the whole report's, where Istanbul's statements are the instruction counter.
    istanbul = await reportOf('js', 'coverage-final.json', 'javascript', 2, 'full');
  }, 400_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const open = (locale: 'en' | 'zh') => openAs(chromium.browser, locale);

  it.each(['en', 'zh'] as const)(
    'report list and Java report detail fit 1280 px, with Java names (%s)',
    async (locale) => {
      const { page } = await open(locale);
      await page.goto('/dashboard/devcoverage');
      await page
        .getByRole('row')
        .filter({ hasText: `jacoco ${suffix}` })
        .waitFor();
      await page.locator('.ant-spin-blur').waitFor({ state: 'detached' });
      await fitsAndShoot(page, `${locale}-report-list`);

      await page.goto(`/dashboard/coverage/${java.id}`);
      const calculator = page.locator('.detail-class').filter({ hasText: /^Calculator/ });
      await calculator.waitFor();
      // JaCoCo's figures all have their column: instructions and complexity are JaCoCo's own counters.
      const headers = await page.locator('.ant-table-thead th').allTextContents();
      expect(headers.join('|')).toMatch(locale === 'en' ? /Instructions.*Complexity/ : /指令覆盖率.*圈复杂度覆盖率/);
      // The class row reads `Calculator` in package `demo`; opened, its methods read as Java declares them.
      await page
        .locator('.ant-table-row')
        .filter({ has: calculator })
        .locator('button.ant-table-row-expand-icon')
        .click();
      const add = page.locator('.detail-method').getByText('add(int, int): int', { exact: true });
      await add.waitFor();
      expect(await add.getAttribute('title')).toBe('add(II)I');
      const methods = await page.locator('.detail-method').allTextContents();
      expect(methods.join('|')).toContain('Calculator()');
      expect(methods.join('|')).not.toMatch(/<init>|\(I+\)|\)V\b/);
      await fitsAndShoot(page, `${locale}-java-detail`);
    },
    120_000,
  );

  it('a statement-based functional report: Statements, no empty columns, its own list highlighted', async () => {
    const { page } = await open('en');
    await page.goto(`/dashboard/coverage/${istanbul.id}`);
    await page.locator('.detail-class').first().waitFor();
    const headers = (await page.locator('.ant-table-thead th').allTextContents()).join('|');
    expect(headers).toContain('Statements');
    expect(headers).not.toContain('Instructions');
    expect(headers).not.toContain('Complexity');
    expect(await page.locator('.ant-menu-item-selected').textContent()).toBe('Test coverage (functional tests)');
    await fitsAndShoot(page, 'en-istanbul-detail');

    // The column chooser keeps the user's choice across visits.
    await page.getByRole('button', { name: 'Choose the columns to show' }).click();
    await page.getByRole('checkbox', { name: 'Coverable lines' }).check();
    await page.locator('.ant-table-thead th').filter({ hasText: 'Coverable lines' }).waitFor();
    await page.reload();
    await page.locator('.ant-table-thead th').filter({ hasText: 'Coverable lines' }).waitFor();
    expect(await sidewaysScrollers(page)).toEqual([]);
  }, 120_000);

  it('source view: hit counts in a gutter and on hover, n / p jumps, #L permalinks', async () => {
    const { page } = await open('en');
    const file = 'src/main/java/demo/Calculator.java';
    await page.goto(`/codecoverage/${java.id}?file=${encodeURIComponent(file)}`);
    const source = page.locator(`section[aria-label="Source of ${file}"]`);
    await source.locator('.source-line').first().waitFor();
    const lines = await source.locator('.source-line').evaluateAll((rows) =>
      rows.map((r) => ({
        n: Number(r.getAttribute('data-line')),
        cls: r.className,
        hits: r.querySelector('.hits')?.textContent ?? '',
      })),
    );
    const uncovered = lines.filter((l) => /\b(uncovered|partial)\b/.test(l.cls));
    const covered = lines.find((l) => /\bcovered\b/.test(l.cls) && !/uncovered/.test(l.cls));
    expect(uncovered.length).toBeGreaterThan(0);
    expect(covered?.hits).toMatch(/^[1-9]/);
    expect(lines.find((l) => /\buncovered\b/.test(l.cls))?.hits).toBe('0');

    // Each method's badge names it as Java does (JaCoCo's add(II)I and add(JJ)J).
    const badges = await source
      .locator('.method-fig [title]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('title')));
    expect(badges).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^add\(int, int\): int: lines /),
        expect.stringMatching(/^add\(long, long\): long: lines /),
      ]),
    );

    const hover = () => source.locator(`[data-line="${covered?.n}"] .code`).hover();
    await hover();
    const tooltip = page.getByRole('tooltip');
    await expect.poll(() => tooltip.textContent()).toMatch(new RegExp(`^Line ${covered?.n}: Run \\d+ times?`));
    await fitsAndShoot(page, 'en-source-hits', async () => {
      await page.mouse.move(0, 0);
      await hover();
      await tooltip.waitFor();
    });

    // n: the first uncovered block; the URL says which line, so it is a link to it.
    const firstRun = uncovered.find((l, i) => i === 0 || uncovered[i - 1]?.n !== l.n - 1);
    await page.locator('body').press('n');
    await expect.poll(() => new URL(page.url()).hash).toBe(`#L${firstRun?.n}`);
    await source.locator(`.source-line.target[data-line="${firstRun?.n}"]`).waitFor();
    await page.locator('body').press('p');
    // Nothing uncovered before the first block: the line stays.
    expect(new URL(page.url()).hash).toBe(`#L${firstRun?.n}`);

    // A permalink opens at its line; a click on a line number makes one.
    await page.goto('about:blank');
    await page.goto(`/codecoverage/${java.id}?file=${encodeURIComponent(file)}#L3`);
    await source.locator('.source-line.target[data-line="3"]').waitFor();
    await source.locator('[data-line="5"] a.ln').click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#L5');
    await source.locator('.source-line.target[data-line="5"]').waitFor();
  }, 120_000);

  it.each(['en', 'zh'] as const)(
    'the team dashboard at both sizes (%s)',
    async (locale) => {
      const { page } = await open(locale);
      await page.goto(`/dashboard/team?teamId=${java.teamId}`);
      await page.getByText(`jacoco-screens-${suffix}`).first().waitFor();
      await fitsAndShoot(page, `${locale}-team-dashboard`);
    },
    60_000,
  );

  it('in Chinese: the statement-based report, and the source view with a hit count on hover', async () => {
    const { page } = await open('zh');
    await page.goto(`/dashboard/coverage/${istanbul.id}`);
    await page.locator('.detail-class').first().waitFor();
    expect((await page.locator('.ant-table-thead th').allTextContents()).join('|')).toContain('语句覆盖率');
    await fitsAndShoot(page, 'zh-istanbul-detail');

    const file = 'src/main/java/demo/Calculator.java';
    await page.goto(`/codecoverage/${java.id}?file=${encodeURIComponent(file)}`);
    const source = page.locator(`section[aria-label="${file} 的源码"]`);
    await source.locator('.source-line.covered').first().waitFor();
    const line = Number(await source.locator('.source-line.covered').first().getAttribute('data-line'));
    const hover = () => source.locator(`[data-line="${line}"] .code`).hover();
    await hover();
    const tooltip = page.getByRole('tooltip');
    await expect.poll(() => tooltip.textContent()).toMatch(new RegExp(`^第 ${line} 行：执行 \\d+ 次`));
    await fitsAndShoot(page, 'zh-source-hits', async () => {
      await page.mouse.move(0, 0);
      await hover();
      await tooltip.waitFor();
    });
  }, 120_000);
});
