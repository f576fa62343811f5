import { PATHS, pathTo } from '@sextant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, buildTestApp, signIn } from '../support/build-test-app.ts';

describe('message centre: publish, notifications, heart-beats', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Awaited<ReturnType<typeof signIn>>;
  let client: Awaited<ReturnType<typeof signIn>>;
  let clientId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signIn(t.app, 'admin', ADMIN_PASSWORD);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin.headers,
      payload: { username: 'carol', email: 'carol@example.com', role: 'client', password: 'carol-password' },
    });
    clientId = created.json().data.id;
    client = await signIn(t.app, 'carol', 'carol-password');
  }, 60_000);
  afterAll(async () => t?.close());

  const publish = (payload: object, headers = admin.headers) =>
    t.app.inject({ method: 'POST', url: PATHS.messages, headers, payload });
  const notifications = async (headers = client.headers) =>
    (await t.app.inject({ method: 'GET', url: PATHS.notifications, headers })).json().data;
  const post = (url: string, headers = client.headers) => t.app.inject({ method: 'POST', url, headers });

  it('stores a report-progress message with every field of point 3 and lists it in the report history', async () => {
    const res = await publish({
      id: 'm-success-1',
      title: 'Report r1',
      text: 'Report generated',
      report_id: 'r1',
      agent_id: 'a1',
      status: 'SUCCESS',
    });
    expect(res.statusCode).toBe(200);
    const message = res.json().data;
    expect(message).toMatchObject({
      id: 'm-success-1',
      title: 'Report r1',
      text: 'Report generated',
      message_type: 'REPORT_PROGRESS',
      report_id: 'r1',
      agent_id: 'a1',
      status: 'SUCCESS',
      // the address the request came from: the server sets it (issue 32)
      ip: '127.0.0.1',
      readed: false,
      hidded: false,
    });
    expect(Number.isNaN(Date.parse(message.date))).toBe(false);
    const history = await t.app.inject({
      method: 'GET',
      url: `${PATHS.messages}?reportId=r1`,
      headers: admin.headers,
    });
    expect(history.json().data).toEqual({ items: [message], total: 1 });
  });

  it('gives a message without an id a fresh one and refuses a second message with a used id', async () => {
    const fresh = (await publish({ title: 'Notice', text: 'Maintenance at noon', message_type: 'NOTICE' })).json();
    expect(fresh.data.id).toMatch(/^[0-9a-f-]{36}$/);
    const again = await publish({ id: 'm-success-1', title: 'dup', status: 'SUCCESS', report_id: 'r1' });
    expect(again.statusCode).toBe(409);
  });

  it('lets only administrators publish over HTTP (agents: see publish-rights.test.ts)', async () => {
    const res = await publish({ title: 'x', status: 'SUCCESS', report_id: 'r1' }, client.headers);
    expect(res.statusCode).toBe(403);
    const noToken = await t.app.inject({ method: 'POST', url: PATHS.messages, payload: { title: 'x' } });
    expect(noToken.statusCode).toBe(401);
  });

  it('creates notifications for the notifying statuses only; heart-beats record the agent instead', async () => {
    // r2 is no report of any team: only those who read every team's reports see its notifications
    const before = (await notifications(admin.headers)).unread;
    await publish({ title: 'cloning', report_id: 'r2', status: 'CLONING' });
    await publish({ title: 'compile failed', report_id: 'r2', status: 'COMPILE_FAIL' });
    await publish({ title: 'beat', report_id: 'r2', agent_id: 'agent-7', status: 'HEART_BEAT_DONE' });
    const page = await notifications(admin.headers);
    expect(page.unread).toBe(before + 1);
    expect(page.items[0]).toMatchObject({ title: 'compile failed', status: 'COMPILE_FAIL', readed: false });
    expect(page.items.some((m: { status: string }) => m.status === 'HEART_BEAT_DONE')).toBe(false);
    expect(page.items.some((m: { status: string }) => m.status === 'CLONING')).toBe(false);

    const beats = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `${PATHS.messageHeartbeats}?reportId=r2`,
          headers: admin.headers,
        })
      ).json().data;
    // The heart-beat is recorded with the address it came from.
    expect(await beats()).toMatchObject([{ agent_id: 'agent-7', status: 'HEART_BEAT_DONE', ip: '127.0.0.1' }]);
    // Dates are the server's; a late, older heart-beat (published inside the server) keeps the newer one.
    const later = new Date(Date.now() + 60_000);
    const beat = { report_id: 'r2', agent_id: 'agent-7', ip: '10.1.1.1' } as const;
    await t.app.messages.publish({ ...beat, title: 'b', status: 'HEART_BEAT_ERROR', date: later });
    expect(await beats()).toEqual([
      { agent_id: 'agent-7', status: 'HEART_BEAT_ERROR', ip: '10.1.1.1', date: later.toISOString() },
    ]);
    const older = new Date(Date.now() - 60_000);
    await t.app.messages.publish({ ...beat, title: 'c', status: 'HEART_BEAT_DONE', date: older });
    expect((await beats())[0].date).toBe(later.toISOString());
    const anonymous = await publish({ title: 'who?', report_id: 'r2', status: 'HEART_BEAT_DONE' });
    expect(anonymous.statusCode).toBe(400);
    expect(anonymous.json().data.fields).toEqual({ agent_id: 'Required for a heart-beat.' });
  });

  it('marks one read, hides one and marks all read, per user', async () => {
    await publish({ id: 'n-a', title: 'A', message_type: 'NOTICE' });
    await publish({ id: 'n-b', title: 'B', message_type: 'NOTICE' });
    await publish({ id: 'n-c', title: 'C', message_type: 'NOTICE' });
    const start = (await notifications()).unread;
    const adminStart = (await notifications(admin.headers)).unread;
    const read = await post(pathTo(PATHS.notificationRead, { id: 'n-b' }));
    expect(read.json().data).toEqual({ unread: start - 1 });
    const page = await notifications();
    // unread first: n-b, now read, sorts after every unread one
    const ids = page.items.map((m: { id: string }) => m.id);
    expect(ids.indexOf('n-b')).toBeGreaterThan(ids.indexOf('n-a'));
    expect(page.items.find((m: { id: string }) => m.id === 'n-b').readed).toBe(true);

    expect((await post(pathTo(PATHS.notificationHide, { id: 'n-c' }))).json().data).toEqual({ unread: start - 2 });
    const afterHide = await notifications();
    expect(afterHide.items.some((m: { id: string }) => m.id === 'n-c')).toBe(false);
    expect(afterHide.total).toBe(page.total - 1);

    expect((await post(PATHS.notificationsReadAll)).json().data).toEqual({ unread: 0 });
    expect((await notifications()).items.every((m: { readed: boolean }) => m.readed)).toBe(true);
    // another user's flags are untouched
    expect((await notifications(admin.headers)).unread).toBe(adminStart);

    await publish({ id: 'n-d', title: 'D', message_type: 'NOTICE' });
    expect((await notifications()).unread).toBe(1);
    expect((await post(pathTo(PATHS.notificationRead, { id: 'no-such-id' }))).statusCode).toBe(404);
  });

  it("keeps one user's own messages from everybody else", async () => {
    await t.app.messages.publish({ id: 'just-carol', title: 'For Carol', message_type: 'NOTICE', userId: clientId });
    expect((await notifications()).items[0].id).toBe('just-carol');
    const adminPage = await notifications(admin.headers);
    expect(adminPage.items.some((m: { id: string }) => m.id === 'just-carol')).toBe(false);
    expect((await post(pathTo(PATHS.notificationRead, { id: 'just-carol' }), admin.headers)).statusCode).toBe(404);
  });

  it('paginates the history of a report, newest first', async () => {
    for (let i = 0; i < 7; i++) await publish({ title: `step ${i}`, report_id: 'r4', status: 'CLONING' });
    const page2 = await t.app.inject({
      method: 'GET',
      url: `${PATHS.messages}?reportId=r4&page=2&perPage=3`,
      headers: admin.headers,
    });
    const data = page2.json().data;
    expect(data.total).toBe(7);
    expect(data.items.map((m: { title: string }) => m.title)).toEqual(['step 3', 'step 2', 'step 1']);
    const forbidden = await t.app.inject({
      method: 'GET',
      url: `${PATHS.messages}?reportId=r4`,
      headers: client.headers,
    });
    expect(forbidden.statusCode).toBe(403);
  });
});
