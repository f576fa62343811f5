import { beforeAll, describe, expect, it } from 'vitest';
import { LONG_NAME, SCRIPT, useAdminApi } from './support.ts';

type Case = {
  id: string;
  key: string;
  title: string;
  appName: string;
  requirementKey: string | null;
  type: string;
  tags: string[];
  owner: { username: string } | null;
};
type Page = { items: Case[]; total: number };

describe('test cases', () => {
  const t = useAdminApi();
  let appId = '';
  let otherAppId = '';
  let requirementId = '';
  const importCsv = (csv: string, target = appId, headers = t.admin) =>
    t.app.inject({
      method: 'POST',
      url: `/api/cases/import?appId=${target}`,
      headers: { ...headers, 'content-type': 'text/csv' },
      payload: csv,
    });
  beforeAll(async () => {
    const teamId = (await t.ok<{ id: string }>('POST', '/api/teams', { name: 'QA' })).id;
    const app = (name: string) =>
      t.ok<{ id: string }>('POST', '/api/apps', { teamId, name, language: 'python', repoUrl: `/srv/${name}` });
    appId = (await app('shop')).id;
    otherAppId = (await app('admin')).id;
    const projectId = (await t.ok<{ id: string }>('POST', '/api/projects', { name: 'P', teamId })).id;
    requirementId = (
      await t.ok<{ id: string }>('POST', '/api/requirements', { key: 'REQ-7', title: 'Refunds', projectId })
    ).id;
    await t.createUser('tess');
  });

  it('creates a case, updates and deletes it, auditing each change; a referenced requirement cannot go', async () => {
    const created = await t.ok<Case>('POST', '/api/cases', {
      key: 'TC-1',
      title: 'Refund a paid order',
      appId,
      requirementId,
      type: 'automated',
      tags: ['smoke', 'refund', 'smoke'],
    });
    expect(created).toMatchObject({ appName: 'shop', requirementKey: 'REQ-7', tags: ['smoke', 'refund'] });
    expect((await t.call('DELETE', `/api/requirements/${requirementId}`)).json()).toMatchObject({
      code: 409,
      message: 'This requirement is still used by test cases; remove or reassign those first.',
    });
    const updated = await t.ok<Case>('PATCH', `/api/cases/${created.id}`, { type: 'manual', requirementId: null });
    expect(updated).toMatchObject({ type: 'manual', requirementKey: null });
    await t.ok('DELETE', `/api/cases/${created.id}`);
    expect((await t.auditOf('case', created.id)).map((a) => a.action)).toEqual(['create', 'update', 'delete']);
  });

  it('keeps keys unique per app and validates fields', async () => {
    await t.ok('POST', '/api/cases', { key: 'TC-2', title: SCRIPT, appId });
    const dup = await t.call('POST', '/api/cases', { key: 'TC-2', title: 'again', appId });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().data.fields).toEqual({ key: 'This app already has a case with this key.' });
    expect(
      (await t.call('POST', '/api/cases', { key: 'TC-2', title: 'same key, other app', appId: otherAppId })).statusCode,
    ).toBe(200);
    const fields = async (payload: object) =>
      (await t.call('POST', '/api/cases', { key: 'TC-9', title: 'T', appId, ...payload })).json().data.fields;
    expect(await fields({ title: '' })).toHaveProperty('title');
    expect(await fields({ title: LONG_NAME })).toHaveProperty('title');
    expect(await fields({ key: '<script>' })).toHaveProperty('key');
    expect(await fields({ type: 'exploratory' })).toHaveProperty('type');
    expect(await fields({ tags: ['a;b'] })).toHaveProperty('tags.0');
    expect(
      (await t.ok<Case>('GET', `/api/cases?q=TC-2&appId=${appId}`).then((p) => (p as unknown as Page).items[0]))?.title,
    ).toBe(SCRIPT);
  });

  it('imports a CSV in full, with quoted fields, requirement keys, owners and tags', async () => {
    const csv = [
      'title,key,type,requirement,tags,owner',
      '"Checkout, guest user",CSV-1,automated,REQ-7,smoke;checkout,tess',
      `${SCRIPT},CSV-2,,,,`,
      '"Say ""hi""",CSV-3,manual,,regression,',
    ].join('\r\n');
    const res = await importCsv(csv);
    expect(res.json()).toMatchObject({ code: 200, data: { imported: 3 } });
    const page = await t.ok<Page>('GET', `/api/cases?appId=${appId}&q=CSV-&sortBy=key`);
    expect(
      page.items.map((c) => [c.key, c.title, c.type, c.requirementKey, c.tags, c.owner?.username ?? null]),
    ).toEqual([
      ['CSV-1', 'Checkout, guest user', 'automated', 'REQ-7', ['smoke', 'checkout'], 'tess'],
      ['CSV-2', SCRIPT, 'manual', null, [], null],
      ['CSV-3', 'Say "hi"', 'manual', null, ['regression'], null],
    ]);
    const audit = await t.auditOf('case', page.items[0]?.id ?? '');
    expect(audit.map((a) => a.action)).toEqual(['import']);
    expect((await t.ok<Page>('GET', `/api/cases?appId=${appId}&tag=checkout`)).total).toBe(1);
  });

  it('stores nothing when one row is bad, and reports every bad row with its line and column', async () => {
    const before = (await t.ok<Page>('GET', `/api/cases?appId=${appId}`)).total;
    const csv = [
      'key,title,type,requirement,owner',
      'NEW-1,Fine row,manual,REQ-7,tess',
      'NEW-2,,automated,,',
      'NEW-3,Unknown refs,manual,REQ-404,nobody',
      'CSV-1,Key already used,manual,,',
      'NEW-1,Repeated in file,exploratory,,',
      'NEW-5,too,many,cells,,,',
      'NEW-6,"Two\nlines",manual,,',
    ].join('\n');
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.message).toBe('6 row(s) have errors; nothing was imported.');
    expect(body.data.rows).toEqual([
      { row: 3, column: 'title', message: 'Please enter a value.' },
      { row: 4, column: 'requirement', message: 'No requirement REQ-404.' },
      { row: 4, column: 'owner', message: 'No user nobody.' },
      { row: 5, column: 'key', message: 'This app already has a case with this key.' },
      { row: 6, column: 'type', message: 'Use manual or automated.' },
      { row: 6, column: 'key', message: 'Key NEW-1 is already used on line 2.' },
      { row: 7, column: null, message: 'Expected 5 cells, found 7.' },
      { row: 8, column: 'title', message: 'Control characters are not allowed.' },
    ]);
    expect(body.data.fields['row 3 title']).toBe('Please enter a value.');
    expect((await t.ok<Page>('GET', `/api/cases?appId=${appId}`)).total).toBe(before);
    expect((await t.ok<Page>('GET', '/api/cases?q=NEW-1')).total).toBe(0);
  });

  it('refuses wrong columns, broken quoting, an empty file and a JSON body; denies a client', async () => {
    const wrong = await importCsv('id,name,colour\n1,x,red\n');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(
      'Wrong columns: unknown column(s) "id", "name", "colour"; missing column(s) key, title. Expected a header with key, title, type, requirement, tags, owner (key and title required).',
    );
    expect((await importCsv('key,title,title\nA-1,x,y\n')).json().message).toContain('repeated column(s) title');
    const broken = await importCsv('key,title\nB-1,"never closed\n');
    expect(broken.json()).toMatchObject({ code: 400, data: { rows: [{ row: 2, column: null }] } });
    expect((await importCsv('key,title\n')).json().message).toBe('No rows to import.');
    expect((await t.call('POST', `/api/cases/import?appId=${appId}`, { csv: 'key,title' })).statusCode).toBe(400);
    expect((await importCsv('key,title\nZ-1,x\n', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await importCsv('key,title\nZ-1,x\n', appId, t.client)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/cases', undefined, t.client)).statusCode).toBe(403);
    expect((await t.ok<Page>('GET', '/api/cases?q=Z-1')).total).toBe(0);
  });
  it('neither shows nor takes a requirement in the lite edition', async () => {
    const linked = await t.ok<Case>('POST', '/api/cases', { key: 'LITE-1', title: 'Linked', appId, requirementId });
    expect(linked.requirementKey).toBe('REQ-7');
    await t.ok('PATCH', '/api/settings', { licenseVersion: 'lite' });
    try {
      expect(await t.ok<Case>('GET', `/api/cases/${linked.id}`)).toMatchObject({
        requirementId: null,
        requirementKey: null,
      });
      const listed = await t.ok<Page>('GET', '/api/cases?q=LITE-1');
      expect(listed.items[0]).toMatchObject({ requirementId: null, requirementKey: null });
      const refused = await t.call('POST', '/api/cases', { key: 'LITE-2', title: 'x', appId, requirementId });
      expect(refused.json()).toMatchObject({
        code: 400,
        data: { fields: { requirementId: 'Requirements are not part of the Lite edition.' } },
      });
      const csv = await importCsv('key,title,requirement\nLITE-3,x,REQ-7\n');
      expect(csv.json().data.rows).toEqual([
        { row: 2, column: 'requirement', message: 'Requirements are not part of the Lite edition.' },
      ]);
      expect((await importCsv('key,title,requirement\nLITE-4,x,\n')).statusCode).toBe(200);
    } finally {
      await t.ok('PATCH', '/api/settings', { licenseVersion: 'advanced' });
    }
    expect((await t.ok<Case>('GET', `/api/cases/${linked.id}`)).requirementKey).toBe('REQ-7');
  });
});
