import { describe, expect, it } from 'vitest';
import { useAdminApi } from './support.ts';

type Entry = { id: number; at: string; actorId: string | null; actorName: string; entity: string; action: string };
type Page = { items: Entry[]; total: number };

describe('audit log', () => {
  const t = useAdminApi();

  it('records who changed what, newest first, filterable by entity and user, 10 per page by default', async () => {
    await t.ok('POST', '/api/roles', {
      name: 'team-editor',
      ability: [
        { action: 'create', resource: 'Team' },
        { action: 'update', resource: 'Team' },
      ],
      resourceNums: { Team: 1 },
    });
    const editor = await t.createUser('editor', 'team-editor');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await t.ok<{ id: string }>('POST', '/api/teams', { name: `Team ${i}` })).id);
    const byEditor = await t.call('PATCH', `/api/teams/${ids[0]}`, { description: 'edited' }, editor.headers);
    expect(byEditor.statusCode).toBe(200);
    const team = await t.call('POST', '/api/teams', { name: 'Editor team' }, editor.headers);
    expect(team.statusCode).toBe(200);

    const all = await t.ok<Page>('GET', '/api/auditLogs?entity=team');
    expect(all.total).toBe(14);
    expect(all.items).toHaveLength(10);
    const seq = all.items.map((e) => e.id);
    expect(seq).toEqual([...seq].sort((a, b) => b - a));
    expect(all.items[0]).toMatchObject({ actorName: 'editor', action: 'create', actorId: editor.id });

    const mine = await t.ok<Page>('GET', `/api/auditLogs?userId=${editor.id}`);
    expect(mine.items.map((e) => e.action)).toEqual(['create', 'update']);
    const page2 = await t.ok<Page>('GET', '/api/auditLogs?entity=team&page=2&perPage=10');
    expect(page2.items).toHaveLength(4);
    expect(page2.items.every((e) => e.actorName === 'admin')).toBe(true);
    const oldest = await t.ok<Page>('GET', '/api/auditLogs?entity=team&sortDesc=false&perPage=1');
    expect(oldest.items[0]?.id).toBe(Math.min(...all.items.map((e) => e.id), ...page2.items.map((e) => e.id)));
    expect((await t.ok<Page>('GET', '/api/auditLogs?entity=app')).total).toBe(0);
    expect((await t.call('GET', '/api/auditLogs?entity=password')).statusCode).toBe(400);
    expect((await t.call('GET', '/api/auditLogs', undefined, editor.headers)).statusCode).toBe(403);
  });

  it('writes nothing when the change is refused', async () => {
    const before = (await t.ok<Page>('GET', '/api/auditLogs')).total;
    expect((await t.call('POST', '/api/teams', { name: 'Team 0' })).statusCode).toBe(409);
    expect((await t.call('POST', '/api/teams', { name: '' })).statusCode).toBe(400);
    expect((await t.ok<Page>('GET', '/api/auditLogs')).total).toBe(before);
  });
});
