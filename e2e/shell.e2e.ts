import { describe, expect, inject, it } from 'vitest';
import { artifactsDir, newPage, signInByApi, useBrowser } from './support/browser.ts';

describe('app shell', () => {
  const chromium = useBrowser();

  it('switches between vertical and horizontal layouts, keeps the choice, and screenshots each', async () => {
    const { context, page } = await newPage(chromium.browser);
    await signInByApi(context, 'admin', inject('adminPassword'));
    await page.goto('/dashboard/team');
    const layout = page.locator('[data-layout]');
    expect(await layout.getAttribute('data-layout')).toBe('vertical');
    await page.locator('.side-menu').waitFor();
    await page.screenshot({ path: `${artifactsDir}layout-vertical.png`, fullPage: true });

    await page.getByRole('button', { name: 'Theme customizer' }).click();
    await page.getByRole('radiogroup', { name: 'Layout' }).getByText('Horizontal').click();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect(await layout.getAttribute('data-layout')).toBe('horizontal');
    expect(await page.locator('.side-menu').count()).toBe(0);
    await page.getByRole('menu', { name: 'Main menu' }).waitFor();
    await page.screenshot({ path: `${artifactsDir}layout-horizontal.png`, fullPage: true });

    await page.reload();
    await page.locator('[data-layout="horizontal"]').waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('sextant.preferences') ?? '{}'));
    expect(stored.layout).toBe('horizontal');
    await context.close();
  });

  it('highlights the list screen in the menu on a detail screen', async () => {
    const { context, page } = await newPage(chromium.browser);
    await signInByApi(context, 'admin', inject('adminPassword'));
    await page.goto('/dashboard/coverage/report-7');
    const selected = page.locator('.ant-menu-item-selected');
    await selected.waitFor();
    expect(await selected.textContent()).toBe('Code coverage (unit tests)');
    await context.close();
  });

  it('shows the scroll-to-top button only past 250 px', async () => {
    const { context, page } = await newPage(chromium.browser);
    await signInByApi(context, 'admin', inject('adminPassword'));
    await page.goto('/dashboard/team');
    await page.locator('.side-menu').waitFor();
    await page.evaluate(() => {
      document.body.style.minHeight = '3000px';
      window.scrollTo(0, 250);
    });
    expect(await page.getByRole('button', { name: 'Scroll to top' }).count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 251));
    await page.getByRole('button', { name: 'Scroll to top' }).waitFor();
    await context.close();
  });

  it('shows an error with a retry when a screen chunk fails to load, and recovers', async () => {
    const { context, page } = await newPage(chromium.browser);
    await signInByApi(context, 'admin', inject('adminPassword'));
    let blocked = true;
    await page.route('**/assets/AboutPage-*.js', (route) => (blocked ? route.abort() : route.continue()));
    await page.goto('/system/aboutUs');
    await page.getByText('The screen failed to load.').waitFor();
    blocked = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('Self-hosted code coverage and test quality: how much', { exact: false }).waitFor();
    await context.close();
  });
});
