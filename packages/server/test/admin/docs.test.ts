import { describe, expect, it } from 'vitest';
import { useAdminApi } from './support.ts';

describe('administration API documentation', () => {
  const t = useAdminApi();

  it('documents every administration route with its permission', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<string, Record<string, { description?: string }>>;
    expect(paths['/api/cases/import']?.post?.description).toContain('Permission: create Case.');
    expect(paths['/api/apps/{id}/testConnection']?.post?.description).toBe('Permission: update App.');
    for (const path of [
      '/api/teams',
      '/api/apps',
      '/api/projects',
      '/api/versions',
      '/api/requirements',
      '/api/cases',
    ]) {
      expect(Object.keys(paths[path] ?? {}).sort()).toEqual(['get', 'post']);
      expect(Object.keys(paths[`${path}/{id}`] ?? {}).sort()).toEqual(['delete', 'get', 'patch']);
    }
    expect(Object.keys(paths['/api/auditLogs'] ?? {})).toEqual(['get']);
  });
});
