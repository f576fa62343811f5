import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../src/plugins/access.ts';
import { EXPECTED_ROUTE_ACCESS } from './expected-route-access.ts';
import { ADMIN_PASSWORD, buildTestApp, signIn } from './support/build-test-app.ts';

/**
 * Driven by a table written apart from the routes (`expected-route-access.ts`): each route must
 * declare the rule the table gives it, and answer 401, 403 or pass as that rule says.
 */
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

  // The probes are this file's own routes for the edition gates, not the product's.
  const productRoutes = () =>
    t.app.accessTable.filter(
      (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && !r.url.startsWith('/api/probe/'),
    );
  const apiRoutes = () => productRoutes().filter((r) => r.method !== 'HEAD');
  const key = (r: { method: string; url: string }) => `${r.method === 'HEAD' ? 'GET' : r.method} ${r.url}`;
  const expected = (r: { method: string; url: string }): Access => {
    const access = EXPECTED_ROUTE_ACCESS[key(r)];
    if (!access) throw new Error(`${r.method} ${r.url} is missing from expected-route-access.ts`);
    return access;
  };
  // Specification point 6: a client has read on access control and on Auth, nothing else.
  const clientMay = (access: Access) =>
    access === 'public' ||
    access === 'signed-in' ||
    (access.action === 'read' && (access.resource === 'Auth' || access.resource === 'ACL'));
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

  it('lists every route in the expected table, and the table no route that is gone', () => {
    const registered = new Set(productRoutes().map(key));
    const missing = [...registered].filter((k) => !(k in EXPECTED_ROUTE_ACCESS));
    const gone = Object.keys(EXPECTED_ROUTE_ACCESS).filter((k) => !registered.has(k));
    expect({ missing, gone }).toEqual({ missing: [], gone: [] });
  });

  it('has every route declare the rule the expected table gives it', () => {
    const wrong = productRoutes()
      .filter((r) => JSON.stringify(r.access) !== JSON.stringify(expected(r)))
      .map((r) => ({ route: `${r.method} ${r.url}`, declared: r.access, expected: expected(r) }));
    expect(wrong).toEqual([]);
  });

  it('answers 401 without a token on every route the table does not open', async () => {
    const guarded = apiRoutes().filter((r) => expected(r) !== 'public');
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
      if (expected(r) === 'public') continue;
      const clientRes = await call(r, client.headers);
      const adminRes = await call(r, admin.headers);
      expect(adminRes.statusCode, `${r.method} ${r.url} as admin`).not.toBe(401);
      expect(adminRes.statusCode, `${r.method} ${r.url} as admin`).not.toBe(403);
      if (clientMay(expected(r))) {
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
