import { beforeAll, describe, expect, it } from 'vitest';
import { LONG_NAME, SCRIPT, useAdminApi } from './support.ts';

type Project = {
  id: string;
  name: string;
  teamName: string;
  owner: { username: string } | null;
  apps: { id: string; name: string }[];
  startDate: string | null;
  endDate: string | null;
  status: string;
};

describe('projects', () => {
  const t = useAdminApi();
  let teamId = '';
  let api = '';
  let web = '';
  let ownerId = '';
  beforeAll(async () => {
    teamId = (await t.ok<{ id: string }>('POST', '/api/teams', { name: 'Delivery' })).id;
    const app = (name: string) =>
      t.ok<{ id: string }>('POST', '/api/apps', { teamId, name, language: 'go', repoUrl: `/srv/git/${name}` });
    api = (await app('api')).id;
    web = (await app('web')).id;
    ownerId = (await t.createUser('pm')).id;
  });

  it('creates a project with apps, owner and dates, updates and deletes it, auditing each change', async () => {
    const created = await t.ok<Project>('POST', '/api/projects', {
      name: 'Spring release',
      teamId,
      ownerId,
      appIds: [web, api],
      startDate: '2026-03-01',
      endDate: '2026-05-31',
    });
    expect(created).toMatchObject({
      teamName: 'Delivery',
      owner: { username: 'pm' },
      startDate: '2026-03-01',
      endDate: '2026-05-31',
      status: 'planned',
    });
    expect(created.apps.map((a) => a.name)).toEqual(['api', 'web']);
    const updated = await t.ok<Project>('PATCH', `/api/projects/${created.id}`, { appIds: [api], status: 'active' });
    expect(updated.apps.map((a) => a.name)).toEqual(['api']);
    expect(updated.status).toBe('active');
    const backwards = await t.call('PATCH', `/api/projects/${created.id}`, { endDate: '2026-01-01' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().data.fields).toEqual({ endDate: 'The end date is before the start date.' });
    expect((await t.call('DELETE', `/api/apps/${api}`)).json()).toMatchObject({
      code: 409,
      message: 'This app is still used by projects; remove or reassign those first.',
    });
    await t.ok('DELETE', `/api/projects/${created.id}`);
    const audit = await t.auditOf('project', created.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
    expect(audit[1]?.changes).toEqual({
      status: { from: 'planned', to: 'active' },
      appIds: { from: [api, web].sort(), to: [api] },
    });
  });

  it('validates names, dates, references and uniqueness', async () => {
    const fields = async (payload: object) =>
      (await t.call('POST', '/api/projects', { name: 'P', teamId, ...payload })).json().data.fields;
    expect(await fields({ name: '' })).toHaveProperty('name');
    expect(await fields({ name: LONG_NAME })).toHaveProperty('name');
    expect(await fields({ startDate: '2026-02-30' })).toHaveProperty('startDate');
    expect(await fields({ startDate: '2026-05-01', endDate: '2026-04-01' })).toHaveProperty('endDate');
    expect(await fields({ appIds: ['00000000-0000-4000-8000-000000000000'] })).toEqual({ appIds: 'No such app.' });
    expect(await fields({ teamId: '00000000-0000-4000-8000-000000000000' })).toEqual({ teamId: 'No such team.' });
    await t.ok('POST', '/api/projects', { name: SCRIPT, teamId });
    const dup = await t.call('POST', '/api/projects', { name: SCRIPT, teamId });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().data.fields).toEqual({ name: 'A project with this name exists.' });
    expect((await t.ok<{ items: Project[] }>('GET', '/api/projects?q=script')).items[0]?.name).toBe(SCRIPT);
  });

  it('lists by app, team and status with whitelisted sorting; denies a client', async () => {
    await t.ok('POST', '/api/projects', { name: 'Web revamp', teamId, appIds: [web], status: 'active' });
    const byApp = await t.ok<{ items: Project[]; total: number }>('GET', `/api/projects?appId=${web}`);
    expect(byApp.items.map((p) => p.name)).toEqual(['Web revamp']);
    const active = await t.ok<{ total: number }>('GET', `/api/projects?teamId=${teamId}&status=active`);
    expect(active.total).toBe(1);
    expect((await t.call('GET', '/api/projects?sortBy=teamId')).statusCode).toBe(400);
    expect((await t.call('GET', '/api/projects', undefined, t.client)).statusCode).toBe(403);
    expect((await t.call('POST', '/api/projects', { name: 'x', teamId }, t.client)).statusCode).toBe(403);
  });
});
