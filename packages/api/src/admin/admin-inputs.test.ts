import { describe, expect, it } from 'vitest';
import { AppInputSchema, AppUpdateSchema } from './apps.ts';
import { CaseInputSchema } from './cases.ts';
import { gitRefSchema, nameSchema, repoUrlSchema } from './common.ts';
import { ProjectInputSchema } from './projects.ts';
import { RequirementInputSchema } from './requirements.ts';
import { TeamInputSchema, TeamQuerySchema } from './teams.ts';
import { VersionInputSchema } from './versions.ts';

const ID = '0b7c3f0e-4a52-4d5e-9a8f-2f1f0c6d9e11';
const OTHER = '5d0f4f5e-7c0e-4c55-8d3a-6a7b1c2d3e4f';
const accepts = (schema: { safeParse: (v: unknown) => { success: boolean } }, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(true);
const refuses = (schema: { safeParse: (v: unknown) => { success: boolean } }, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(false);

describe('administration inputs (issue 4)', () => {
  it('names: trimmed, not empty, no control characters, bounded', () => {
    expect(nameSchema(10).parse('  Shop  ')).toBe('Shop');
    for (const bad of ['', '   ', 'a\u0007b', 'x'.repeat(11)]) refuses(nameSchema(10), bad);
  });

  it('git refs: what git accepts, never an option', () => {
    for (const ref of ['main', 'release/1.2', 'v1.0.0', 'HEAD']) accepts(gitRefSchema, ref);
    for (const ref of ['-rf', '--upload-pack=x', 'a..b', 'a b', 'x.lock', 'a/', '@{0}', 'a~1', '']) {
      refuses(gitRefSchema, ref);
    }
  });

  it('repository URLs: https, ssh, scp-like or an absolute path; no option, no ext:: transport', () => {
    for (const url of [
      'https://git.example.test/shop.git',
      'ssh://git@host/shop.git',
      'git@host:shop.git',
      '/srv/git/shop',
    ]) {
      accepts(repoUrlSchema, url);
    }
    for (const url of ['-u', 'ext::sh -c touch% /tmp/x', 'file:///etc', 'relative/path', ''])
      refuses(repoUrlSchema, url);
  });

  it('a team: a name, a leader and members by id, nothing else', () => {
    accepts(TeamInputSchema, { name: 'Shop', leaderId: ID, memberIds: [ID, OTHER] });
    refuses(TeamInputSchema, { name: 'Shop', memberIds: ['bob'] });
    refuses(TeamInputSchema, { name: 'Shop', admin: true });
    expect(TeamQuerySchema.parse({ sortDesc: 'false' })).toMatchObject({ page: 1, perPage: 10, sortDesc: false });
    refuses(TeamQuerySchema, { perPage: 201 });
    refuses(TeamQuerySchema, { sortBy: 'password' });
  });

  it('an app: a team, a language from the list, a safe repository; environments each once', () => {
    const app = { teamId: ID, name: 'checkout', language: 'java', repoUrl: 'https://git.example.test/c.git' };
    accepts(AppInputSchema, app);
    accepts(AppInputSchema, { ...app, environments: ['test', 'staging'] });
    refuses(AppInputSchema, { ...app, environments: ['test', 'test'] });
    refuses(AppInputSchema, { ...app, language: 'cobol' });
    refuses(AppInputSchema, { ...app, teamId: 'shop' });
    accepts(AppUpdateSchema, { name: 'renamed' });
    refuses(AppUpdateSchema, { repoUrl: '--upload-pack=evil' });
  });

  it('a project ends after it starts; a version compares two different refs', () => {
    accepts(ProjectInputSchema, { name: 'R1', teamId: ID, startDate: '2026-01-01', endDate: '2026-02-01' });
    refuses(ProjectInputSchema, { name: 'R1', teamId: ID, startDate: '2026-02-01', endDate: '2026-01-01' });
    refuses(ProjectInputSchema, { name: 'R1', teamId: ID, startDate: '1 Feb 2026' });
    const version = { projectId: ID, appId: OTHER, name: '1.2', newRef: 'release/1.2', baseRef: 'release/1.1' };
    accepts(VersionInputSchema, version);
    refuses(VersionInputSchema, { ...version, baseRef: 'release/1.2' });
  });

  it('requirement and case keys as commit messages and uploads name them', () => {
    accepts(RequirementInputSchema, { key: 'REQ-12', title: 'Pay by card', projectId: ID });
    accepts(RequirementInputSchema, { key: '4711', title: 'Story', projectId: ID });
    refuses(RequirementInputSchema, { key: 'REQ 12', title: 'Pay by card', projectId: ID });
    accepts(CaseInputSchema, { key: 'TC-1', title: 'Pays', appId: ID, tags: ['smoke'] });
    refuses(CaseInputSchema, { key: '-TC', title: 'Pays', appId: ID });
    refuses(CaseInputSchema, { key: 'TC-1', title: 'Pays', appId: ID, tags: ['a;b'] });
  });
});
