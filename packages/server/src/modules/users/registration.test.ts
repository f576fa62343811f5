import { describe, expect, it } from 'vitest';
import { signIn, useAdminApp } from '../../../test/support/build-test-app.ts';
import { networkOf } from '../auth/throttle.ts';
import { usernameKey } from './usernames.ts';

/** Issue 32, finding 7: look-alike names, registration limits and reset links. */
describe('names, registration and reset links', () => {
  const t = useAdminApp();
  const register = (username: string, ip: string, email = `${Math.random().toString(36).slice(2)}@example.test`) =>
    t.app.inject({ method: 'POST', url: '/api/jwt/register', payload: { username, email }, remoteAddress: ip });
  const createUser = (username: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: t.admin.headers,
      payload: { username, email: `${Math.random().toString(36).slice(2)}@example.test`, role: 'client' },
    });
  const count = async (table: string) =>
    (await t.database.pool.query(`select count(*)::int as n from ${table}`)).rows[0].n;

  it('compares names NFKC- and case-folded without invisible characters', () => {
    expect(usernameKey('Admin')).toBe('admin');
    expect(usernameKey('ａｄｍｉｎ')).toBe('admin');
    expect(usernameKey('ad\u200bmin\ufeff')).toBe('admin');
    expect(usernameKey('Ｅｌｉｓｅ')).toBe('elise');
  });

  it('refuses Admin and admin plus a zero-width space beside admin, as applicant and as account', async () => {
    const before = { users: await count('users'), applications: await count('applications') };
    const admin = await register('Admin', '10.20.0.1');
    expect(admin.statusCode).toBe(409);
    expect(admin.json().data.fields).toEqual({ username: 'This username is already in use.' });
    const wide = await register('ａｄｍｉｎ', '10.20.0.2');
    expect(wide.statusCode).toBe(409);
    for (const name of ['admin\u200b', '\u2060admin', 'ad\u00admin']) {
      const invisible = await register(name, '10.20.0.3');
      expect(invisible.statusCode).toBe(400);
      expect(invisible.json().data.fields.username).toBe('A username cannot hold invisible or control characters.');
    }
    expect((await createUser('ADMIN')).statusCode).toBe(409);
    expect((await createUser('admin\u200d')).statusCode).toBe(400);
    expect({ users: await count('users'), applications: await count('applications') }).toEqual(before);
  });

  it('treats a pending applicant name the same way', async () => {
    expect((await register('Grace', '10.21.0.1')).statusCode).toBe(200);
    expect((await register('grace', '10.21.0.2')).statusCode).toBe(409);
    expect((await createUser('GRACE')).statusCode).toBe(409);
  });

  it('accepts only a few of 30 registrations sent at once from one network', async () => {
    const before = await count('applications');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => register(`burst${i}`, i % 2 ? '2001:db8:1:2::10' : `2001:db8:1:2:${i}::1`)),
    );
    const accepted = answers.filter((r) => r.statusCode === 200).length;
    expect(accepted).toBeLessThanOrEqual(5);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused.length).toBe(30 - accepted);
    expect(refused[0]?.json().data.error).toBe('rate-limited');
    expect(Number(refused[0]?.headers['retry-after'])).toBeGreaterThan(0);
    expect(await count('applications')).toBe(before + accepted);
    // Another network is not held back.
    expect((await register('elsewhere', '10.22.0.1')).statusCode).toBe(200);
  });

  it('groups IPv6 addresses by their /64', () => {
    expect(networkOf('2001:db8:1:2::10')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:0db8:0001:0002:ffff:0:0:1')).toBe('2001:db8:1:2::/64');
    expect(networkOf('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(networkOf('10.0.0.1')).toBe('10.0.0.1');
  });

  it('kills older unused reset links when a newer one is issued or used', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: t.admin.headers,
      payload: { username: 'heidi', email: 'heidi@example.test', role: 'client', password: 'heidi-password' },
    });
    const id = created.json().data.id;
    const issue = async () =>
      (await t.app.inject({ method: 'POST', url: `/api/users/${id}/resetLink`, headers: t.admin.headers })).json().data
        .token as string;
    const reset = (token: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/api/resetPassword', payload: { token, password } });
    const first = await issue();
    const second = await issue();
    expect((await reset(first, 'heidi-first-pw')).statusCode).toBe(400);
    const third = await issue();
    expect((await reset(third, 'heidi-third-pw')).statusCode).toBe(200);
    expect((await reset(second, 'heidi-second-pw')).statusCode).toBe(400);
    expect((await signIn(t.app, 'heidi', 'heidi-third-pw')).accessToken).toBeTruthy();
  });
});
