import { describe, expect, it } from 'vitest';
import { signIn, useAdminApp } from '../../../test/support/build-test-app.ts';

describe('access requests', () => {
  const t = useAdminApp();

  const apply = (username: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/jwt/register',
      payload: { username, email: `${username}@example.test`, reason: 'I test the payments app' },
    });
  const pending = async () =>
    (await t.app.inject({ url: '/api/applications?status=pending', headers: t.admin.headers })).json().data;

  it('approves a request: the account exists with the role and signs in through the reset link', async () => {
    expect((await apply('fiona')).statusCode).toBe(200);
    const request = (await pending()).items.find((a: { username: string }) => a.username === 'fiona');
    expect(request).toMatchObject({ status: 'pending', reason: 'I test the payments app' });
    const approved = await t.app.inject({
      method: 'POST',
      url: `/api/applications/${request.id}/approve`,
      headers: t.admin.headers,
      payload: { role: 'tester' },
    });
    expect(approved.statusCode).toBe(200);
    const { token } = approved.json().data.resetLink;
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/resetPassword',
      payload: { token, password: 'fiona-new-password' },
    });
    expect(reset.statusCode).toBe(200);
    const fiona = await signIn(t.app, 'fiona', 'fiona-new-password');
    const me = (await t.app.inject({ url: '/api/me', headers: fiona.headers })).json().data;
    expect(me.userData.role).toBe('tester');
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/applications/${request.id}/approve`,
      headers: t.admin.headers,
      payload: { role: 'tester' },
    });
    expect(again.statusCode).toBe(409);
    expect((await pending()).items.some((a: { username: string }) => a.username === 'fiona')).toBe(false);
  });

  it('rejects with a reason and creates no account', async () => {
    await apply('gus');
    const request = (await pending()).items.find((a: { username: string }) => a.username === 'gus');
    const noReason = await t.app.inject({
      method: 'POST',
      url: `/api/applications/${request.id}/reject`,
      headers: t.admin.headers,
      payload: { reason: '  ' },
    });
    expect(noReason.statusCode).toBe(400);
    const rejected = await t.app.inject({
      method: 'POST',
      url: `/api/applications/${request.id}/reject`,
      headers: t.admin.headers,
      payload: { reason: 'Not on the project' },
    });
    expect(rejected.statusCode).toBe(200);
    const all = (await t.app.inject({ url: '/api/applications?status=rejected', headers: t.admin.headers })).json()
      .data;
    expect(all.items[0]).toMatchObject({ username: 'gus', status: 'rejected', decisionNote: 'Not on the project' });
    const users = (await t.app.inject({ url: '/api/users?q=gus', headers: t.admin.headers })).json().data;
    expect(users.total).toBe(0);
    const log = (await t.app.inject({ url: '/api/auditLogs?entity=application', headers: t.admin.headers })).json()
      .data;
    expect(log.items.map((e: { action: string }) => e.action).sort()).toEqual(['approve', 'reject']);
  });

  it('refuses an unknown role and keeps the request pending', async () => {
    await apply('hal');
    const request = (await pending()).items.find((a: { username: string }) => a.username === 'hal');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/applications/${request.id}/approve`,
      headers: t.admin.headers,
      payload: { role: 'emperor' },
    });
    expect(res.statusCode).toBe(400);
    expect((await pending()).items.some((a: { username: string }) => a.username === 'hal')).toBe(true);
  });
});
