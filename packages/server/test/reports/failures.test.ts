import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema/index.ts';
import { addUpload, fixtureRepo, statusesOf, useReportsApp, waitForReport } from './pipeline-support.ts';

/** Each failure status of DESIGN §5 from a real cause, with the reason the user sees. */
describe('report pipeline failures', () => {
  // One test needs an https server that refuses connections: a loopback address, allowed here.
  const t = useReportsApp({ repoAllowLoopback: true });
  let repo: string;
  beforeAll(async () => {
    repo = fixtureRepo('jacoco');
    const appId = await t.createApp({ name: 'calculator', repoUrl: repo });
    await addUpload(t.db, t.dataDir, {
      appId,
      commit: 'head',
      envType: 'test',
      testType: 1,
      fixture: 'jacoco/jacoco.xml',
      format: 'jacoco',
    });
  });
  afterAll(() => rmSync(dirname(repo), { recursive: true, force: true }));

  const run = async (body: Record<string, unknown>) => {
    const res = await t.call('POST', '/api/reports', {
      app: 'calculator',
      name: 'failing',
      baseVersion: 'base',
      newVersion: 'head',
      envType: 'test',
      testType: 1,
      coverageType: 'full',
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return waitForReport(t.db, res.json().data.id);
  };

  /** The failure reaches the message centre with its reason as the text (what the user is shown). */
  const published = async (reportId: string, status: string) => {
    const [row] = await t.db
      .select()
      .from(messages)
      .where(and(eq(messages.reportId, reportId), eq(messages.status, status)));
    return row;
  };

  it('CLONE_FAIL with git’s reason when the repository is unreachable', async () => {
    const gone = join(tmpdir(), 'sextant-no-such-repo');
    await t.createApp({ name: 'gone', repoUrl: gone });
    const done = await run({ app: 'gone' });
    expect(done.status).toBe('CLONE_FAIL');
    expect(done.errMsg).toBe(`cannot clone ${gone}: Not a git repository (or not readable by the server).`);
    // the message names no server path (issue 32): the repository's folder keeps its last name only
    const withoutPath = done.errMsg?.replaceAll(gone, '…/sextant-no-such-repo');
    expect((await published(done.id, 'CLONE_FAIL'))?.text).toBe(withoutPath);
    // and so does the report the API answers (issue 37: no server path in any API answer)
    const answered = await t.call('GET', `/api/getReport?reportId=${done.id}`);
    expect(answered.json().data.errMsg).toBe(withoutPath);
    expect(await statusesOf(t.db, done.id)).toEqual(['QUEUED', 'CLONING', 'CLONE_FAIL']);
  });

  it('CLONE_FAIL with git’s reason when an https repository refuses the connection', async () => {
    await t.createApp({ name: 'refused', repoUrl: 'https://127.0.0.1:9/demo.git' });
    const done = await run({ app: 'refused' });
    expect(done.status).toBe('CLONE_FAIL');
    expect(done.errMsg).toMatch(/^cannot clone https:\/\/127\.0\.0\.1:9\/demo\.git: .*(refused|connect)/is);
  });

  it('CLONE_FAIL without probing a stored repository location the policy refuses (issue 32)', async () => {
    const appId = await t.createApp({ name: 'stored-before', repoUrl: repo });
    await t.db.execute(sql`update apps set repo_url = '/proc/self/environ' where id = ${appId}`);
    const done = await run({ app: 'stored-before' });
    expect(done.status).toBe('CLONE_FAIL');
    expect(done.errMsg).toBe(
      'refused repository /proc/self/environ: A local repository must lie inside a folder named in SEXTANT_REPO_PATHS.',
    );
  });

  it('CLONE_FAIL naming the version when a ref is unknown', async () => {
    const done = await run({ newVersion: 'no-such-tag' });
    expect(done.status).toBe('CLONE_FAIL');
    expect(done.errMsg).toBe(`unknown version "no-such-tag": no such commit, branch or tag in ${repo}`);
    expect(done.newCommit).toBeNull();
  });

  it('ENVREPORT_FAIL when no coverage was recorded for that commit in that environment', async () => {
    const done = await run({ envType: 'dev' });
    expect(done.status).toBe('ENVREPORT_FAIL');
    expect(done.errMsg).toBe(`no coverage for calculator ${done.newCommit?.slice(0, 12)} in dev`);
    expect(await statusesOf(t.db, done.id)).toEqual([
      'QUEUED',
      'CLONING',
      'ADDING_MODULE',
      'ENV_REPORT',
      'ENVREPORT_FAIL',
    ]);
  });

  it('ENVREPORT_FAIL when coverage exists only for another commit', async () => {
    const done = await run({ newVersion: 'base', baseVersion: 'base' });
    expect(done.status).toBe('ENVREPORT_FAIL');
    expect(done.errMsg).toContain('no coverage for calculator');
  });

  it('FAILADDMODULE naming paths when the coverage names no file of the commit', async () => {
    const appId = await t.createApp({ name: 'mismatch', repoUrl: repo });
    await addUpload(t.db, t.dataDir, {
      appId,
      commit: 'head',
      envType: 'test',
      testType: 1,
      fixture: 'js/lcov.info',
      format: 'lcov',
    });
    const done = await run({ app: 'mismatch' });
    expect(done.status).toBe('FAILADDMODULE');
    expect(done.errMsg).toMatch(/^no path of the coverage \(1 upload\) names a file of commit [0-9a-f]{12}: .*\.js/);
  });

  it('COMPILE_FAIL with the last lines of the build output', async () => {
    await t.createApp({
      name: 'broken-build',
      repoUrl: repo,
      buildCommand: 'echo compiling demo; echo "error: missing symbol" >&2; exit 3',
    });
    const done = await run({ app: 'broken-build' });
    expect(done.status).toBe('COMPILE_FAIL');
    expect(done.errMsg).toBe('the build command exited with 3:\ncompiling demo\nerror: missing symbol');
    expect(await statusesOf(t.db, done.id)).toEqual(['QUEUED', 'CLONING', 'COMPILING', 'COMPILE_FAIL']);
  });

  it('runs the build command in a checkout of the new commit, then goes on', async () => {
    const appId = await t.createApp({
      name: 'built',
      repoUrl: repo,
      buildCommand: 'test -f src/main/java/demo/text/WordCounter.java && test ! -e src/main/java/demo/Legacy.java',
    });
    await addUpload(t.db, t.dataDir, {
      appId,
      commit: 'head',
      envType: 'test',
      testType: 1,
      fixture: 'jacoco/jacoco.xml',
      format: 'jacoco',
    });
    const done = await run({ app: 'built' });
    expect(done.errMsg).toBeNull();
    expect(done.status).toBe('SUCCESS');
    expect(await statusesOf(t.db, done.id)).toContain('COMPILING');
  });
});
