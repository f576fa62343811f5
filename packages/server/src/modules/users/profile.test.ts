import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, buildTestApp, signIn } from '../../../test/support/build-test-app.ts';

describe('own profile, password and about', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Awaited<ReturnType<typeof signIn>>;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signIn(t.app, 'admin', ADMIN_PASSWORD);
    await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin.headers,
      payload: { username: 'dora', email: 'dora@example.test', role: 'developer', password: 'dora-password' },
    });
  }, 60_000);
  afterAll(async () => t?.close());

  it('saves display name, email and preferences, shown by /api/me', async () => {
    const dora = await signIn(t.app, 'dora', 'dora-password');
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/me/profile',
      headers: dora.headers,
      payload: { displayName: 'Dora <b>Q</b>', preferences: { layout: 'horizontal', skin: 'dark' } },
    });
    expect(res.statusCode).toBe(200);
    const me = (await t.app.inject({ url: '/api/me', headers: dora.headers })).json().data.profile;
    expect(me).toMatchObject({ displayName: 'Dora <b>Q</b>', preferences: { layout: 'horizontal', skin: 'dark' } });
  });

  it('refuses an email another account uses, and unknown fields, changing nothing', async () => {
    const dora = await signIn(t.app, 'dora', 'dora-password');
    const taken = await t.app.inject({
      method: 'PATCH',
      url: '/api/me/profile',
      headers: dora.headers,
      payload: { email: 'ADMIN@sextant.local' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().data.fields.email).toBe('This email is already in use.');
    const sneaky = await t.app.inject({
      method: 'PATCH',
      url: '/api/me/profile',
      headers: dora.headers,
      payload: { role: 'admin' },
    });
    expect(sneaky.statusCode).toBe(400);
    const me = (await t.app.inject({ url: '/api/me', headers: dora.headers })).json().data;
    expect(me.profile.email).toBe('dora@example.test');
    expect(me.userData.role).toBe('developer');
  });

  it('changes the password only with the current one', async () => {
    const dora = await signIn(t.app, 'dora', 'dora-password');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/me/password',
      headers: dora.headers,
      payload: { currentPassword: 'guess', newPassword: 'new-dora-password' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().data.fields.currentPassword).toBeDefined();
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/me/password',
      headers: dora.headers,
      payload: { currentPassword: 'dora-password', newPassword: 'new-dora-password' },
    });
    expect(right.statusCode).toBe(200);
    const login = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'dora', password } });
    expect((await login('dora-password')).statusCode).toBe(400);
    expect((await login('new-dora-password')).statusCode).toBe(200);
  });

  it('refuses settings whose grades or thresholds contradict each other', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: admin.headers,
      payload: { passingGrade: 0.9, excellentGrade: 0.7 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields.passingGrade).toBeDefined();
    const settings = (await t.app.inject({ url: '/api/settings', headers: admin.headers })).json().data;
    expect(settings.passingGrade).toBe(0.6);
  });

  it('tells what is running', async () => {
    const about = (await t.app.inject({ url: '/api/about', headers: admin.headers })).json().data;
    expect(about).toMatchObject({ edition: 'advanced', docs: '/api/docs' });
    expect(['embedded', 'postgresql']).toContain(about.database);
  });
});
