import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { apiCall, artifactsDir, baseUrl } from './browser.ts';

/** The two sizes every coverage screen is shot at (issue 37); the first is the one that must fit. */
export const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

/** Tables, or the page itself, wider than their box at this viewport: each as "what: scroll width > width". */
export function sidewaysScrollers(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const wide: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) wide.push(`page: ${root.scrollWidth} > ${root.clientWidth}`);
    for (const el of document.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body, .ant-table-header')) {
      if (el.scrollWidth > el.clientWidth + 1) wide.push(`${el.className}: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    // The virtual table scrolls its rows in a holder of its own.
    for (const el of document.querySelectorAll<HTMLElement>('.ant-table-tbody-virtual-holder')) {
      if (el.scrollWidth > el.clientWidth + 1) wide.push(`virtual rows: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    return wide;
  });
}

/** A page signed in as the administrator, in this language, at 1280×800 unless told. */
export async function openAs(
  browser: Browser,
  locale: 'en' | 'zh',
  viewport: { width: number; height: number } = SIZES[0],
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport });
  const session = await apiCall<Record<string, unknown>>('POST', '/api/login', {
    username: 'admin',
    password: inject('adminPassword'),
  });
  await context.addInitScript(
    ({ session, locale }) => {
      if (sessionStorage.getItem('e2e-seeded')) return;
      sessionStorage.setItem('e2e-seeded', '1');
      localStorage.setItem('accessToken', String(session.accessToken));
      localStorage.setItem('refreshToken', String(session.refreshToken));
      localStorage.setItem('userData', JSON.stringify(session.userData));
      localStorage.setItem('settings', JSON.stringify(session.settings));
      localStorage.setItem('sextant.locale', locale);
      localStorage.setItem('sextant.preferences', JSON.stringify({ routerTransition: 'none' }));
    },
    { session, locale },
  );
  return { context, page: await context.newPage() };
}

/**
 * Checks the page fits 1280 px, then leaves a screenshot of it at each size
 * (`e2e/artifacts/screens-<name>-<width>x<height>.png`). `keep` runs after each resize, before the
 * shot: a tooltip shown by hovering is shown again at the new size.
 */
export async function fitsAndShoot(page: Page, name: string, keep?: () => Promise<void>) {
  await page.setViewportSize(SIZES[0]);
  expect(await sidewaysScrollers(page), `${name} at 1280×800`).toEqual([]);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await keep?.();
    await page.screenshot({ path: `${artifactsDir}screens-${name}-${size.width}x${size.height}.png` });
  }
  await page.setViewportSize(SIZES[0]);
}
