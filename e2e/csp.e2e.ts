import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiCall, baseUrl, newPage, signInByApi, useBrowser } from './support/browser.ts';

/** What the page reported as refused by its Content-Security-Policy or Trusted Types. */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Trusted ?Type|TrustedHTML|TrustedScript/i.test(m.text())) seen.push(m.text());
  });
  page.on('pageerror', (e) => {
    if (/Trusted ?Type|TrustedHTML|Content Security Policy/i.test(e.message)) seen.push(e.message);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(
        `Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI} ${e.sample} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      );
    });
  });
  return seen;
}

/** Issue 32, finding 8: the app runs under its strict policy with Trusted Types, nothing refused. */
describe('Content-Security-Policy in Chromium', () => {
  const chromium = useBrowser();

  it('loads the sign-in screen and the signed-in screens with no violation', async () => {
    const { page: visitor } = await newPage(chromium.browser);
    const visitorViolations = await watchViolations(visitor);
    const answer = await visitor.goto('/login');
    expect(answer?.headers()['content-security-policy']).toContain("require-trusted-types-for 'script'");
    await visitor.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(visitorViolations).toEqual([]);

    const { context, page } = await newPage(chromium.browser);
    const violations = await watchViolations(page);
    await signInByApi(context, 'admin', inject('adminPassword'));
    for (const path of ['/dashboard/observingRiskyItems', '/dashboard/team', '/system/userList', '/system/roleList']) {
      await page.goto(path);
      await page.locator('.ant-layout').first().waitFor();
      await page.waitForLoadState('networkidle');
    }
    // Another device's session, which the person settings list and end.
    const other = await apiCall<{ refreshToken: string }>('POST', '/api/login', {
      username: 'admin',
      password: inject('adminPassword'),
    });
    await page.goto('/system/personSetting');
    await page.getByText('This device').waitFor();
    await page.getByRole('button', { name: 'End all other sessions' }).click();
    const confirm = page.locator('.ant-popconfirm').filter({ hasText: 'End every session except this one?' });
    const ended = page.waitForResponse((r) => r.url().endsWith('/api/me/sessions/revokeOthers'));
    await confirm.getByRole('button', { name: 'OK' }).click();
    expect((await ended).status()).toBe(200);
    // The list, fetched again, holds this device only (the toast is gone after 3 s on a slow machine).
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count(), { timeout: 30_000 }).toBe(1);
    const refreshed = await fetch(`${baseUrl()}/api/refreshToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: other.refreshToken }),
    });
    expect(refreshed.status).toBe(401);
    expect(violations).toEqual([]);
  });

  it('refuses markup written into the page as a string', async () => {
    const { page } = await newPage(chromium.browser);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const outcome = await page.evaluate(() => {
      try {
        document.body.insertAdjacentHTML('beforeend', '<img src="x" onerror="window.pwned = 1">');
        return 'written';
      } catch (e) {
        return e instanceof TypeError ? 'refused' : String(e);
      }
    });
    expect(outcome).toBe('refused');
  });
});
