import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppsService } from '../../src/modules/apps/index.ts';
import { AuditService } from '../../src/modules/audit/service.ts';
import { createTeamsService } from '../../src/modules/teams/index.ts';
import { git, makeRepo } from './git-fixture.ts';
import { LONG_NAME, SCRIPT, useAdminApi } from './support.ts';

type App = { id: string; name: string; teamName: string; repoUrl: string; ingestionToken?: string };

describe('apps', () => {
  const t = useAdminApi();
  const repo = makeRepo(['feature/login', 'release-1']);
  const scratch = mkdtempSync(join(tmpdir(), 'sx-admin-marker-'));
  const marker = join(scratch, 'pwned');
  let teamId = '';
  const base = () => ({ teamId, name: 'checkout', language: 'java', repoUrl: repo.path });
  beforeAll(async () => {
    teamId = (await t.ok<{ id: string }>('POST', '/api/teams', { name: 'Shop' })).id;
  });
  afterAll(() => {
    repo.remove();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('creates an app, shows its ingestion token once and keeps only its sha256', async () => {
    const created = await t.ok<App>('POST', '/api/apps', {
      ...base(),
      environments: ['dev', 'test', 'staging'],
      coverageSource: 'jacoco-agent',
      buildCommand: 'mvn -q compile',
    });
    expect(created).toMatchObject({ name: 'checkout', teamName: 'Shop', defaultBranch: 'main', status: 'active' });
    const token = created.ingestionToken as string;
    expect(token.length).toBeGreaterThan(40);
    const read = await t.ok<App>('GET', `/api/apps/${created.id}`);
    expect(read).not.toHaveProperty('ingestionToken');
    expect(JSON.stringify(await t.ok('GET', '/api/apps'))).not.toContain(token);
    const stored = await t.db.execute(sql`select * from apps where id = ${created.id}`);
    expect(stored.rows[0]?.ingestion_token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored.rows)).not.toContain(token);

    const rotated = await t.ok<App>('POST', `/api/apps/${created.id}/rotateToken`);
    expect(rotated.ingestionToken).not.toBe(token);
    const after = await t.db.execute(sql`select ingestion_token_hash from apps where id = ${created.id}`);
    expect(after.rows[0]?.ingestion_token_hash).toBe(
      createHash('sha256')
        .update(rotated.ingestionToken ?? '')
        .digest('hex'),
    );
    const shared = new AuditService(t.db);
    const service = createAppsService(t.db, { audit: shared, teams: createTeamsService(t.db, shared) });
    expect(await service.appIdForToken(token)).toBeNull();
    expect(await service.appIdForToken(rotated.ingestionToken ?? '')).toBe(created.id);
    const audit = await t.auditOf('app', created.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'rotate-token']);
    expect(JSON.stringify(audit)).not.toContain(token);
    expect(JSON.stringify(audit)).not.toContain('ingestion');
  });

  it('tests the connection with git ls-remote: the refs git lists, or what git’s error means', async () => {
    const app = await t.ok<App>('GET', '/api/apps?q=checkout').then((p) => (p as unknown as { items: App[] }).items[0]);
    const check = await t.ok<{ ok: boolean; refs: number }>('POST', `/api/apps/${app?.id}/testConnection`);
    const expectedRefs = git(repo.path, 'show-ref', '--head').trim().split('\n').length;
    expect(check).toEqual({ ok: true, refs: expectedRefs, error: null });

    const missing = join(scratch, 'no-such-repo');
    const broken = await t.ok<App>('POST', '/api/apps', { ...base(), name: 'broken', repoUrl: missing });
    const failed = await t.ok<{ ok: boolean; error: string }>('POST', `/api/apps/${broken.id}/testConnection`);
    // Git's own text is not passed on: for a local path it can quote a file (issue 32, finding 10).
    expect(failed).toEqual({ ok: false, refs: null, error: 'Not a git repository (or not readable by the server).' });
  });

  it('refuses repository URLs with shell metacharacters, options or other transports, running nothing', async () => {
    const bad = [
      `${repo.path};touch ${marker}`,
      `$(touch ${marker})`,
      `\`touch ${marker}\``,
      `--upload-pack=touch ${marker}`,
      '--upload-pack=touch',
      `ext::sh -c touch% ${marker}`,
      `file://${repo.path}`,
      'ssh://-oProxyCommand=touch/x',
      'ssh://-oProxyCommand@example.com/x.git',
      'git@-oProxyCommand=x:repo.git',
      'https://user:secret@example.com/x.git',
      'https://example.com/a b',
      'relative/path',
      `${repo.path}/../etc`,
      `https://example.com/repo.git|touch`,
    ];
    for (const repoUrl of bad) {
      const res = await t.call('POST', '/api/apps', { ...base(), name: 'evil', repoUrl });
      expect([repoUrl, res.statusCode]).toEqual([repoUrl, 400]);
      expect(res.json().data.fields).toHaveProperty('repoUrl');
    }
    const app = (await t.ok<{ items: App[] }>('GET', '/api/apps?q=checkout')).items[0] as App;
    const patched = await t.call('PATCH', `/api/apps/${app.id}`, { repoUrl: `--upload-pack=touch ${marker}` });
    expect(patched.statusCode).toBe(400);
    expect((await t.ok<App>('GET', `/api/apps/${app.id}`)).repoUrl).toBe(repo.path);
    expect(existsSync(marker)).toBe(false);
    for (const repoUrl of [
      'https://github.com/example/repo.git',
      'ssh://git@example.com:2222/team/repo.git',
      'git@github.com:example/repo.git',
    ]) {
      const res = await t.call('POST', '/api/apps', { ...base(), name: `ok ${repoUrl.length}`, repoUrl });
      expect([repoUrl, res.statusCode]).toEqual([repoUrl, 200]);
    }
  });

  it('validates names, refs, enums and environments, and keeps names unique per team', async () => {
    for (const name of ['', LONG_NAME]) {
      const res = await t.call('POST', '/api/apps', { ...base(), name });
      expect(res.statusCode).toBe(400);
      expect(res.json().data.fields).toHaveProperty('name');
    }
    const dup = await t.call('POST', '/api/apps', base());
    expect(dup.statusCode).toBe(409);
    expect(dup.json().data.fields).toEqual({ name: 'This team already has an app with this name.' });
    const otherTeam = await t.ok<{ id: string }>('POST', '/api/teams', { name: 'Other shop' });
    expect((await t.call('POST', '/api/apps', { ...base(), teamId: otherTeam.id })).statusCode).toBe(200);
    const fields = async (payload: object) =>
      (await t.call('POST', '/api/apps', { ...base(), name: 'fresh', ...payload })).json().data.fields;
    expect(await fields({ defaultBranch: '--orphan' })).toHaveProperty('defaultBranch');
    expect(await fields({ defaultBranch: 'a..b' })).toHaveProperty('defaultBranch');
    expect(await fields({ language: 'cobol' })).toHaveProperty('language');
    expect(await fields({ environments: ['dev', 'dev'] })).toHaveProperty('environments');
    expect(await fields({ environments: ['Prod!'] })).toHaveProperty('environments.0');
    expect(await fields({ teamId: '00000000-0000-4000-8000-000000000000' })).toEqual({ teamId: 'No such team.' });
    const scripted = await t.ok<App>('POST', '/api/apps', { ...base(), name: SCRIPT });
    expect((await t.ok<App>('GET', `/api/apps/${scripted.id}`)).name).toBe(SCRIPT);
  });

  it('refuses to delete a team that still has apps, naming them; deletes an app and audits it', async () => {
    const refused = await t.call('DELETE', `/api/teams/${teamId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('apps');
    const app = await t.ok<App>('POST', '/api/apps', { ...base(), name: 'short-lived' });
    await t.ok('DELETE', `/api/apps/${app.id}`);
    expect((await t.call('GET', `/api/apps/${app.id}`)).statusCode).toBe(404);
    expect((await t.auditOf('app', app.id)).map((a) => a.action)).toEqual(['create', 'delete']);
  });

  it('lists with filters and whitelisted sorting; denies a client', async () => {
    const page = await t.ok<{ items: App[]; total: number }>('GET', `/api/apps?teamId=${teamId}&sortBy=name`);
    expect(page.total).toBeGreaterThanOrEqual(5);
    const names = page.items.map((a) => a.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect((await t.call('GET', '/api/apps?sortBy=repoUrl')).statusCode).toBe(400);
    expect((await t.call('GET', '/api/apps', undefined, t.client)).statusCode).toBe(403);
    const id = page.items[0]?.id;
    expect((await t.call('POST', `/api/apps/${id}/testConnection`, undefined, t.client)).statusCode).toBe(403);
  });
});
