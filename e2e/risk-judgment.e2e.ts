import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, artifactsDir, baseUrl, createUser, signInByApi, useBrowser } from './support/browser.ts';
import { demoWorkspace } from './support/demo.ts';

// Issue 34: a second, non-admin user (a developer of the demo team) lists the git identity they
// commit under (the name of the demo author with most open coverage risks), judges a pending risk
// of theirs, and is told when an item is assigned to them; the
// home screen, pending risks with the judgment drawer and my analytics in English and Chinese,
// holding the demo's data (screenshots in e2e/artifacts).

type Item = { id: string; methodName: string; author: string | null; state: string; judgment: string | null };
type History = { actorName: string | null; toState: string; judgment: string | null }[];
const nameOf = (author: string | null) => (author ?? '').replace(/\s*<.*$/, '');

describe('risk judgment by a second user over the demo workspace', () => {
  const chromium = useBrowser();
  let admin = '';
  let chen = { username: '', password: '', id: '' };
  let chensItems: Item[] = [];
  // The demo author whose identity the second user lists.
  let CHEN = '';

  const open = async (username: string, password: string, locale: 'en' | 'zh') => {
    const context = await chromium.browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
    await context.addInitScript((l) => {
      localStorage.setItem('sextant.locale', l);
      localStorage.setItem('sextant.preferences', JSON.stringify({ routerTransition: 'none' }));
    }, locale);
    await signInByApi(context, username, password);
    return { context, page: await context.newPage() };
  };
  const settled = (page: Page) =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const shot = async (page: Page, name: string) => {
    await settled(page);
    await page.screenshot({ path: `${artifactsDir}${name}.png`, fullPage: true });
  };
  const items = (query: string, token = admin) =>
    apiCall<{ items: Item[] }>('GET', `/api/risks?perPage=200&${query}`, undefined, token).then((p) => p.items);

  beforeAll(async () => {
    expect(await demoWorkspace()).toContain('demo workspace ready');
    admin = (
      await apiCall<{ accessToken: string }>('POST', '/api/login', {
        username: 'admin',
        password: inject('adminPassword'),
      })
    ).accessToken;
    const created = await createUser('developer');
    const users = await apiCall<{ items: { id: string }[] }>(
      'GET',
      `/api/users?q=${created.username}`,
      undefined,
      admin,
    );
    chen = { ...created, id: users.items[0]?.id ?? '' };
    const teams = await apiCall<{ items: { id: string; members: { id: string }[] }[] }>(
      'GET',
      `/api/teams?q=${encodeURIComponent('Demo team')}`,
      undefined,
      admin,
    );
    const team = teams.items[0];
    if (!team) throw new Error('the demo made no team');
    await apiCall('PATCH', `/api/teams/${team.id}`, { memberIds: [...team.members.map((m) => m.id), chen.id] }, admin);
    // The demo team's items only: other journeys' reports (their fixture authors) live in other teams,
    // which the second user, a member of the demo team, does not see.
    const open = await items(`kind=coverage&state=observing,pending&teamId=${team.id}`);
    const counts = new Map<string, number>();
    for (const i of open) if (i.author) counts.set(nameOf(i.author), (counts.get(nameOf(i.author)) ?? 0) + 1);
    CHEN = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
    // The one to ask a decision on first (observing before pending), the other to be assigned.
    chensItems = open
      .filter((i) => nameOf(i.author) === CHEN)
      .sort((a, b) => Number(a.state !== 'observing') - Number(b.state !== 'observing'));
  }, 660_000);

  it('the demo leaves an author with two open coverage risks', () => {
    expect(chensItems.length).toBeGreaterThanOrEqual(2);
  });

  it.each(['en', 'zh'] as const)(
    'the home screen holds the demo’s risks before any judgment here (%s)',
    async (locale) => {
      const { context, page } = await open('admin', inject('adminPassword'), locale);
      await page.goto('/dashboard/observingRiskyItems');
      await page.locator('.ant-table-row').filter({ hasText: CHEN }).first().waitFor({ timeout: 60_000 });
      await shot(page, `risks-home-${locale}`);
      await context.close();
    },
    120_000,
  );

  it('lists a git identity in personal settings, judges a pending risk of theirs, and is told of an assignment', async () => {
    const { context, page } = await open(chen.username, chen.password, 'en');
    const token = (await signInByApi(context, chen.username, chen.password)).accessToken;
    expect(await items('mine=true', token)).toEqual([]);

    await page.goto('/system/personSetting');
    const identities = page.getByLabel('Git identities');
    await identities.click();
    await page.keyboard.type(CHEN);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Save identities' }).click();
    await page.getByText('Identities saved.').waitFor();
    await shot(page, 'person-git-identities-en');
    expect(await apiCall('GET', '/api/me/gitIdentities', undefined, token)).toEqual({ identities: [CHEN] });
    const mine = await items('mine=true&state=observing,pending', token);
    expect(mine.map((i) => i.id).sort()).toEqual(chensItems.map((i) => i.id).sort());

    // A decision is asked for; the author judges it on the pending risks screen.
    const [asked, assigned] = chensItems as [Item, Item];
    if (asked.state === 'observing') {
      await apiCall('POST', '/api/risks/ask-decision', { ids: [asked.id], reason: 'e2e: decide' }, admin);
    }
    await page.goto(`/dashboard/pendingrisks?author=${encodeURIComponent(CHEN)}&state=pending`);
    const row = page.locator('.ant-table-row').filter({ hasText: asked.methodName }).first();
    await row.getByRole('button', { name: 'Judge' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByText('Accepted risk', { exact: true }).click();
    await drawer.getByLabel('Reason').fill('e2e: only reached by the retired importer.');
    await drawer.getByRole('button', { name: 'Save judgment' }).click();
    await page.getByText('Judgment saved.').waitFor();
    const history = await apiCall<History>('GET', `/api/risks/${asked.id}/history`, undefined, admin);
    expect(history.at(-1)).toMatchObject({ actorName: chen.username, toState: 'judged', judgment: 'accepted' });

    // Assigned by the administrator: the notification reaches the open page, and my analytics lists it.
    await page.goto('/dashboard/myAnalytic');
    await page.locator('[aria-label="Message connection: open"]').waitFor();
    await apiCall(
      'POST',
      `/api/risks/${assigned.id}/judgment`,
      { judgment: 'needs-test', assigneeId: chen.id, dueDate: '2030-01-31', reason: 'e2e: add the test' },
      admin,
    );
    await page.locator('.ant-notification-notice').getByText('A risk was assigned to you').waitFor();
    await page.reload();
    const assignedCard = page.locator('.ant-card').filter({ hasText: 'Assigned to me' });
    await assignedCard.getByText(assigned.methodName).first().waitFor();
    await context.close();
  }, 180_000);

  it.each([
    ['en', 'Assigned to me', 'Judge'],
    ['zh', '分配给我的', '判定'],
  ] as const)(
    'screens over the demo (%s): pending risks with the judgment drawer, my analytics',
    async (locale, assignedTitle, judge) => {
      const adminView = await open('admin', inject('adminPassword'), locale);
      const page = adminView.page;
      await page.goto('/dashboard/pendingrisks');
      await page.locator('.ant-table-row').first().waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: judge }).first().click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: locale === 'en' ? 'Save judgment' : '保存判定' })
        .waitFor();
      await shot(page, `risks-pending-drawer-${locale}`);
      await adminView.context.close();

      const chenView: { context: BrowserContext; page: Page } = await open(chen.username, chen.password, locale);
      await chenView.page.goto('/dashboard/myAnalytic');
      await chenView.page
        .locator('.ant-card')
        .filter({ hasText: assignedTitle })
        .locator('.ant-table-row')
        .first()
        .waitFor({
          timeout: 60_000,
        });
      await chenView.page.locator('canvas').first().waitFor({ timeout: 30_000 });
      await shot(chenView.page, `my-analytic-${locale}`);
      await chenView.context.close();
    },
    180_000,
  );
});
