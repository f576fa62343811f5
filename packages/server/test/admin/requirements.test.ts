import { requirementKeysIn } from '@sextant/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { LONG_NAME, SCRIPT, useAdminApi } from './support.ts';

type Requirement = {
  id: string;
  key: string;
  title: string;
  projectName: string;
  versionName: string | null;
  owner: { username: string } | null;
  status: string;
};

describe('requirements', () => {
  const t = useAdminApi();
  let projectId = '';
  let otherProjectId = '';
  let versionId = '';
  let otherVersionId = '';
  let ownerId = '';
  beforeAll(async () => {
    const teamId = (await t.ok<{ id: string }>('POST', '/api/teams', { name: 'Core' })).id;
    const appId = (
      await t.ok<{ id: string }>('POST', '/api/apps', { teamId, name: 'core', language: 'java', repoUrl: '/srv/core' })
    ).id;
    const project = (name: string) => t.ok<{ id: string }>('POST', '/api/projects', { name, teamId, appIds: [appId] });
    projectId = (await project('Billing')).id;
    otherProjectId = (await project('Ledger')).id;
    const version = (pid: string) =>
      t.ok<{ id: string }>('POST', '/api/versions', {
        projectId: pid,
        appId,
        name: '2.0',
        newRef: 'v2',
        baseRef: 'v1',
      });
    versionId = (await version(projectId)).id;
    otherVersionId = (await version(otherProjectId)).id;
    ownerId = (await t.createUser('analyst')).id;
  });

  it('creates a requirement, updates and deletes it, auditing each change', async () => {
    const created = await t.ok<Requirement>('POST', '/api/requirements', {
      key: 'REQ-123',
      title: 'Refunds over 1000 need a second approval',
      projectId,
      versionId,
      ownerId,
    });
    expect(created).toMatchObject({
      key: 'REQ-123',
      projectName: 'Billing',
      versionName: '2.0',
      owner: { username: 'analyst' },
      status: 'open',
    });
    const updated = await t.ok<Requirement>('PATCH', `/api/requirements/${created.id}`, {
      status: 'in-progress',
      versionId: null,
    });
    expect(updated).toMatchObject({ status: 'in-progress', versionName: null });
    await t.ok('DELETE', `/api/requirements/${created.id}`);
    const audit = await t.auditOf('requirement', created.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
    expect(audit[1]?.changes).toEqual({
      status: { from: 'open', to: 'in-progress' },
      versionId: { from: versionId, to: null },
    });
  });

  it('validates keys, titles, uniqueness and that the version belongs to the project', async () => {
    const fields = async (payload: object) =>
      (await t.call('POST', '/api/requirements', { key: 'REQ-1', title: 'T', projectId, ...payload })).json().data
        .fields;
    for (const key of ['', 'REQ', 'REQ 1', '-1', '<b>-1']) expect(await fields({ key })).toHaveProperty('key');
    expect(await fields({ title: '' })).toHaveProperty('title');
    expect(await fields({ title: LONG_NAME })).toHaveProperty('title');
    expect(await fields({ versionId: otherVersionId })).toEqual({
      versionId: 'This version is not part of the project.',
    });
    await t.ok('POST', '/api/requirements', { key: '40213', title: SCRIPT, projectId });
    const dup = await t.call('POST', '/api/requirements', { key: '40213', title: 'again', projectId: otherProjectId });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().data.fields).toEqual({ key: 'A requirement with this key exists.' });
    const listed = await t.ok<{ items: Requirement[] }>('GET', '/api/requirements?q=40213');
    expect(listed.items[0]?.title).toBe(SCRIPT);
  });

  it('links a commit to a requirement when its message contains the key as a whole word', () => {
    const keys = ['REQ-12', 'REQ-123', '40213'];
    expect(requirementKeysIn('REQ-123: second approval for refunds', keys)).toEqual(['REQ-123']);
    expect(requirementKeysIn('fix(req-12) and story #40213', keys)).toEqual(['REQ-12', '40213']);
    expect(requirementKeysIn('XREQ-12 and 402130', keys)).toEqual([]);
  });

  it('is hidden when the edition is lite, and denied to a client', async () => {
    expect((await t.call('GET', '/api/requirements', undefined, t.client)).statusCode).toBe(403);
    await t.ok('PATCH', '/api/settings', { licenseVersion: 'lite' });
    try {
      for (const [method, url] of [
        ['GET', '/api/requirements'],
        ['POST', '/api/requirements'],
      ] as const) {
        const res = await t.call(method, url, method === 'POST' ? { key: 'REQ-9', title: 'x', projectId } : undefined);
        expect(res.json()).toMatchObject({ code: 403, data: { error: 'edition-forbidden' } });
      }
      expect((await t.ok<{ total: number }>('GET', '/api/teams')).total).toBeGreaterThan(0);
    } finally {
      await t.ok('PATCH', '/api/settings', { licenseVersion: 'advanced' });
    }
    expect((await t.call('GET', '/api/requirements')).statusCode).toBe(200);
  });
});
