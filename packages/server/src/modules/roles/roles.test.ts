import { describe, expect, it } from 'vitest';
import { signIn, useAdminApp } from '../../../test/support/build-test-app.ts';

describe('roles and user administration', () => {
  const t = useAdminApp();

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers = t.admin.headers,
  ) => t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  const roleNamed = async (name: string) =>
    (await call('GET', '/api/roles')).json().data.find((r: { name: string }) => r.name === name);

  it('creates a read-only role whose holder may read users but not create them', async () => {
    const created = await call('POST', '/api/roles', {
      name: 'auditor',
      ability: [{ action: 'read', resource: 'User' }],
      resourceNums: { User: 1 },
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().data).toMatchObject({ name: 'auditor', builtin: false, users: 0 });
    expect(
      (
        await call('POST', '/api/users', {
          username: 'aud',
          email: 'aud@example.test',
          role: 'auditor',
          password: 'auditor-pass',
        })
      ).statusCode,
    ).toBe(200);
    const auditor = await signIn(t.app, 'aud', 'auditor-pass');
    expect((await call('GET', '/api/users', undefined, auditor.headers)).statusCode).toBe(200);
    const denied = await call(
      'POST',
      '/api/users',
      { username: 'x', email: 'x@example.test', role: 'client' },
      auditor.headers,
    );
    expect(denied.statusCode).toBe(403);
    expect((await roleNamed('auditor')).users).toBe(1);
  });

  it('refuses duplicate names, renaming built-ins, narrowing admin, and deleting held or built-in roles', async () => {
    const dup = await call('POST', '/api/roles', { name: 'client', ability: [], resourceNums: {} });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().data.fields.name).toBe('A role with this name exists.');
    const client = await roleNamed('client');
    expect(
      (await call('PATCH', `/api/roles/${client.id}`, { name: 'guest', ability: [], resourceNums: {} })).statusCode,
    ).toBe(400);
    const adminRole = await roleNamed('admin');
    expect(
      (await call('PATCH', `/api/roles/${adminRole.id}`, { name: 'admin', ability: [], resourceNums: {} })).statusCode,
    ).toBe(400);
    expect((await call('DELETE', `/api/roles/${client.id}`)).statusCode).toBe(409);
    const auditor = await roleNamed('auditor');
    const held = await call('DELETE', `/api/roles/${auditor.id}`);
    expect(held.statusCode).toBe(409);
    expect(held.json().message).toContain('1 user(s) hold this role');
    const script = await call('POST', '/api/roles', { name: '<script>', ability: [], resourceNums: {} });
    expect(script.statusCode).toBe(400);
    expect(await roleNamed('<script>')).toBeUndefined();
  });

  it('applies a role change to the next request, and disabling ends the sessions', async () => {
    await call('POST', '/api/users', {
      username: 'eve',
      email: 'eve@example.test',
      role: 'client',
      password: 'eve-password',
    });
    const eve = await signIn(t.app, 'eve', 'eve-password');
    expect((await call('GET', '/api/users', undefined, eve.headers)).statusCode).toBe(403);
    const row = (await call('GET', '/api/users?q=eve')).json().data.items[0];
    const promoted = await call('PATCH', `/api/users/${row.id}`, { role: 'auditor', usertypes: [2] });
    expect(promoted.json().data).toMatchObject({ role: 'auditor', usertypes: [2] });
    expect((await call('GET', '/api/users', undefined, eve.headers)).statusCode).toBe(200);
    expect((await call('PATCH', `/api/users/${row.id}`, { enabled: false })).statusCode).toBe(200);
    expect((await call('GET', '/api/users', undefined, eve.headers)).statusCode).toBe(401);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/refreshToken',
      payload: { refreshToken: eve.refreshToken },
    });
    expect(refreshed.json().code).not.toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'eve', password: 'eve-password' },
    });
    expect(login.statusCode).toBe(403);
  });

  it('will not let an admin disable themself', async () => {
    const me = (await call('GET', '/api/users?q=admin'))
      .json()
      .data.items.find((u: { username: string }) => u.username === 'admin');
    expect((await call('PATCH', `/api/users/${me.id}`, { enabled: false })).statusCode).toBe(400);
  });

  it('searches and sorts the user list on the server', async () => {
    const asc = (await call('GET', '/api/users?sortBy=username&sortDesc=false'))
      .json()
      .data.items.map((u: { username: string }) => u.username);
    const desc = (await call('GET', '/api/users?sortBy=username&sortDesc=true'))
      .json()
      .data.items.map((u: { username: string }) => u.username);
    expect(asc).toEqual([...asc].sort());
    expect(desc).toEqual([...asc].reverse());
    expect((await call('GET', '/api/users?q=%25')).json().data.total).toBe(0);
  });

  it('records role and user changes in the audit log with who made them', async () => {
    const roleLog = (await call('GET', '/api/auditLogs?entity=role')).json().data.items;
    expect(
      roleLog.some((e: { action: string; actorName: string }) => e.action === 'create' && e.actorName === 'admin'),
    ).toBe(true);
    const userLog = (await call('GET', '/api/auditLogs?entity=user')).json().data.items;
    const disabled = userLog.find((e: { changes: Record<string, unknown> }) => 'enabled' in e.changes);
    expect(disabled.changes.enabled).toEqual({ from: true, to: false });
    const created = userLog.find((e: { action: string }) => e.action === 'create');
    expect(JSON.stringify(created.changes)).not.toContain('password');
  });
});
