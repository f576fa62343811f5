import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reports } from '../../src/db/schema/index.ts';
import { fixtureRepo, useReportsApp, waitForReport } from '../reports/pipeline-support.ts';

/**
 * Who may change a team's reports: its members and its leader, who need not be a member (issue 40:
 * removing the leader's condition passed every test, since the browser test signs in as admin).
 */
describe('a team leader changes the team’s reports', () => {
  const t = useReportsApp();
  let repo: string;
  let leader: { id: string; headers: Record<string, string> };
  let outsider: { id: string; headers: Record<string, string> };
  beforeAll(async () => {
    repo = fixtureRepo('jacoco');
    await t.createApp({ name: 'ledger', repoUrl: repo });
    // No built-in role but admin may edit or delete reports: a role that may, without managing all.
    await t.ok('POST', '/api/roles', {
      name: 'report keeper',
      ability: ['read', 'create', 'update', 'delete'].map((action) => ({ action, resource: 'Report' })),
      resourceNums: { Report: 1 },
    });
    leader = await t.createUser('teamlead', 'report keeper');
    outsider = await t.createUser('bystander', 'report keeper');
    // The leader leads the team without being one of its members.
    await t.ok('PATCH', `/api/teams/${t.teamId}`, { leaderId: leader.id, memberIds: [] });
  });
  afterAll(() => rmSync(dirname(repo), { recursive: true, force: true }));

  const body = (name: string) => ({
    app: 'ledger',
    name,
    baseVersion: 'base',
    newVersion: 'head',
    envType: 'test',
    testType: 2,
    coverageType: 'full',
  });
  const nameOf = async (id: string) => (await t.db.select().from(reports).where(eq(reports.id, id)))[0]?.name;

  it('lets the leader, who is no member and no administrator, create, edit and delete', async () => {
    const created = await t.call('POST', '/api/reports', body('by the leader'), leader.headers);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    await waitForReport(t.db, id);
    const renamed = await t.call('PATCH', `/api/reports/${id}`, { name: 'renamed by the leader' }, leader.headers);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await nameOf(id)).toBe('renamed by the leader');
    const deleted = await t.call('DELETE', `/api/reports/${id}`, undefined, leader.headers);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await t.db.select().from(reports).where(eq(reports.id, id))).toEqual([]);
  });

  it('refuses the same role to a user neither leader nor member, changing nothing', async () => {
    const created = await t.ok<{ id: string }>('POST', '/api/reports', body('the team’s'));
    await waitForReport(t.db, created.id);
    const denied = [
      await t.call('POST', '/api/reports', body('by a bystander'), outsider.headers),
      await t.call('PATCH', `/api/reports/${created.id}`, { name: 'renamed by a bystander' }, outsider.headers),
      await t.call('DELETE', `/api/reports/${created.id}`, undefined, outsider.headers),
    ];
    for (const res of denied) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Only members of team reporting may change the reports of ledger.');
    }
    expect(await nameOf(created.id)).toBe('the team’s');
  });
});
