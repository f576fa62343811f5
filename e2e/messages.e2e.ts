import type { WebSocketRoute } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiCall, artifactsDir, baseUrl, createUser, newPage, signInByApi, useBrowser } from './support/browser.ts';

describe('message centre in the browser', () => {
  const chromium = useBrowser();

  it('shows a notification pushed while the page is open; mark all read clears the count; reload keeps state', async () => {
    const { context, page } = await newPage(chromium.browser);
    const session = await signInByApi(context, 'admin', inject('adminPassword'));
    await apiCall('POST', '/api/notifications/readAll', undefined, session.accessToken);
    await page.goto('/dashboard/observingRiskyItems');
    await page.locator('[aria-label="Message connection: open"]').waitFor();
    const bell = page.getByRole('button', { name: /^Notifications, \d+ unread$/ });
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications, 0 unread');

    // Published by the server through the same route the report pipeline and agents use.
    const reportId = `e2e-report-${Date.now().toString(36)}`;
    const title = `Report ${reportId} is ready`;
    await apiCall(
      'POST',
      '/api/messages',
      { title, text: 'Coverage report generated.', report_id: reportId, agent_id: 'agent-1', status: 'SUCCESS' },
      session.accessToken,
    );
    await page.locator('.ant-notification-notice').getByText(title).waitFor();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications, 1 unread');
    // A heart-beat updates the agent's last beat and creates no notification.
    await apiCall(
      'POST',
      '/api/messages',
      { title: 'beat', report_id: reportId, agent_id: 'agent-1', status: 'HEART_BEAT_DONE', ip: '10.9.8.7' },
      session.accessToken,
    );

    await page.reload();
    await page.locator('[aria-label="Message connection: open"]').waitFor();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications, 1 unread');
    await bell.click();
    const link = page.getByRole('link', { name: title });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/dashboard/coverage/${reportId}`);
    await page.screenshot({ path: `${artifactsDir}messages-bell-open.png` });
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications, 0 unread');

    await page.reload();
    await page.locator('[aria-label="Message connection: open"]').waitFor();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications, 0 unread');
    await bell.click();
    await page.getByRole('link', { name: title }).waitFor();
    expect(await page.locator('.notification-item').filter({ hasText: 'beat' }).count()).toBe(0);
    await context.close();
  });
  it('re-subscribes and sends the connection test on every open, and reconnects after the socket drops', async () => {
    const { context, page } = await newPage(chromium.browser);
    const session = await signInByApi(context, 'admin', inject('adminPassword'));
    // Every socket the page opens passes through here, so its frames can be read and the socket dropped.
    const sockets: { route: WebSocketRoute; frames: string[] }[] = [];
    await page.routeWebSocket(/\/ws$/, (route) => {
      const frames: string[] = [];
      sockets.push({ route, frames });
      const server = route.connectToServer();
      route.onMessage((frame) => {
        frames.push(String(frame));
        server.send(frame);
      });
    });
    await page.goto('/dashboard/observingRiskyItems');
    const open = page.locator('[aria-label="Message connection: open"]');
    await open.waitFor();
    const opening = (frames: string[]) => {
      const text = frames.join('');
      return {
        bearer: text.includes(`Authorization:Bearer ${session.accessToken}`),
        broadcast: /SUBSCRIBE\n[^\0]*destination:\/all\/messages/.test(text),
        own: /SUBSCRIBE\n[^\0]*destination:\/user\/queue\/messages/.test(text),
        connectionTest: /SEND\n[^\0]*destination:\/all\/messages[^\0]*"message_type":"CONNECTION_TEST"/.test(text),
      };
    };
    const everything = { bearer: true, broadcast: true, own: true, connectionTest: true };
    await expect.poll(() => opening(sockets[0]?.frames ?? [])).toEqual(everything);

    await sockets[0]?.route.close({ code: 4000, reason: 'e2e drop' });
    await page.locator('[aria-label="Message connection: closed"]').waitFor();
    await open.waitFor({ timeout: 15_000 });
    expect(sockets).toHaveLength(2);
    await expect.poll(() => opening(sockets[1]?.frames ?? [])).toEqual(everything);

    const title = `After reconnect ${Date.now().toString(36)}`;
    await apiCall('POST', '/api/messages', { title, message_type: 'NOTICE' }, session.accessToken);
    await page.locator('.ant-notification-notice').getByText(title).waitFor();
    await context.close();
  });

  it("shows a developer their own team's report progress, not another team's", async () => {
    const admin = await apiCall<{ accessToken: string }>('POST', '/api/login', {
      username: 'admin',
      password: inject('adminPassword'),
    });
    const developer = await createUser('developer');
    const { context, page } = await newPage(chromium.browser);
    const session = await signInByApi(context, developer.username, developer.password);
    const suffix = Date.now().toString(36);
    const teamApp = async (team: string, memberIds: string[]) => {
      const { id } = await apiCall<{ id: string }>('POST', '/api/teams', { name: team, memberIds }, admin.accessToken);
      const name = `${team.replace(/\W+/g, '-').toLowerCase()}-app`;
      // nothing answers at .invalid: the report fails cloning, as a real one can
      const app = {
        teamId: id,
        name,
        language: 'java',
        repoUrl: `https://git.invalid/${name}.git`,
        environments: ['test'],
      };
      await apiCall('POST', '/api/apps', app, admin.accessToken);
      return name;
    };
    const ownApp = await teamApp(`Own ${suffix}`, [session.userData.userid]);
    const otherApp = await teamApp(`Other ${suffix}`, []);
    await page.goto('/dashboard/observingRiskyItems');
    await page.locator('[aria-label="Message connection: open"]').waitFor();

    const createReport = async (app: string, name: string) => {
      const body = {
        app,
        name,
        baseVersion: 'v1',
        newVersion: 'v2',
        envType: 'test',
        testType: 1,
        coverageType: 'full',
      };
      const res = await fetch(`${baseUrl()}/api/reports`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.accessToken}` },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { data: { id: string } }).data.id;
    };
    const otherReport = await createReport(otherApp, `Other build ${suffix}`);
    await createReport(ownApp, `Own build ${suffix}`);
    await page.locator('.ant-notification-notice').getByText(`Own build ${suffix}: CLONE_FAIL`).waitFor();
    // once the other team's failure is stored, a notice to everyone comes after it on the same socket
    await expect
      .poll(async () => {
        const history = await apiCall<{ items: { status: string }[] }>(
          'GET',
          `/api/messages?reportId=${otherReport}`,
          undefined,
          admin.accessToken,
        );
        return history.items.some((m) => m.status === 'CLONE_FAIL');
      })
      .toBe(true);
    const marker = `After both builds ${suffix}`;
    await apiCall('POST', '/api/messages', { title: marker, message_type: 'NOTICE' }, admin.accessToken);
    await page.locator('.ant-notification-notice').getByText(marker).waitFor();
    expect(await page.getByText(`Other build ${suffix}`).count()).toBe(0);

    await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
    await page.getByRole('link', { name: `Own build ${suffix}: CLONE_FAIL` }).waitFor();
    expect(
      await page
        .locator('.notification-item')
        .filter({ hasText: `Other build ${suffix}` })
        .count(),
    ).toBe(0);
    await context.close();
  });
});
