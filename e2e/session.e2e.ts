import { SignJWT } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { apiCall, newPage, signInByApi, signInThroughForm, useBrowser } from './support/browser.ts';

/** An access token signed with the server's key whose lifetime ended a minute ago. */
async function expiredToken(userId: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt(now - 960)
    .setExpirationTime(now - 60)
    .sign(new TextEncoder().encode(inject('jwtSecret')));
}

describe('sessions in the browser', () => {
  const chromium = useBrowser();

  it('answers a wrong password with the same clear error and stays on login', async () => {
    const { context, page } = await newPage(chromium.browser);
    await page.goto('/login');
    await signInThroughForm(page, 'admin', 'not-the-password');
    await page.getByRole('alert').getByText('Email or Password is Invalid').waitFor();
    await signInThroughForm(page, 'nobody-by-that-name', 'whatever1');
    await page.getByRole('alert').getByText('Email or Password is Invalid').waitFor();
    await signInThroughForm(page, "' OR 1=1 --", '<script>alert(1)</script>');
    await page.getByRole('alert').getByText('Email or Password is Invalid').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    await context.close();
  });

  it('replays three calls that met an expired token after exactly one refresh', async () => {
    const { context, page } = await newPage(chromium.browser);
    const session = await signInByApi(context, 'admin', inject('adminPassword'));
    const stale = await expiredToken(session.userData.userid);
    expect(stale).not.toBe(session.accessToken);
    await context.addInitScript((token) => localStorage.setItem('accessToken', token), stale);
    const refreshCalls: string[] = [];
    const unauthorized: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/refreshToken')) refreshCalls.push(request.url());
    });
    page.on('response', (response) => {
      if (response.status() === 401) unauthorized.push(new URL(response.url()).pathname);
    });
    // The user list asks for /api/me, /api/users and /api/roles (and the navbar for its own data). Every
    // call carrying the expired token is held until those three have arrived, so all are in flight together.
    let release = () => {};
    const allArrived = new Promise<void>((resolve) => {
      release = resolve;
    });
    const heldPaths = new Set<string>();
    await page.route(/\/api\//, async (route) => {
      if (route.request().headers().authorization === `Bearer ${stale}`) {
        heldPaths.add(new URL(route.request().url()).pathname);
        if (['/api/me', '/api/users', '/api/roles'].every((p) => heldPaths.has(p))) release();
        await allArrived;
      }
      await route.continue();
    });
    const rolesReplayed = page.waitForResponse((r) => r.url().endsWith('/api/roles') && r.status() === 200);
    await page.goto('/system/userList');
    await page.getByText('admin@sextant.local').waitFor();
    await rolesReplayed;
    // Other panels (the notification bell) may fail with it too; all share the one refresh.
    expect(unauthorized).toEqual(expect.arrayContaining(['/api/me', '/api/roles', '/api/users']));
    expect(refreshCalls).toHaveLength(1);
    const stored = await page.evaluate(() => localStorage.getItem('accessToken'));
    expect(stored).not.toBe(stale);
    await context.close();
  });

  it('clears the session and goes to login when the refresh is refused', async () => {
    const { context, page } = await newPage(chromium.browser);
    const session = await signInByApi(context, 'admin', inject('adminPassword'));
    await apiCall('POST', '/api/jwt/logout', { refreshToken: session.refreshToken }, session.accessToken);
    const stale = await expiredToken(session.userData.userid);
    await context.addInitScript((token) => localStorage.setItem('accessToken', token), stale);
    await page.goto('/system/userList');
    await page.waitForURL('**/login');
    const left = await page.evaluate(() => ({
      accessToken: localStorage.getItem('accessToken'),
      refreshToken: localStorage.getItem('refreshToken'),
      userData: localStorage.getItem('userData'),
    }));
    expect(left).toEqual({ accessToken: null, refreshToken: null, userData: null });
    await context.close();
  });

  it('lets an admin issue a single-use reset link that sets a new password', async () => {
    const username = `reset${Date.now().toString(36)}`;
    const admin = await apiCall<{ accessToken: string }>('POST', '/api/login', {
      username: 'admin',
      password: inject('adminPassword'),
    });
    await apiCall(
      'POST',
      '/api/users',
      { username, email: `${username}@example.test`, role: 'developer' },
      admin.accessToken,
    );

    const { context, page } = await newPage(chromium.browser);
    await signInByApi(context, 'admin', inject('adminPassword'));
    await page.goto('/system/userList');
    const row = page.getByRole('row').filter({ hasText: username });
    await row.getByRole('button', { name: 'Reset link' }).click();
    const link = await page.getByRole('textbox', { name: 'Reset link' }).inputValue();
    expect(link).toContain('/pages/dashboard/reset-password?token=');
    await context.close();

    const visitor = await newPage(chromium.browser);
    await visitor.page.goto(link);
    await visitor.page.getByLabel('New password').fill('brand-new-password');
    await visitor.page.getByLabel('Repeat the password').fill('brand-new-password');
    await visitor.page.getByRole('button', { name: 'Change password' }).click();
    await visitor.page.getByText('Password changed').waitFor();
    await visitor.page.goto('/login');
    await signInThroughForm(visitor.page, username, 'brand-new-password');
    await visitor.page.waitForURL((url) => url.pathname !== '/login');

    const again = await newPage(chromium.browser);
    await again.page.goto(link);
    await again.page.getByLabel('New password').fill('another-password-1');
    await again.page.getByLabel('Repeat the password').fill('another-password-1');
    await again.page.getByRole('button', { name: 'Change password' }).click();
    await again.page.getByRole('alert').getByText('This reset link is invalid, used or expired.').waitFor();
    await visitor.context.close();
    await again.context.close();
  });

  it('sends an access request from /apply', async () => {
    const { context, page } = await newPage(chromium.browser);
    const name = `applicant${Date.now().toString(36)}`;
    await page.goto('/apply');
    await page.getByLabel('Username').fill(name);
    await page.getByLabel('Email').fill(`${name}@example.test`);
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByText('Request sent').waitFor();
    await page.goto('/apply');
    await page.getByLabel('Username').fill(name);
    await page.getByLabel('Email').fill(`other-${name}@example.test`);
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByText('This username is already in use.').first().waitFor();
    await context.close();
  });
});
