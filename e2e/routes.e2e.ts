import { HOME_PATH, SCREENS, type Screen } from '@sextant/api';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { createUser, newPage, signInByApi, signInThroughForm, useBrowser } from './support/browser.ts';

const concrete = (screen: Screen) => screen.path.replace(':id', 'sample-1');
/** A sweep visits every screen in turn; on a loaded machine that takes minutes, not seconds. */
const SWEEP_TIMEOUT_MS = 300_000;
const titleOf = (screen: Screen) => `${screen.title} · Sextant`;
const byName = (name: string) => SCREENS.find((s) => s.name === name) as Screen;
const HOME = byName('dashboard-observing-risky-items');
const NOT_AUTHORIZED = byName('misc-not-authorized');
const LOGIN = byName('auth-login');

/**
 * Opens a path and waits until the app has settled on a screen (its title is set after the guard
 * passes). The first visit of a page loads the app; later ones navigate inside it as a link would
 * (the router's guard runs the same way), which spares a sweep reloading the bundle for every screen.
 */
async function visit(page: Page, path: string, expected: Screen): Promise<string> {
  if (page.url().startsWith('http')) {
    await page.evaluate((to) => {
      document.title = '';
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate'));
    }, path);
  } else {
    await page.goto(path);
  }
  try {
    await page.waitForFunction((title) => document.title === title, titleOf(expected), { timeout: 10_000 });
  } catch {
    throw new Error(`${path}: expected "${titleOf(expected)}", stayed at ${page.url()} titled "${await page.title()}"`);
  }
  return new URL(page.url()).pathname;
}

describe('every route of specification point 2', () => {
  const chromium = useBrowser();

  it(
    'reaches every screen as admin; login and apply send admin home',
    async () => {
      const { context, page } = await newPage(chromium.browser);
      await signInByApi(context, 'admin', inject('adminPassword'));
      for (const screen of SCREENS) {
        if (screen.redirectIfLoggedIn) {
          expect(await visit(page, screen.path, HOME), screen.path).toBe(HOME_PATH);
        } else {
          expect(await visit(page, concrete(screen), screen), screen.path).toBe(concrete(screen));
        }
      }
      expect(await visit(page, '/', HOME)).toBe(HOME_PATH);
      expect(await visit(page, '/no/such/screen', byName('error-404'))).toBe('/error-404');
      await context.close();
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    'shows a client only access control, own settings and the open screens; the rest is not-authorized',
    async () => {
      const client = await createUser('client');
      const { context, page } = await newPage(chromium.browser);
      await signInByApi(context, client.username, client.password);
      for (const screen of SCREENS) {
        const path = concrete(screen);
        if (screen.redirectIfLoggedIn) {
          expect(await visit(page, path, byName('access-control')), path).toBe('/access-control');
        } else if (screen.resource === null || screen.resource === 'ACL' || screen.resource === 'Auth') {
          expect(await visit(page, path, screen), path).toBe(path);
        } else {
          expect(await visit(page, path, NOT_AUTHORIZED), path).toBe(NOT_AUTHORIZED.path);
        }
      }
      await visit(page, '/access-control', byName('access-control'));
      const menu = page.getByRole('menu', { name: 'Main menu' });
      await menu.getByText('Personal settings').waitFor();
      expect(await menu.getByText('Users').count()).toBe(0);
      expect(await menu.getByText('Dashboards').count()).toBe(0);
      await context.close();
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    'sends a signed-out visitor to login from every protected screen, remembering the wanted path',
    async () => {
      const { context, page } = await newPage(chromium.browser);
      for (const screen of SCREENS.filter((s) => s.resource !== null)) {
        expect(await visit(page, concrete(screen), LOGIN), screen.path).toBe('/login');
        expect(await page.evaluate(() => localStorage.getItem('lastRouterPath'))).toBe(concrete(screen));
      }
      await context.close();
    },
    SWEEP_TIMEOUT_MS,
  );

  it('returns to the wanted page after signing in, and uses the stored path only once', async () => {
    const { context, page } = await newPage(chromium.browser);
    await visit(page, '/system/teamList', LOGIN);
    await signInThroughForm(page, 'admin', inject('adminPassword'));
    await page.waitForURL('**/system/teamList');
    expect(await page.evaluate(() => localStorage.getItem('lastRouterPath'))).toBeNull();
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByText('Sign out').click();
    await page.waitForURL('**/login');
    await signInThroughForm(page, 'admin', inject('adminPassword'));
    await page.waitForURL(`**${HOME_PATH}`);
    await context.close();
  });

  it('lands a client on the access-control screen after signing in', async () => {
    const client = await createUser('client');
    const { context, page } = await newPage(chromium.browser);
    await visit(page, '/login', LOGIN);
    await signInThroughForm(page, client.username, client.password);
    await page.waitForURL('**/access-control');
    await page.getByText('Your account is signed in with the permissions below', { exact: false }).waitFor();
    await context.close();
  });
});
