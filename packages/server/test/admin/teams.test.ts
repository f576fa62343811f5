import { describe, expect, it } from 'vitest';
import { LONG_NAME, SCRIPT, useAdminApi } from './support.ts';

type Team = {
  id: string;
  name: string;
  description: string;
  leader: { id: string; username: string } | null;
  members: { id: string; username: string }[];
};

describe('teams', () => {
  const t = useAdminApi();

  it('creates a team with a leader and members, reads, updates and deletes it, auditing each change', async () => {
    const lead = await t.createUser('lead');
    const dev = await t.createUser('dev');
    const created = await t.ok<Team>('POST', '/api/teams', {
      name: 'Payments',
      leaderId: lead.id,
      memberIds: [dev.id, lead.id, dev.id],
      description: 'Card and wallet flows',
    });
    expect(created).toMatchObject({ name: 'Payments', leader: { id: lead.id, username: 'lead' } });
    expect(created.members.map((m) => m.username)).toEqual(['dev', 'lead']);
    expect(await t.ok('GET', `/api/teams/${created.id}`)).toEqual(created);

    const updated = await t.ok<Team>('PATCH', `/api/teams/${created.id}`, { memberIds: [dev.id], leaderId: null });
    expect(updated.leader).toBeNull();
    expect(updated.members.map((m) => m.username)).toEqual(['dev']);
    expect(updated.description).toBe('Card and wallet flows');

    await t.ok('DELETE', `/api/teams/${created.id}`);
    expect((await t.call('GET', `/api/teams/${created.id}`)).statusCode).toBe(404);

    const audit = await t.auditOf('team', created.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
    expect(audit.every((a) => a.actorName === 'admin')).toBe(true);
    expect(audit[1]?.changes).toEqual({
      leaderId: { from: lead.id, to: null },
      memberIds: { from: [dev.id, lead.id].sort(), to: [dev.id] },
    });
    expect(audit[0]?.changes).toMatchObject({ name: { from: null, to: 'Payments' } });
  });

  it('refuses empty, over-long and duplicate names and unknown users, with field errors', async () => {
    for (const name of ['', '   ', LONG_NAME]) {
      const res = await t.call('POST', '/api/teams', { name });
      expect(res.statusCode).toBe(400);
      expect(res.json().data).toMatchObject({ error: 'validation-failed', fields: { name: expect.any(String) } });
    }
    await t.ok('POST', '/api/teams', { name: 'Search' });
    const dup = await t.call('POST', '/api/teams', { name: 'Search' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().data.fields).toEqual({ name: 'A team with this name exists.' });
    const ghost = await t.call('POST', '/api/teams', {
      name: 'Ghosts',
      memberIds: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(ghost.statusCode).toBe(400);
    expect(ghost.json().data.fields).toEqual({ memberIds: 'No such user.' });
    expect((await t.ok<{ total: number }>('GET', '/api/teams?q=Ghosts')).total).toBe(0);
    const unknownField = await t.call('POST', '/api/teams', { name: 'X', colour: 'red' });
    expect(unknownField.statusCode).toBe(400);
  });

  it('stores script tags as plain text', async () => {
    const team = await t.ok<Team>('POST', '/api/teams', { name: SCRIPT, description: SCRIPT });
    expect(team).toMatchObject({ name: SCRIPT, description: SCRIPT });
    const res = await t.call('GET', `/api/teams/${team.id}`);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json().data.name).toBe(SCRIPT);
  });

  it('lists with search, member filter, whitelisted sorting and pages of 10 by default', async () => {
    const member = await t.createUser('pager');
    for (let i = 0; i < 12; i++) {
      await t.ok('POST', '/api/teams', { name: `Squad ${String(i).padStart(2, '0')}`, memberIds: [member.id] });
    }
    const first = await t.ok<{ items: Team[]; total: number }>('GET', '/api/teams?q=squad&sortBy=name');
    expect(first.total).toBe(12);
    expect(first.items).toHaveLength(10);
    expect(first.items[0]?.name).toBe('Squad 00');
    const last = await t.ok<{ items: Team[] }>('GET', '/api/teams?q=squad&sortBy=name&sortDesc=true&page=2');
    expect(last.items.map((x) => x.name)).toEqual(['Squad 01', 'Squad 00']);
    const mine = await t.ok<{ total: number }>('GET', `/api/teams?memberId=${member.id}`);
    expect(mine.total).toBe(12);
    expect((await t.call('GET', '/api/teams?sortBy=password')).statusCode).toBe(400);
    expect((await t.ok<{ total: number }>('GET', '/api/teams?q=%25')).total).toBe(0);
  });

  it('denies a client and an anonymous caller', async () => {
    expect((await t.call('GET', '/api/teams', undefined, t.client)).statusCode).toBe(403);
    expect((await t.call('POST', '/api/teams', { name: 'Nope' }, t.client)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/teams', undefined, {})).statusCode).toBe(401);
    expect((await t.call('GET', '/api/auditLogs', undefined, t.client)).statusCode).toBe(403);
  });
});
