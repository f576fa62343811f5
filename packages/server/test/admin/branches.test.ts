import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, makeRepo } from './git-fixture.ts';
import { useAdminApi } from './support.ts';

type Branch = { id: string; name: string; commit: string; tracked: boolean; present: boolean };

describe('branches', () => {
  const t = useAdminApi();
  const repo = makeRepo(['feature/login', 'release-1']);
  let appId = '';
  beforeAll(async () => {
    const team = await t.ok<{ id: string }>('POST', '/api/teams', { name: 'Branchers' });
    appId = (
      await t.ok<{ id: string }>('POST', '/api/apps', {
        teamId: team.id,
        name: 'web',
        language: 'typescript',
        repoUrl: repo.path,
      })
    ).id;
  });
  afterAll(() => repo.remove());

  const list = async (query = '') =>
    (await t.ok<{ items: Branch[]; total: number }>('GET', `/api/branches?appId=${appId}&sortBy=name${query}`)).items;

  it('discovers the repository’s branches, marks tracked ones and notices moved and deleted branches', async () => {
    const first = await t.ok<{ added: string[]; total: number }>('POST', `/api/apps/${appId}/refreshBranches`);
    const heads = git(repo.path, 'for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads')
      .trim()
      .split('\n')
      .map((line) => line.split(' '));
    expect(first.total).toBe(heads.length);
    expect([...first.added].sort()).toEqual(heads.map(([name]) => name).sort());
    const listed = await list();
    expect(listed.map((b) => [b.name, b.commit])).toEqual([...heads].sort(([a = ''], [b = '']) => (a < b ? -1 : 1)));

    const release = listed.find((b) => b.name === 'release-1') as Branch;
    expect((await t.ok<Branch>('PATCH', `/api/branches/${release.id}`, { tracked: true })).tracked).toBe(true);
    expect((await list('&tracked=true')).map((b) => b.name)).toEqual(['release-1']);

    git(repo.path, 'branch', '-D', 'feature/login');
    git(repo.path, 'checkout', '-q', 'release-1');
    git(repo.path, 'commit', '-q', '--allow-empty', '-m', 'hotfix');
    const second = await t.ok<{ added: string[]; moved: string[]; gone: string[] }>(
      'POST',
      `/api/apps/${appId}/refreshBranches`,
    );
    expect(second).toMatchObject({ added: [], moved: ['release-1'], gone: ['feature/login'] });
    const after = await list();
    expect(after.find((b) => b.name === 'feature/login')?.present).toBe(false);
    expect(after.find((b) => b.name === 'release-1')).toMatchObject({
      tracked: true,
      commit: git(repo.path, 'rev-parse', 'release-1').trim(),
    });
    const audit = await t.auditOf('branch', release.id);
    expect(audit.map((a) => [a.action, a.changes])).toEqual([['update', { tracked: { from: false, to: true } }]]);
    expect((await t.auditOf('branch', appId)).map((a) => a.action)).toEqual(['refresh', 'refresh']);
  });

  it('reports git’s error when the repository is gone, and denies a client', async () => {
    const team = await t.ok<{ id: string }>('POST', '/api/teams', { name: 'Gone' });
    const gone = await t.ok<{ id: string }>('POST', '/api/apps', {
      teamId: team.id,
      name: 'gone',
      language: 'go',
      repoUrl: `${repo.path}-missing`,
    });
    const res = await t.call('POST', `/api/apps/${gone.id}/refreshBranches`);
    expect(res.statusCode).toBe(400);
    // What git's error means, not its text (issue 32: git can quote a file it read).
    expect(res.json().message).toBe('Could not list branches: Not a git repository (or not readable by the server).');
    expect((await t.call('GET', '/api/branches', undefined, t.client)).statusCode).toBe(403);
    expect((await t.call('POST', `/api/apps/${appId}/refreshBranches`, undefined, t.client)).statusCode).toBe(403);
  });
});
