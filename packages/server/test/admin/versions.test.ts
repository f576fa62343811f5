import { beforeAll, describe, expect, it } from 'vitest';
import { LONG_NAME, SCRIPT, useAdminApi } from './support.ts';

type Version = { id: string; name: string; projectName: string; appName: string; newRef: string; baseRef: string };

describe('versions', () => {
  const t = useAdminApi();
  let teamId = '';
  let appId = '';
  let otherAppId = '';
  let projectId = '';
  const base = () => ({ projectId, appId, name: '1.4.0', newRef: 'release/1.4', baseRef: 'v1.3.0' });
  beforeAll(async () => {
    teamId = (await t.ok<{ id: string }>('POST', '/api/teams', { name: 'Mobile' })).id;
    const app = (name: string) =>
      t.ok<{ id: string }>('POST', '/api/apps', { teamId, name, language: 'kotlin', repoUrl: `/srv/git/${name}` });
    appId = (await app('android')).id;
    otherAppId = (await app('ios')).id;
    projectId = (await t.ok<{ id: string }>('POST', '/api/projects', { name: 'Q2', teamId, appIds: [appId] })).id;
  });

  it('creates a version of a project’s app, updates and deletes it, auditing each change', async () => {
    const created = await t.ok<Version>('POST', '/api/versions', { ...base(), plannedRelease: '2026-06-30' });
    expect(created).toMatchObject({ projectName: 'Q2', appName: 'android', status: 'planned' });
    const updated = await t.ok<Version>('PATCH', `/api/versions/${created.id}`, {
      newRef: 'a1b2c3d4e5f6',
      status: 'testing',
    });
    expect(updated).toMatchObject({ newRef: 'a1b2c3d4e5f6', baseRef: 'v1.3.0', status: 'testing' });
    expect((await t.call('DELETE', `/api/projects/${projectId}`)).json().message).toBe(
      'This project is still used by versions; remove or reassign those first.',
    );
    await t.ok('DELETE', `/api/versions/${created.id}`);
    const audit = await t.auditOf('version', created.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
    expect(audit[1]?.changes).toEqual({
      newRef: { from: 'release/1.4', to: 'a1b2c3d4e5f6' },
      status: { from: 'planned', to: 'testing' },
    });
  });

  it('refuses refs git would read as options or ranges, and apps outside the project', async () => {
    const fields = async (payload: object) =>
      (await t.call('POST', '/api/versions', { ...base(), name: 'bad', ...payload })).json().data.fields;
    for (const ref of ['--output=/tmp/x', '-b', 'main..dev', 'a b', 'HEAD~1', 'x^{tree}', 'a:b', 'refs/heads/', '']) {
      expect([ref, await fields({ newRef: ref })]).toEqual([ref, { newRef: expect.any(String) }]);
    }
    expect(await fields({ baseRef: 'release/1.4' })).toEqual({ baseRef: 'The base ref must differ from the new ref.' });
    expect(await fields({ appId: otherAppId })).toEqual({ appId: 'This app is not part of the project.' });
    expect(await fields({ projectId: '00000000-0000-4000-8000-000000000000' })).toEqual({
      projectId: 'No such project.',
    });
    expect(await fields({ name: LONG_NAME })).toHaveProperty('name');
    expect(await fields({ name: '' })).toHaveProperty('name');
    await t.ok('POST', '/api/versions', base());
    const dup = await t.call('POST', '/api/versions', base());
    expect(dup.statusCode).toBe(409);
    expect(dup.json().data.fields).toHaveProperty('name');
    const scripted = await t.ok<Version>('POST', '/api/versions', { ...base(), name: SCRIPT });
    expect(scripted.name).toBe(SCRIPT);
  });

  it('lists by project and app with search and whitelisted sorting; denies a client', async () => {
    const page = await t.ok<{ items: Version[]; total: number }>(
      'GET',
      `/api/versions?projectId=${projectId}&appId=${appId}&sortBy=name&q=1.4.0`,
    );
    expect(page.items.map((v) => v.name)).toEqual(['1.4.0']);
    expect((await t.ok<{ total: number }>('GET', `/api/versions?appId=${otherAppId}`)).total).toBe(0);
    expect((await t.call('GET', '/api/versions?sortBy=newRef')).statusCode).toBe(400);
    expect((await t.call('GET', '/api/versions', undefined, t.client)).statusCode).toBe(403);
  });
});
