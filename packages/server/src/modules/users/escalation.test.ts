import { beforeAll, describe, expect, it } from 'vitest';
import { signIn, useAdminApp } from '../../../test/support/build-test-app.ts';

/** Issue 32, finding 3: nobody grants a role or abilities beyond their own, nor changes their own role. */
describe('no escalation of rights', () => {
  const t = useAdminApp();
  const ids: Record<string, string> = {};
  let userAdmin: Awaited<ReturnType<typeof signIn>>;
  let roleAdmin: Awaited<ReturnType<typeof signIn>>;

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, headers: object, payload?: object) =>
    t.app.inject({ method, url, headers: headers as Record<string, string>, ...(payload ? { payload } : {}) });
  const userRow = async (username: string) =>
    (await call('GET', `/api/users?q=${username}`, t.admin.headers))
      .json()
      .data.items.find((u: { username: string }) => u.username === username);
  const roleRow = async (name: string) =>
    (await call('GET', '/api/roles', t.admin.headers)).json().data.find((r: { name: string }) => r.name === name);

  beforeAll(async () => {
    // Both roles hold what a client does, so a client's account is within their rights.
    const basics = [
      { action: 'read', resource: 'ACL' },
      { action: 'read', resource: 'Auth' },
    ];
    const roles = {
      'user-admin': {
        ability: [
          { action: 'read', resource: 'User' },
          { action: 'update', resource: 'User' },
          { action: 'create', resource: 'User' },
          { action: 'read', resource: 'Report' },
          ...basics,
        ],
        resourceNums: { User: 1, Report: 1, ACL: 1, Auth: 1 },
      },
      'role-admin': {
        ability: [
          { action: 'read', resource: 'Role' },
          { action: 'create', resource: 'Role' },
          { action: 'update', resource: 'Role' },
          { action: 'read', resource: 'Apply' },
          { action: 'update', resource: 'Apply' },
          ...basics,
        ],
        resourceNums: { Role: 1, Apply: 1, ACL: 1, Auth: 1 },
      },
    };
    for (const [name, rights] of Object.entries(roles)) {
      expect((await call('POST', '/api/roles', t.admin.headers, { name, ...rights })).statusCode).toBe(200);
    }
    for (const [username, role] of [
      ['ua', 'user-admin'],
      ['ra', 'role-admin'],
      ['cl', 'client'],
    ] as const) {
      const res = await call('POST', '/api/users', t.admin.headers, {
        username,
        email: `${username}@example.test`,
        role,
        password: `${username}-password`,
      });
      expect(res.statusCode).toBe(200);
      ids[username] = res.json().data.id;
    }
    ids.admin = (await userRow('admin')).id;
    userAdmin = await signIn(t.app, 'ua', 'ua-password');
    roleAdmin = await signIn(t.app, 'ra', 'ra-password');
  });

  it('refuses a PATCH of the own role, to admin or any other', async () => {
    for (const role of ['admin', 'client']) {
      const res = await call('PATCH', `/api/users/${ids.ua}`, userAdmin.headers, { role });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 403, data: { error: 'forbidden' } });
    }
    expect((await userRow('ua')).role).toBe('user-admin');
    const me = (await call('GET', '/api/me', userAdmin.headers)).json().data.userData;
    expect(me.role).toBe('user-admin');
  });

  it('refuses giving another user, new or existing, a role or user type beyond the own', async () => {
    const promote = await call('PATCH', `/api/users/${ids.cl}`, userAdmin.headers, { role: 'admin' });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().message).toContain('admin');
    const types = await call('PATCH', `/api/users/${ids.cl}`, userAdmin.headers, { usertypes: [1] });
    expect(types.statusCode).toBe(403);
    const created = await call('POST', '/api/users', userAdmin.headers, {
      username: 'sneaky',
      email: 'sneaky@example.test',
      role: 'admin',
      password: 'sneaky-password',
    });
    expect(created.statusCode).toBe(403);
    expect(await userRow('sneaky')).toBeUndefined();
    expect(await userRow('cl')).toMatchObject({ role: 'client', usertypes: [] });
    // Within the own rights it still works.
    const fine = await call('PATCH', `/api/users/${ids.cl}`, userAdmin.headers, { displayName: 'Client' });
    expect(fine.statusCode).toBe(200);
  });

  it('refuses reset links and changes for an account with more rights than the caller', async () => {
    const link = await call('POST', `/api/users/${ids.admin}/resetLink`, userAdmin.headers);
    expect(link.statusCode).toBe(403);
    expect(link.json().data.error).toBe('forbidden');
    const disable = await call('PATCH', `/api/users/${ids.admin}`, userAdmin.headers, { enabled: false });
    expect(disable.statusCode).toBe(403);
    expect((await userRow('admin')).enabled).toBe(true);
    const lesser = await call('POST', `/api/users/${ids.cl}/resetLink`, userAdmin.headers);
    expect(lesser.statusCode).toBe(200);
    const refused = (await call('GET', '/api/auditLogs?entity=user', t.admin.headers)).json().data.items;
    expect(
      refused.some((e: { action: string; entityId: string }) => e.action === 'reset-link' && e.entityId === ids.admin),
    ).toBe(false);
  });

  it('refuses roles with abilities beyond the own, created or edited', async () => {
    const create = await call('POST', '/api/roles', roleAdmin.headers, {
      name: 'super',
      ability: [{ action: 'manage', resource: 'all' }],
      resourceNums: { all: 1 },
    });
    expect(create.statusCode).toBe(403);
    expect(await roleRow('super')).toBeUndefined();
    const userAdminRole = await roleRow('user-admin');
    const widen = await call('PATCH', `/api/roles/${userAdminRole.id}`, roleAdmin.headers, {
      name: 'user-admin',
      ability: [...userAdminRole.ability, { action: 'read', resource: 'Role' }],
      resourceNums: { ...userAdminRole.resourceNums, Role: 1 },
    });
    expect(widen.statusCode).toBe(403);
    const own = await roleRow('role-admin');
    const self = await call('PATCH', `/api/roles/${own.id}`, roleAdmin.headers, {
      name: 'role-admin',
      ability: [...own.ability, { action: 'manage', resource: 'User' }],
      resourceNums: { ...own.resourceNums, User: 1 },
    });
    expect(self.statusCode).toBe(403);
    expect((await roleRow('role-admin')).ability).toEqual(own.ability);
    const within = await call('POST', '/api/roles', roleAdmin.headers, {
      name: 'role-reader',
      ability: [{ action: 'read', resource: 'Role' }],
      resourceNums: { Role: 1 },
    });
    expect(within.statusCode).toBe(200);
  });

  it('refuses approving an access request with a role beyond the own', async () => {
    const apply = await t.app.inject({
      method: 'POST',
      url: '/api/jwt/register',
      payload: { username: 'applicant', email: 'applicant@example.test' },
    });
    expect(apply.statusCode).toBe(200);
    const pending = (await call('GET', '/api/applications?status=pending', roleAdmin.headers)).json().data.items;
    const request = pending.find((a: { username: string }) => a.username === 'applicant');
    const approve = await call('POST', `/api/applications/${request.id}/approve`, roleAdmin.headers, {
      role: 'admin',
    });
    expect(approve.statusCode).toBe(403);
    expect(await userRow('applicant')).toBeUndefined();
  });
});
