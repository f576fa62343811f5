import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, buildTestApp } from '../../../test/support/build-test-app.ts';

describe('sign-in and tokens', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    t = await buildTestApp();
  }, 60_000);
  afterAll(async () => t?.close());

  const login = (username: string, password: string, ip = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password }, remoteAddress: ip });

  it('signs in by username and by email with exactly the userData fields', async () => {
    for (const name of ['admin', 'admin@sextant.local']) {
      const res = await login(name, ADMIN_PASSWORD);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.code).toBe(200);
      expect(Object.keys(body.data.userData).sort()).toEqual(
        ['ability', 'performanceRiskRules', 'resourceNums', 'role', 'userid', 'usertypes'].sort(),
      );
      expect(body.data.userData.role).toBe('admin');
    }
  });

  it('answers the same error for a wrong password and an unknown user', async () => {
    const wrong = await login('admin', 'nope', '10.0.0.2');
    const unknown = await login('nobody', 'nope', '10.0.0.2');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 400,
        message: 'Email or Password is Invalid',
        data: { error: 'invalid-credentials' },
      });
    }
  });

  it('locks an IP after 10 failures, even for the right password', async () => {
    for (let i = 0; i < 10; i++) expect((await login(`ghost${i}`, 'x', '10.0.0.9')).statusCode).toBe(400);
    const res = await login('admin', ADMIN_PASSWORD, '10.0.0.9');
    expect(res.statusCode).toBe(429);
    expect(res.json().data.error).toBe('account-locked');
  });

  it('delays an account after 5 failures from any IPs under any of its names', async () => {
    const admin = (await login('admin', ADMIN_PASSWORD, '10.3.0.1')).json().data.accessToken;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { authorization: `Bearer ${admin}` },
      payload: {
        username: 'developer1',
        email: 'developer1@example.test',
        role: 'developer',
        password: 'developer-password',
      },
    });
    expect(created.statusCode).toBe(200);
    expect((await login('developer1', 'developer-password', '10.2.0.9')).statusCode).toBe(200);
    const names = ['developer1', 'DEVELOPER1@example.test'];
    for (let i = 0; i < 5; i++) {
      expect((await login(names[i % 2] as string, 'wrong', `10.1.0.${i}`)).statusCode).toBe(400);
    }
    const res = await login('developer1', 'developer-password', '10.2.0.1');
    expect(res.statusCode).toBe(429);
    expect(res.json().data.error).toBe('account-locked');
  });

  it('rotates refresh tokens and revokes the family when a dead one is reused', async () => {
    const first = (await login('admin', ADMIN_PASSWORD)).json().data;
    const refresh = (token: string) =>
      t.app.inject({ method: 'POST', url: '/api/refreshToken', payload: { refreshToken: token } });
    const second = await refresh(first.refreshToken);
    expect(second.statusCode).toBe(200);
    const next = second.json().data.refreshToken;
    expect(next).not.toBe(first.refreshToken);
    const reuse = await refresh(first.refreshToken);
    expect(reuse.json()).toMatchObject({ code: 401, data: { error: 'invalid-refresh-token' } });
    expect((await refresh(next)).statusCode).toBe(401);
  });

  it('logout kills the refresh family; /api/me needs a valid token', async () => {
    const pair = (await login('admin', ADMIN_PASSWORD)).json().data;
    const auth = { authorization: `Bearer ${pair.accessToken}` };
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: auth });
    expect(me.json().data.profile.username).toBe('admin');
    expect((await t.app.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${pair.accessToken}x` },
    });
    expect(forged.statusCode).toBe(401);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/jwt/logout',
      headers: auth,
      payload: { refreshToken: pair.refreshToken },
    });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({
      method: 'POST',
      url: '/api/refreshToken',
      payload: { refreshToken: pair.refreshToken },
    });
    expect(after.statusCode).toBe(401);
  });

  it('refuses malformed JSON, oversized bodies and hostile strings without changing the database', async () => {
    const count = async () => (await t.database.pool.query('select count(*)::int as n from users')).rows[0].n;
    const before = await count();
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe(400);
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'a'.repeat(2_000_000), password: 'x' }),
    });
    expect(big.json()).toMatchObject({ code: 413, data: { error: 'payload-too-large' } });
    for (const s of ["admin' OR '1'='1", '<script>alert(1)</script>', "'; drop table users; --"]) {
      const res = await login(s, s, '10.0.0.50');
      expect(res.statusCode).toBe(400);
    }
    expect(await count()).toBe(before);
    expect((await t.database.db.execute(sql`select 1 from users where username = 'admin'`)).rows.length).toBe(1);
  });

  it('answers 404 in the envelope for unknown API routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.json()).toMatchObject({ code: 404, data: { error: 'not-found' } });
  });
});

describe('expired access token', () => {
  it('answers 401 token-expired once the TTL has passed', async () => {
    const t = await buildTestApp({ accessTokenTtl: 1 });
    try {
      const pair = (
        await t.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { username: 'admin', password: ADMIN_PASSWORD },
        })
      ).json().data;
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 5_000);
      try {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/me',
          headers: { authorization: `Bearer ${pair.accessToken}` },
        });
        expect(res.json()).toMatchObject({ code: 401, data: { error: 'token-expired' } });
      } finally {
        vi.useRealTimers();
      }
    } finally {
      await t.close();
    }
  }, 60_000);
});
