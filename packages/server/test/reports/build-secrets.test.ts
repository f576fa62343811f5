import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSandbox } from '../../src/modules/reports/pipeline/build-sandbox.ts';
import { addUpload, fixtureRepo, TEST_JWT_SECRET, useReportsApp, waitForReport } from './pipeline-support.ts';

/**
 * Issue 32, finding 1: a build command is code from the repository. It must not see the server's
 * environment, read the data folder (the JWT signing key) or publish a secret in its output.
 */
const SERVER_ENV = {
  SEXTANT_ADMIN_PASSWORD: 'admin-password-in-the-server-env',
  REDIS_URL: 'redis://:redis-password-of-the-server@127.0.0.1:6379',
  DEPLOY_TOKEN: 'deploy-token-the-build-may-use',
  SEXTANT_PLAIN_SETTING: 'a-plain-server-variable',
};
const BUILD_ENV_NAMES = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'CI', 'GIT_TERMINAL_PROMPT', 'DEPLOY_TOKEN'];
// What the shell adds by itself.
const SHELL_NAMES = ['PWD', 'OLDPWD', 'SHLVL', '_'];
const CANARY = 'data-folder-canary-0b7e41';

const saved = Object.fromEntries(Object.keys(SERVER_ENV).map((name) => [name, process.env[name]]));
Object.assign(process.env, SERVER_ENV);
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const isRoot = process.getuid?.() === 0;
const modes: ['auto' | 'user'][] = isRoot ? [['auto'], ['user']] : [['auto']];

describe.each(modes)('a build (SEXTANT_BUILD_SANDBOX=%s)', (mode) => {
  const t = useReportsApp({ buildSandbox: mode, buildEnvPass: ['DEPLOY_TOKEN', 'NOT_SET_ON_THE_SERVER'] });
  let repo: string;
  let appCount = 0;
  beforeAll(async () => {
    repo = fixtureRepo('jacoco');
    // As loadConfig keeps a generated key, and a file that is no secret but must stay out of reach too.
    writeFileSync(join(t.dataDir, 'jwt-secret'), TEST_JWT_SECRET, { mode: 0o600 });
    writeFileSync(join(t.dataDir, 'canary'), CANARY, { mode: 0o644 });
  });
  afterAll(() => rm(dirname(repo), { recursive: true, force: true }));

  const build = async (buildCommand: string) => {
    appCount += 1;
    const name = `built-${appCount}`;
    const appId = await t.createApp({ name, repoUrl: repo, buildCommand });
    await addUpload(t.db, t.dataDir, {
      appId,
      commit: 'head',
      envType: 'test',
      testType: 1,
      fixture: 'jacoco/jacoco.xml',
      format: 'jacoco',
    });
    const res = await t.call('POST', '/api/reports', {
      app: name,
      name: 'build',
      baseVersion: 'base',
      newVersion: 'head',
      envType: 'test',
      testType: 1,
      coverageType: 'full',
    });
    expect(res.statusCode, res.body).toBe(201);
    return waitForReport(t.db, res.json().data.id);
  };

  it('sees only its own environment, cannot read the data folder, and its output is masked', async () => {
    const data = t.dataDir;
    const done = await build(
      `env; cat ${data}/jwt-secret 2>&1; cat ${data}/canary 2>&1; echo "admin=$SEXTANT_ADMIN_PASSWORD db=$DATABASE_URL"; echo "deploy=$DEPLOY_TOKEN"; exit 3`,
    );
    expect(done.status).toBe('COMPILE_FAIL');
    const errMsg = done.errMsg ?? '';
    expect(errMsg).toMatch(/^the build command exited with 3:/);
    for (const value of [TEST_JWT_SECRET, CANARY, ...Object.values(SERVER_ENV), 'redis-password-of-the-server']) {
      expect(errMsg).not.toContain(value);
    }
    if (process.env.DATABASE_URL) expect(errMsg).not.toContain(process.env.DATABASE_URL);
    // The variable passed on purpose reached the build, and its value was masked like a CI secret.
    expect(errMsg).toContain('deploy=***');
    expect(errMsg).toContain('admin= db=');
    const names = errMsg
      .split('\n')
      .slice(1)
      .map((line) => /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined && !['admin', 'deploy'].includes(name));
    expect(names.filter((name) => ![...BUILD_ENV_NAMES, ...SHELL_NAMES].includes(name))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['PATH', 'HOME', 'CI', 'DEPLOY_TOKEN']));
  });

  it('cannot read any file of the data folder, even one readable by everyone', async () => {
    const done = await build(`if cat ${t.dataDir}/canary; then exit 0; fi; ls ${t.dataDir} 2>&1; exit 4`);
    expect(done.status).toBe('COMPILE_FAIL');
    expect(done.errMsg ?? '').not.toContain(CANARY);
    expect(done.errMsg ?? '').not.toContain('jwt-secret');
  });

  it('shows its output only to readers of reports', async () => {
    const done = await build('echo build-output-marker; exit 5');
    expect(done.errMsg).toContain('build-output-marker');
    const admin = await t.call('GET', `/api/getReport?reportId=${done.id}`);
    expect(admin.json().data.errMsg).toContain('build-output-marker');
    await t.ok('POST', '/api/roles', {
      name: `board-only-${mode}`,
      ability: [{ action: 'read', resource: 'AppDashboard' }],
      resourceNums: { AppDashboard: 1 },
    });
    const boardReader = await t.createUser(`board-${mode}`, `board-only-${mode}`);
    const client = await t.createUser(`client-${mode}`, 'client');
    for (const [headers, status] of [
      [boardReader.headers, 403],
      [client.headers, 403],
      [{}, 401],
    ] as const) {
      const one = await t.call('GET', `/api/getReport?reportId=${done.id}`, undefined, headers);
      const search = await t.call('POST', '/api/searchReports', { testType: 1 }, headers);
      expect([one.statusCode, search.statusCode]).toEqual([status, status]);
      expect(one.body + search.body).not.toContain('build-output-marker');
    }
    // The app dashboard (AppDashboard alone) lists finished and running reports, never a failure's output.
    const board = await t.call('GET', `/api/dashboard?appId=${done.appId}`, undefined, boardReader.headers);
    expect(board.statusCode).toBe(200);
    expect(board.body).not.toContain('build-output-marker');
  });

  it('writes in its own checkout, HOME and TMPDIR, and goes on to SUCCESS', async () => {
    const done = await build(
      'set -e; test -f src/main/java/demo/text/WordCounter.java; mkdir -p target "$HOME/.m2"; echo x > target/out; echo y > "$TMPDIR/t"; test "$CI" = true',
    );
    expect(done.errMsg).toBeNull();
    expect(done.status).toBe('SUCCESS');
  });
});

describe.runIf(isRoot)('the build sandbox', () => {
  it('refuses to build as a user that does not exist', async () => {
    expect(await buildSandbox('user', 'sextant-no-such-user')).toEqual({
      kind: 'refused',
      reason: 'the build user "sextant-no-such-user" does not exist or is root (SEXTANT_BUILD_USER)',
    });
    expect(await buildSandbox('auto', 'root')).toMatchObject({ kind: 'refused' });
  });
});
