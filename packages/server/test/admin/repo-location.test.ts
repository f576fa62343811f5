import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from './git-fixture.ts';
import { useAdminApi } from './support.ts';

type App = { id: string; repoUrl: string };

/**
 * Issue 32, finding 10: an administrator's repository URL must not make the server probe its cloud
 * metadata service, link-local or loopback addresses, or read its own files. The test app allows
 * local repositories in the temporary folder only (repoPaths) and no loopback.
 */
describe('repository locations', () => {
  const t = useAdminApi();
  const repo = makeRepo();
  const scratch = mkdtempSync(join(tmpdir(), 'sx-repo-location-'));
  let teamId = '';
  let count = 0;
  const create = (repoUrl: string) => {
    count += 1;
    return t.call('POST', '/api/apps', { teamId, name: `app-${count}`, language: 'java', repoUrl });
  };
  beforeAll(async () => {
    teamId = (await t.ok<{ id: string }>('POST', '/api/teams', { name: 'Locations' })).id;
  });
  afterAll(() => {
    repo.remove();
    rmSync(scratch, { recursive: true, force: true });
  });

  const refused = async (repoUrl: string, reason: RegExp) => {
    const res = await create(repoUrl);
    expect([repoUrl, res.statusCode]).toEqual([repoUrl, 400]);
    expect(res.json().data.error).toBe('validation-failed');
    expect(res.json().data.fields.repoUrl).toMatch(reason);
  };

  it('refuses cloud metadata and link-local addresses, by address or by name', async () => {
    await refused('https://169.254.169.254/latest/meta-data.git', /169\.254\.169\.254 is a cloud metadata address/);
    await refused('https://metadata.google.internal/computeMetadata/v1.git', /is a cloud metadata service/);
    await refused('https://100.100.100.200/latest.git', /cloud metadata address/);
    await refused('https://169.254.10.1/repo.git', /is a link-local address/);
    await refused('git@169.254.169.254:team/repo.git', /cloud metadata address/);
    await refused('ssh://git@169.254.1.1:2222/team/repo.git', /link-local address/);
  });

  it('refuses loopback addresses, also behind a host name that resolves to one', async () => {
    await refused('https://127.0.0.1/repo.git', /127\.0\.0\.1 is a loopback address/);
    await refused('https://127.1.2.3:8443/repo.git', /loopback address/);
    await refused('https://0.0.0.0/repo.git', /loopback address/);
    await refused('ssh://git@127.0.0.1/repo.git', /loopback address/);
    await refused('https://localhost/repo.git', /localhost resolves to a loopback address/);
    await refused('https://git.localhost/repo.git', /loopback address/);
  });

  it('refuses local paths outside the allowed folders, symbolic links followed', async () => {
    await refused('/proc/self/environ', /inside a folder named in SEXTANT_REPO_PATHS/);
    await refused('/etc', /SEXTANT_REPO_PATHS/);
    await refused('/root/.ssh', /SEXTANT_REPO_PATHS/);
    const link = join(scratch, 'etc-link');
    symlinkSync('/etc', link);
    await refused(link, /SEXTANT_REPO_PATHS/);
    expect((await create(repo.path)).statusCode).toBe(200);
  });

  it('refuses a changed URL the same way and keeps the old one', async () => {
    const app = (await create(repo.path)).json().data as App;
    const res = await t.call('PATCH', `/api/apps/${app.id}`, { repoUrl: '/proc/self/environ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields).toHaveProperty('repoUrl');
    expect((await t.ok<App>('GET', `/api/apps/${app.id}`)).repoUrl).toBe(repo.path);
  });

  it('never echoes what git read from a file', async () => {
    // git quotes a gitfile's target in its error: "not a git repository: <dir>/<the file's text>".
    const file = join(scratch, 'gitfile');
    writeFileSync(file, 'gitdir: TOP-SECRET-FILE-TEXT\n');
    const app = (await create(file)).json().data as App;
    const check = await t.ok<{ ok: boolean; error: string }>('POST', `/api/apps/${app.id}/testConnection`);
    expect(check).toEqual({ ok: false, refs: null, error: 'Not a git repository (or not readable by the server).' });
  });

  it('checks a stored URL again before probing it (an app saved before the rule)', async () => {
    const app = (await create(repo.path)).json().data as App;
    await t.db.execute(sql`update apps set repo_url = '/proc/self/environ' where id = ${app.id}`);
    const res = await t.call('POST', `/api/apps/${app.id}/testConnection`);
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields.repoUrl).toMatch(/SEXTANT_REPO_PATHS/);
    expect(res.body).not.toContain('invalid gitfile');
    const branches = await t.call('POST', `/api/apps/${app.id}/refreshBranches`);
    expect(branches.statusCode).toBe(400);
    expect(branches.json().data.fields.repoUrl).toMatch(/SEXTANT_REPO_PATHS/);
  });
});
