import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, buildTestApp, signIn } from './support/build-test-app.ts';

/** Table-driven over every registered /api route: who gets 401, who 403, who passes the gate. */
describe('every route declares and enforces its permission', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Awaited<ReturnType<typeof signIn>>;
  let client: Awaited<ReturnType<typeof signIn>>;
  beforeAll(async () => {
    t = await buildTestApp({
      modules: [
        (app) =>
          app.get('/api/probe/trace', { config: { access: { action: 'read', resource: 'Trace' } } }, async () => ({
            code: 200,
            message: 'OK',
            data: null,
          })),
        (app) =>
          app.get(
            '/api/probe/requirement',
            { config: { access: { action: 'read', resource: 'Requirement' } } },
            async () => ({
              code: 200,
              message: 'OK',
              data: null,
            }),
          ),
      ],
    });
    admin = await signIn(t.app, 'admin', ADMIN_PASSWORD);
    await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin.headers,
      payload: { username: 'cli', email: 'cli@example.com', role: 'client', password: 'client-password' },
    });
    client = await signIn(t.app, 'cli', 'client-password');
  }, 60_000);
  afterAll(async () => t?.close());

  const apiRoutes = () =>
    t.app.accessTable.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'HEAD');
  const call = (r: { method: string; url: string }, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: r.method as 'GET',
      url: r.url.replace(':id', '00000000-0000-4000-8000-000000000000'),
      headers,
      payload: r.method === 'GET' ? undefined : {},
    });

  it('refuses to start when a route declares no access rule', async () => {
    await expect(buildTestApp({ modules: [(app) => app.get('/api/forgotten', async () => 'x')] })).rejects.toThrow(
      /declares no access rule/,
    );
  });

  it('answers 401 without a token on every non-public route', async () => {
    const guarded = apiRoutes().filter((r) => r.access !== 'public');
    expect(guarded.length).toBeGreaterThanOrEqual(8);
    for (const r of guarded) {
      const res = await call(r);
      expect([r.method, r.url, res.statusCode]).toEqual([r.method, r.url, 401]);
      expect(res.json().code).toBe(401);
    }
  });

  it('answers 403 forbidden to a client on every route its role lacks, and lets admin through', async () => {
    let denied = 0;
    for (const r of apiRoutes()) {
      if (r.access === 'public') continue;
      const clientRes = await call(r, client.headers);
      const adminRes = await call(r, admin.headers);
      expect(adminRes.statusCode, `${r.method} ${r.url} as admin`).not.toBe(401);
      expect(adminRes.statusCode, `${r.method} ${r.url} as admin`).not.toBe(403);
      const clientMay =
        r.access === 'signed-in' ||
        (r.access.action === 'read' && (r.access.resource === 'Auth' || r.access.resource === 'ACL'));
      if (clientMay) {
        expect(clientRes.statusCode, `${r.method} ${r.url} as client`).not.toBe(403);
      } else {
        denied++;
        expect(clientRes.json(), `${r.method} ${r.url} as client`).toMatchObject({
          code: 403,
          data: { error: 'forbidden' },
        });
      }
    }
    expect(denied).toBeGreaterThanOrEqual(5);
  });

  it('gates trace resources unless advanced and requirements when lite (edition-forbidden)', async () => {
    const get = (url: string) => t.app.inject({ url, headers: admin.headers });
    const edition = (licenseVersion: string) =>
      t.app.inject({ method: 'PATCH', url: '/api/settings', headers: admin.headers, payload: { licenseVersion } });
    expect((await get('/api/probe/trace')).statusCode).toBe(200);
    await edition('basic');
    expect((await get('/api/probe/trace')).json()).toMatchObject({ code: 403, data: { error: 'edition-forbidden' } });
    expect((await get('/api/probe/requirement')).statusCode).toBe(200);
    await edition('lite');
    expect((await get('/api/probe/requirement')).json()).toMatchObject({
      code: 403,
      data: { error: 'edition-forbidden' },
    });
    await edition('advanced');
    expect((await get('/api/probe/trace')).statusCode).toBe(200);
  });
});
