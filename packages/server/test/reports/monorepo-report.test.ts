import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@sextant/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingCommands, skipWithout } from '../../../../tools/test-support/machine.ts';
import { useReportsApp, waitForReport } from './pipeline-support.ts';

// Issue 39 through the server: an npm workspaces repository whose two packages both hold
// `src/util.js`, c8 run in each package (package-relative `SF:src/util.js`), both reports sent by
// `sextant upload` from the repository's top. The report's changed lines equal the sum of diff-cover
// run in each package, the files carry their package, and each package's figure is diff-cover's there.
const noDiffCover = skipWithout('the monorepo report compared with diff-cover', missingCommands('diff-cover'));
const c8 = join(import.meta.dirname, '../../../../node_modules/.bin/c8');

const BEFORE = 'export function price(n) {\n  return n * 2;\n}\n';
const AFTER =
  'export function price(n) {\n  if (n < 0) return 0;\n  return n * 2;\n}\n\n' +
  'export function tax(n) {\n  const rate = 5;\n  return n / rate;\n}\n';
const TESTS: Record<string, string> = {
  alpha: "import { price } from './src/util.js';\nprice(3);\n",
  beta: "import { price, tax } from './src/util.js';\nprice(-1);\ntax(10);\n",
};
type Lines = { covered: number; total: number };

describe.skipIf(noDiffCover)('a monorepo report sent with sextant upload', () => {
  const t = useReportsApp();
  const work = mkdtempSync(join(tmpdir(), 'sx-monorepo-report-'));
  const repo = join(work, 'repo');
  const pkg = (name: string) => join(repo, 'packages', name);
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=Dev', '-c', 'user.email=dev@x', ...args], { encoding: 'utf8' });
  const diffCover = (cwd: string): Lines => {
    const out = join(work, 'diff-cover.json');
    execFileSync('diff-cover', ['coverage/lcov.info', '--compare-branch=base', '--json-report', out, '-q'], { cwd });
    const json = JSON.parse(readFileSync(out, 'utf8')) as { total_num_lines: number; total_num_violations: number };
    return { covered: json.total_num_lines - json.total_num_violations, total: json.total_num_lines };
  };
  let server = '';
  let token = '';

  beforeAll(async () => {
    mkdirSync(repo);
    git('init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'package.json'), JSON.stringify({ private: true, workspaces: ['packages/*'] }));
    writeFileSync(join(repo, '.gitignore'), 'coverage/\n');
    for (const name of ['alpha', 'beta']) {
      mkdirSync(join(pkg(name), 'src'), { recursive: true });
      writeFileSync(join(pkg(name), 'package.json'), JSON.stringify({ name, type: 'module' }));
      writeFileSync(join(pkg(name), 'test.mjs'), TESTS[name] as string);
      writeFileSync(join(pkg(name), 'src/util.js'), BEFORE);
    }
    git('add', '.');
    git('commit', '-qm', 'one');
    git('tag', 'base');
    for (const name of ['alpha', 'beta']) writeFileSync(join(pkg(name), 'src/util.js'), AFTER);
    git('commit', '-qam', 'two');
    git('tag', 'head');
    for (const name of ['alpha', 'beta']) {
      execFileSync(c8, ['--reporter=lcovonly', '--reports-dir=coverage', 'node', 'test.mjs'], { cwd: pkg(name) });
    }
    const created = await t.ok<{ id: string; ingestionToken: string }>('POST', '/api/apps', {
      teamId: t.teamId,
      name: 'workspaces',
      language: 'javascript',
      repoUrl: repo,
      environments: ['ci', 'gate'],
    });
    token = created.ingestionToken;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const report = async (name: string, envType: string) => {
    const res = await t.call('POST', '/api/reports', {
      app: 'workspaces',
      name,
      baseVersion: 'base',
      newVersion: 'head',
      envType,
      testType: 1,
      coverageType: 'incremental',
    });
    expect(res.statusCode, res.body).toBe(201);
    return waitForReport(t.db, res.json().data.id);
  };

  it("equals the sum of diff-cover's per-package figures, each file in its package", async () => {
    const out: string[] = [];
    const io = { cwd: repo, stdout: (s: string) => out.push(s), stderr: (s: string) => out.push(s), colour: false };
    const files = ['packages/alpha/coverage/lcov.info', 'packages/beta/coverage/lcov.info'];
    const args = ['--server', server, '--token', token, '--app', 'workspaces', '--commit', 'head', '--env', 'ci'];
    expect(await runCli(['upload', ...files, ...args, '--test-type', '1'], io), out.join('')).toBe(0);

    const alpha = diffCover(pkg('alpha'));
    const beta = diffCover(pkg('beta'));
    expect(alpha.total).toBeGreaterThan(0);
    const done = await report('workspaces at head', 'ci');
    expect(done.errMsg).toBeNull();
    expect(done.status).toBe('SUCCESS');
    expect({ covered: done.diffLineCovered, total: done.diffLineTotal }).toEqual({
      covered: alpha.covered + beta.covered,
      total: alpha.total + beta.total,
    });

    const listed = (
      await t.ok<{ path: string; package: string | null; diffLineCovered: number; diffLineTotal: number }[]>(
        'GET',
        `/api/reports/${done.id}/files`,
      )
    ).map((f) => [f.path, f.package, { covered: f.diffLineCovered, total: f.diffLineTotal }]);
    expect(listed).toEqual([
      ['packages/alpha/src/util.js', 'packages/alpha', alpha],
      ['packages/beta/src/util.js', 'packages/beta', beta],
    ]);
  });

  it('fails the diff, naming the files and why, when files could not be placed and no changed line was measured', async () => {
    // Sent without its folder: src/util.js ends a file of both packages, and the one file placed has no change.
    const lcov =
      'TN:\nSF:src/util.js\nDA:1,1\nend_of_record\nSF:packages/alpha/test.mjs\nDA:1,1\nDA:2,1\nend_of_record\n';
    const query = new URLSearchParams({ app: 'workspaces', commit: 'head', envType: 'gate', testType: '1' });
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/coverage/uploads?${query}`,
      headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${token}` },
      payload: lcov,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const done = await report('gate at head', 'gate');
    expect(done.status).toBe('GENERATEREPORT_FAIL');
    expect(done.errMsg).toBe(
      'the diff coverage cannot pass on nothing: no changed line was measured, and 1 file of the coverage could not ' +
        'be placed: src/util.js (could be packages/alpha/src/util.js or packages/beta/src/util.js); upload from the ' +
        'folder the report was made in, or give --base-dir',
    );
  });
});
