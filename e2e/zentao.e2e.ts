import { type FakeZentao, startFakeZentao } from '@sextant/cli/zentao-shaped';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, apiCall, artifactsDir, useBrowser } from './support/browser.ts';
import { openAs } from './support/screens.ts';

// Issue 35: /zentao with ZenTao configured against a local server answering as ZenTao's API v1 does:
// the frame when ZenTao allows it, the card when it does not, an import run and its summary, in
// English and Chinese (screenshots in e2e/artifacts/zentao-*.png).
const suffix = Date.now().toString(36);
const product = `ZenTao Billing ${suffix}`;

const open = (browser: Browser, locale: 'en' | 'zh') => openAs(browser, locale, { width: 1440, height: 900 });

describe('ZenTao screen', () => {
  const chromium = useBrowser();
  let zentao: FakeZentao;

  beforeAll(async () => {
    zentao = await startFakeZentao({
      account: 'importer',
      password: 'zt-e2e-secret',
      data: {
        products: [
          { id: 1, name: product, code: 'BILL' },
          { id: 2, name: `Unplanned ${suffix}`, code: 'NOPE' },
        ],
        stories: {
          1: [
            {
              id: 9101,
              title: 'Refunds over 1000 need a second approval',
              status: 'active',
              stage: 'developing',
              product: 1,
            },
            { id: 9102, title: 'Invoices as PDF', status: 'active', stage: 'tested', product: 1 },
            { id: 9103, title: 'Card tokens expire after a year', status: 'closed', stage: 'released', product: 1 },
          ],
          2: [
            { id: 9201, title: 'A story of a product without a project', status: 'active', stage: 'wait', product: 2 },
          ],
        },
        testcases: {
          1: [
            {
              id: 801,
              title: 'Refund of 1001 asks a second approver',
              story: 9101,
              type: 'feature',
              auto: 'no',
              product: 1,
            },
            { id: 802, title: 'Invoice PDF downloads', story: 9102, type: 'feature', auto: 'auto', product: 1 },
          ],
          2: [],
        },
      },
    });
    const token = await adminToken();
    const team = await apiCall<{ id: string }>('POST', '/api/teams', { name: `ZenTao team ${suffix}` }, token);
    const app = await apiCall<{ id: string }>(
      'POST',
      '/api/apps',
      {
        teamId: team.id,
        name: `billing-zt-${suffix}`,
        language: 'java',
        repoUrl: 'https://git.example.com/billing.git',
      },
      token,
    );
    await apiCall('POST', '/api/projects', { name: product, teamId: team.id, appIds: [app.id] }, token);
  });
  afterAll(async () => {
    await apiCall('PATCH', '/api/zentao/config', { url: '', account: '' }, await adminToken()).catch(() => undefined);
    await zentao?.close();
  });

  it('is set up in system settings, framed when ZenTao allows it, and imports with a summary (English)', async () => {
    const { context, page } = await open(chromium.browser, 'en');
    await page.goto('/zentao');
    await page.getByText('ZenTao is not set up yet').waitFor();
    await page.screenshot({ path: `${artifactsDir}zentao-en-not-configured.png` });

    await page.goto('/system/systemSetting');
    const card = page.getByTestId('zentao-settings');
    await card.getByLabel('ZenTao address').fill('ftp://nowhere');
    await card.getByLabel('API account').fill('importer');
    await card.getByRole('button', { name: 'Save ZenTao settings' }).click();
    await card
      .getByText(/Use an http\(s\) address/)
      .first()
      .waitFor();
    await card.getByLabel('ZenTao address').fill(zentao.url);
    await card.getByLabel('Password').fill('zt-e2e-secret');
    await card.getByRole('button', { name: 'Save ZenTao settings' }).click();
    await page.getByText('ZenTao settings saved.').waitFor();
    await card.getByText('A password is stored; leave empty to keep it.').waitFor();
    expect(await card.getByLabel('Password').inputValue()).toBe('');
    // The earlier address message goes once the settings are saved (after its leaving animation).
    await card.getByText(/Use an http\(s\) address/).waitFor({ state: 'detached' });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifactsDir}zentao-en-settings.png` });

    await page.goto('/zentao');
    const frame = page.frameLocator('iframe.zentao-frame');
    await frame.getByText('My dashboard').waitFor();
    await page.screenshot({ path: `${artifactsDir}zentao-en-frame.png` });

    await page.getByTestId('zentao-open-import').click();
    // The demo's import may have run before in this server (the analytics journeys run `npm run demo`).
    await page.getByTestId('zentao-import').waitFor();
    await page.getByTestId('zentao-import').click();
    await page.getByText('ZenTao imported.').waitFor();
    const summary = page.getByTestId('zentao-summary');
    await summary.getByText(/Last import .* by admin, 2 products/).waitFor();
    const rows = await summary.locator('.ant-table-tbody tr').first().locator('td').allInnerTexts();
    expect(rows).toEqual(['Requirements', '3', '0', '0', '1']);
    await summary.getByText(`No project is named "Unplanned ${suffix}".`).waitFor();
    await page.mouse.move(0, 0);
    // The clicked button keeps focus (a paler shade); the screenshot shows it at rest, the toast gone.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.locator('.ant-message-notice').waitFor({ state: 'detached' });
    await page.screenshot({ path: `${artifactsDir}zentao-en-import.png` });
    await context.close();
  });

  it('shows a card that opens ZenTao when it refuses framing, and imports again without changes (Chinese)', async () => {
    zentao.homeHeaders = { 'x-frame-options': 'DENY' };
    const { context, page } = await open(chromium.browser, 'zh');
    await page.goto('/zentao');
    const card = page.getByTestId('zentao-card');
    await card.getByText('禅道在单独的标签页中打开').waitFor();
    await card.getByText('X-Frame-Options: DENY').waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
    expect(await card.getByRole('link', { name: /在新标签页打开禅道/ }).getAttribute('href')).toBe(zentao.url);
    await page.getByTestId('zentao-import').click();
    await page.getByText('禅道已导入。').waitFor();
    const first = await page.getByTestId('zentao-summary').locator('.ant-table-tbody tr').first();
    expect(await first.locator('td').allInnerTexts()).toEqual(['需求', '0', '0', '3', '1']);
    await page.getByText('没有与该产品同名的项目。').waitFor();
    await page.mouse.move(0, 0);
    // The clicked button keeps focus (a paler shade); the screenshot shows it at rest, the toast gone.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.locator('.ant-message-notice').waitFor({ state: 'detached' });
    await page.screenshot({ path: `${artifactsDir}zentao-zh-card.png`, fullPage: true });

    zentao.homeHeaders = {};
    await page.goto('/zentao');
    await page.frameLocator('iframe.zentao-frame').getByText('My dashboard').waitFor();
    await page.getByTestId('zentao-open-import').click();
    await page.getByTestId('zentao-summary').waitFor();
    await page.screenshot({ path: `${artifactsDir}zentao-zh-frame-import.png` });
    await context.close();
  });
});
