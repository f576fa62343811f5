import { describe, expect, it } from 'vitest';
import { useAdminApi } from './support.ts';

const ADMIN_RESOURCES = ['Team', 'App', 'Branch', 'Project', 'Version', 'Requirement', 'Case', 'AuditLog'] as const;
const PREFIXES = [
  '/api/teams',
  '/api/apps',
  '/api/branches',
  '/api/projects',
  '/api/versions',
  '/api/requirements',
  '/api/cases',
  '/api/auditLogs',
];
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** Every administration route: anonymous 401, client 403, a read-only role reads but cannot change, admin passes. */
describe('administration routes enforce their permissions', () => {
  const t = useAdminApi();

  it('covers every route for anonymous, client, read-only role and admin', async () => {
    await t.ok('POST', '/api/roles', {
      name: 'catalogue-reader',
      ability: ADMIN_RESOURCES.map((resource) => ({ action: 'read', resource })),
      resourceNums: Object.fromEntries(ADMIN_RESOURCES.map((r) => [r, 1])),
    });
    const reader = await t.createUser('reader', 'catalogue-reader');
    const routes = t.app.accessTable.filter(
      (r) => r.method !== 'HEAD' && PREFIXES.some((p) => r.url === p || r.url.startsWith(`${p}/`)),
    );
    expect(routes.length).toBeGreaterThanOrEqual(30);
    const call = (r: { method: string; url: string }, headers: Record<string, string>) =>
      t.call(r.method as 'GET', r.url.replace(':id', MISSING_ID), r.method === 'GET' ? undefined : {}, headers);
    for (const route of routes) {
      const access = route.access;
      if (typeof access === 'string') throw new Error(`${route.method} ${route.url} should need a permission`);
      const label = `${route.method} ${route.url}`;
      expect([label, (await call(route, {})).statusCode]).toEqual([label, 401]);
      expect([label, (await call(route, t.client)).json().data?.error]).toEqual([label, 'forbidden']);
      const asReader = await call(route, reader.headers);
      if (access.action === 'read') expect([label, asReader.statusCode]).not.toEqual([label, 403]);
      else expect([label, asReader.json().data?.error]).toEqual([label, 'forbidden']);
      const asAdmin = (await call(route, t.admin)).statusCode;
      expect([label, asAdmin === 401 || asAdmin === 403]).toEqual([label, false]);
    }
  });
});
