import { describe, expect, inject, it } from 'vitest';
import {
  adminToken,
  apiCall,
  createUser,
  newPage,
  signInByApi,
  signInThroughForm,
  useBrowser,
} from './support/browser.ts';

describe('system screens', () => {
  const chromium = useBrowser();

  it('saves settings, refuses contradicting grades, and the edition hides tracing at once', async () => {
    const { context, page } = await newPage(chromium.browser);
    await signInByApi(context, 'admin', inject('adminPassword'));
    try {
      await page.goto('/system/systemSetting');
      const menu = page.getByRole('menu', { name: 'Main menu' });
      await menu.getByText('Tracing').waitFor();

      await page.getByLabel('Passing grade (fraction, yellow at or above)').fill('0.95');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('The passing grade must not be above the excellent grade.').first().waitFor();
      await page.getByLabel('Passing grade (fraction, yellow at or above)').fill('0.6');

      await page.getByLabel('Licence edition').click();
      await page.getByTitle('Basic Quality').click();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved.').waitFor();
      await menu.getByText('System', { exact: true }).waitFor();
      expect(await menu.getByText('Tracing').count()).toBe(0);
      await page.goto('/otel/otel');
      await page.waitForURL('**/pages/miscellaneous/not-authorized');
    } finally {
      await apiCall('PATCH', '/api/settings', { licenseVersion: 'advanced', passingGrade: 0.6 }, await adminToken());
      await context.close();
    }
  });

  it('shows what is running on the about screen', async () => {
    const { context, page } = await newPage(chromium.browser);
    await signInByApi(context, 'admin', inject('adminPassword'));
    await page.goto('/system/aboutUs');
    await page.getByText('Embedded PostgreSQL (PGlite)').waitFor();
    await page.getByText('Efficiency Excellent', { exact: true }).first().waitFor();
    await context.close();
  });

  it('lets any user change their own password and preferred layout', async () => {
    const user = await createUser('client');
    const { context, page } = await newPage(chromium.browser);
    await signInByApi(context, user.username, user.password);
    await page.goto('/system/personSetting');
    await page.getByText(`Profile · ${user.username}`).waitFor();
    await page.getByText('Horizontal', { exact: true }).click();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Profile saved.').waitFor();
    await page.locator('[data-layout="horizontal"]').waitFor();

    await page.getByLabel('Current password').fill('not-it');
    await page.getByLabel('New password', { exact: true }).fill('a-new-password');
    await page.getByLabel('Repeat the new password').fill('a-new-password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is not right.').first().waitFor();
    await page.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
    await context.close();

    const fresh = await newPage(chromium.browser);
    await fresh.page.goto('/login');
    await signInThroughForm(fresh.page, user.username, 'a-new-password');
    await fresh.page.waitForURL('**/access-control');
    await fresh.context.close();
  });
});
