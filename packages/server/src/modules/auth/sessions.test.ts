import { SignJWT } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_JWT_SECRET, useAdminApp } from '../../../test/support/build-test-app.ts';

/** Issue 32, findings 7, 8 and 9: sessions end when they should, and a user sees and ends their own. */
describe('sessions', () => {
  const t = useAdminApp();
  afterEach(() => vi.useRealTimers());

  const login = (username: string, password: string, device: { ip: string; agent: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username, password },
      remoteAddress: device.ip,
      headers: { 'user-agent': device.agent },
    });
  const session = async (username: string, password: string, device = { ip: '10.30.0.1', agent: 'test-agent' }) => {
    const res = await login(username, password, device);
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { accessToken: string; refreshToken: string };
    return { ...data, headers: { authorization: `Bearer ${data.accessToken}` } };
  };
  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: '/api/refreshToken', payload: { refreshToken } });
  const me = (headers: object) => t.app.inject({ url: '/api/me', headers: headers as Record<string, string> });
  const changePassword = (headers: object, currentPassword: string, newPassword: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/me/password',
      headers: headers as Record<string, string>,
      payload: { currentPassword, newPassword },
    });

  beforeAll(async () => {
    for (const name of ['ivan', 'judy', 'karl', 'lena']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: t.admin.headers,
        payload: { username: name, email: `${name}@example.test`, role: 'developer', password: `${name}-password` },
      });
      expect(res.statusCode).toBe(200);
    }
  });

  it('answers 401, not 500, for a token signed with the real key whose subject is no user id', async () => {
    for (const sub of ['not-a-uuid', "' or 1=1 --", '00000000-0000-0000-0000-00000000000g']) {
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(TEST_JWT_SECRET));
      const res = await me({ authorization: `Bearer ${token}` });
      expect(res.statusCode).toBe(401);
      expect(res.json().data.error).toBe('unauthorized');
    }
  });

  it('ends the other sessions when a user changes their password, keeping the one that changed it', async () => {
    const laptop = await session('ivan', 'ivan-password');
    const phone = await session('ivan', 'ivan-password', { ip: '10.30.0.2', agent: 'phone' });
    expect((await changePassword(laptop.headers, 'ivan-password', 'ivan-new-password')).statusCode).toBe(200);
    expect((await refresh(phone.refreshToken)).statusCode).toBe(401);
    expect((await me(phone.headers)).statusCode).toBe(401);
    expect((await me(laptop.headers)).statusCode).toBe(200);
    expect((await refresh(laptop.refreshToken)).statusCode).toBe(200);
  });

  it('ends every session when a reset link sets a new password', async () => {
    const judy = await session('judy', 'judy-password');
    const users = (await t.app.inject({ url: '/api/users?q=judy', headers: t.admin.headers })).json().data.items;
    const link = await t.app.inject({
      method: 'POST',
      url: `/api/users/${users[0].id}/resetLink`,
      headers: t.admin.headers,
    });
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/resetPassword',
      payload: { token: link.json().data.token, password: 'judy-new-password' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await refresh(judy.refreshToken)).statusCode).toBe(401);
    expect((await me(judy.headers)).statusCode).toBe(401);
  });

  it('answers 429 after five wrong current passwords, for that account only', async () => {
    const karl = await session('karl', 'karl-password');
    for (let i = 0; i < 5; i++) {
      expect((await changePassword(karl.headers, `guess-${i}`, 'karl-new-password')).statusCode).toBe(400);
    }
    const blocked = await changePassword(karl.headers, 'karl-password', 'karl-new-password');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().data.error).toBe('rate-limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await session('karl', 'karl-password')).accessToken).toBeTruthy();
    const lena = await session('lena', 'lena-password');
    expect((await changePassword(lena.headers, 'wrong', 'lena-new-password')).statusCode).toBe(400);
    expect((await changePassword(lena.headers, 'lena-password', 'lena-new-password')).statusCode).toBe(200);
  });

  it('refuses a refresh token left unused longer than the idle time, and rotation restarts it', async () => {
    const start = Date.now();
    const first = await session('admin', 'admin-test-password');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start + 11 * 3600_000);
    const rotated = await refresh(first.refreshToken);
    expect(rotated.statusCode).toBe(200);
    vi.setSystemTime(start + 22 * 3600_000);
    const second = await refresh(rotated.json().data.refreshToken);
    expect(second.statusCode).toBe(200);
    vi.setSystemTime(start + 35 * 3600_000);
    const idle = await refresh(second.json().data.refreshToken);
    expect(idle.statusCode).toBe(401);
    expect(idle.json().data.error).toBe('invalid-refresh-token');
  });

  it('lists a user their own sessions and lets them end the others', async () => {
    const desk = await session('lena', 'lena-new-password', { ip: '10.31.0.1', agent: 'Desk/1.0' });
    const tablet = await session('lena', 'lena-new-password', { ip: '10.31.0.2', agent: 'Tablet/2.0' });
    const spare = await session('lena', 'lena-new-password', { ip: '10.31.0.3', agent: 'Spare/3.0' });
    const list = await t.app.inject({ url: '/api/me/sessions', headers: desk.headers });
    expect(list.statusCode).toBe(200);
    const sessions = list.json().data as {
      id: string;
      ip: string;
      userAgent: string;
      current: boolean;
      createdAt: string;
      lastUsedAt: string;
    }[];
    const byAgent = Object.fromEntries(sessions.map((s) => [s.userAgent, s]));
    expect(byAgent['Desk/1.0']).toMatchObject({ ip: '10.31.0.1', current: true });
    expect(byAgent['Tablet/2.0']).toMatchObject({ ip: '10.31.0.2', current: false });
    expect(Date.parse(byAgent['Tablet/2.0']?.lastUsedAt ?? '')).toBeGreaterThan(0);
    // Another user neither sees nor ends them.
    const admins = (await t.app.inject({ url: '/api/me/sessions', headers: t.admin.headers })).json().data;
    expect(admins.some((s: { id: string }) => s.id === byAgent['Tablet/2.0']?.id)).toBe(false);
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/me/sessions/${byAgent['Tablet/2.0']?.id}`,
      headers: t.admin.headers,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await refresh(tablet.refreshToken)).statusCode).toBe(200);
    const end = await t.app.inject({
      method: 'DELETE',
      url: `/api/me/sessions/${byAgent['Spare/3.0']?.id}`,
      headers: desk.headers,
    });
    expect(end.statusCode).toBe(200);
    expect((await refresh(spare.refreshToken)).statusCode).toBe(401);
    expect((await me(spare.headers)).statusCode).toBe(401);
    const others = await t.app.inject({ method: 'POST', url: '/api/me/sessions/revokeOthers', headers: desk.headers });
    expect(others.statusCode).toBe(200);
    expect((await me(tablet.headers)).statusCode).toBe(401);
    const left = (await t.app.inject({ url: '/api/me/sessions', headers: desk.headers })).json().data;
    expect(left.map((s: { userAgent: string }) => s.userAgent)).toEqual(['Desk/1.0']);
    expect((await refresh(desk.refreshToken)).statusCode).toBe(200);
  });

  it('ends the access token of a session signed out, not only its refresh token', async () => {
    const pair = await session('admin', 'admin-test-password');
    expect((await me(pair.headers)).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/jwt/logout',
      headers: pair.headers,
      payload: { refreshToken: pair.refreshToken },
    });
    expect(out.statusCode).toBe(200);
    expect((await me(pair.headers)).statusCode).toBe(401);
    expect((await me(t.admin.headers)).statusCode).toBe(200);
  });

  it('refuses a malformed session id with 400', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/me/sessions/nope', headers: t.admin.headers });
    expect(res.statusCode).toBe(400);
  });
});
