import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAccess } from '../src/plugins/access.ts';
import { buildTestApp } from './support/build-test-app.ts';

// Issue 7: /api/docs lists every route with its schemas and the permission it requires.
describe('/api/docs', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    t = await buildTestApp();
  }, 120_000);
  afterAll(async () => t?.close());

  it('documents every API route, each with its required permission', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<string, Record<string, { description?: string; responses?: object }>>;
    const routes = t.app.accessTable.filter((r) => r.method !== 'HEAD' && !r.url.startsWith('/api/docs'));
    expect(routes.length).toBeGreaterThan(60);
    for (const route of routes) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const operation = paths[path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.url}`).toBeDefined();
      expect(operation?.description, `${route.method} ${route.url}`).toContain(describeAccess(route.access));
    }
  });

  it('shows the report routes with their request and answer schemas', async () => {
    const paths = (await t.app.inject({ url: '/api/docs/json' })).json().paths;
    expect(paths['/api/searchReports'].post.requestBody).toBeDefined();
    expect(paths['/api/searchReports'].post.responses['200']).toBeDefined();
    expect(paths['/api/getReportDetails'].get.parameters.map((p: { name: string }) => p.name)).toContain('classId');
  });
});
