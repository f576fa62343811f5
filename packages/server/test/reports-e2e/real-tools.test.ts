import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ADMIN_PASSWORD, buildTestApp } from '../support/build-test-app.ts';

// Issue 6, first "must show": a repository made here, coverage made by the real tool (c8 over Node's
// own V8 coverage), uploaded with the CLI, an incremental report run by the pipeline, watched over
// STOMP from CLONING to SUCCESS, and getReport's figures equal to `sextant coverage --json`'s.
const root = join(import.meta.dirname, '../../../..');
const cli = join(root, 'packages/cli/bin/sextant.mjs');
const c8 = join(root, 'node_modules/.bin/c8');

const BASE = {
  'src/price.js': `export function net(gross, rate) {
  return gross / (1 + rate);
}

export function round(value) {
  return Math.round(value * 100) / 100;
}
`,
  'run.js': `import { net, round } from './src/price.js';
console.log(round(net(119, 0.19)));
`,
  'package.json': '{ "type": "module" }\n',
};
const HEAD = {
  'src/price.js': `export function net(gross, rate) {
  if (rate < 0) {
    throw new Error('negative rate');
  }
  return gross / (1 + rate);
}

export function round(value) {
  return Math.round(value * 100) / 100;
}

export function discount(price, percent) {
  if (percent > 50) {
    return price / 2;
  }
  return price * (1 - percent / 100);
}
`,
  'run.js': `import { discount, net, round } from './src/price.js';
console.log(round(net(119, 0.19)), discount(100, 10));
`,
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
    },
  }).trim();
}

function writeAll(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** The CLI as its own process; asynchronous, because the server it talks to runs in this one. */
function sextant(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ status: code, stdout, stderr });
    });
  });
}

describe('a report from real coverage, end to end', () => {
  const work = mkdtempSync(join(tmpdir(), 'sx-real-tools-'));
  const repo = join(work, 'shop');
  const coverageDir = join(work, 'coverage');
  let base = '';
  let head = '';
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let server = '';
  let token = '';

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--cli', '--if-missing']);
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    writeAll(repo, BASE);
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'REQ-1 net prices');
    base = git(repo, 'rev-parse', 'HEAD');
    writeAll(repo, HEAD);
    git(repo, 'commit', '-q', '-am', 'REQ-2 discounts and a rate check');
    head = git(repo, 'rev-parse', 'HEAD');
    execFileSync(
      c8,
      ['--reporter=lcov', '--reports-dir', coverageDir, '--all', '--include', 'src/**', 'node', 'run.js'],
      {
        cwd: repo,
        stdio: 'ignore',
      },
    );

    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    token = login.json().data.accessToken;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const api = async <T>(method: string, url: string, payload?: unknown): Promise<T> => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      payload: payload as object,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().data as T;
  };

  it('uploads c8 coverage with the CLI, runs an incremental report to SUCCESS and agrees with the CLI', async () => {
    const lcov = join(coverageDir, 'lcov.info');
    expect(readFileSync(lcov, 'utf8')).toContain('SF:');
    const team = await api<{ id: string }>('POST', '/api/teams', { name: 'Pricing' });
    const app = await api<{ id: string; ingestionToken: string }>('POST', '/api/apps', {
      teamId: team.id,
      name: 'price-service',
      language: 'javascript',
      repoUrl: repo,
      environments: ['ci'],
    });

    const upload = await sextant([
      'upload',
      lcov,
      '--server',
      server,
      '--token',
      app.ingestionToken,
      '--app',
      'price-service',
      '--commit',
      head,
      '--env',
      'ci',
      '--test-type',
      '1',
    ]);
    expect(upload.status, upload.stderr).toBe(0);

    const stomp = new Client({
      webSocketFactory: () => new WebSocket(`${server.replace('http', 'ws')}/ws`, ['v12.stomp']),
      connectHeaders: { Authorization: `Bearer ${token}` },
      reconnectDelay: 0,
    });
    // Every report message is kept: the pipeline may publish before POST /api/reports has answered.
    const seen: { report_id?: string; status?: string }[] = [];
    let reportId = '';
    let onMessage = () => {};
    const statusesOf = () => seen.filter((m) => m.report_id === reportId && m.status).map((m) => m.status as string);
    const finished = new Promise<string>((resolve) => {
      onMessage = () => {
        const last = statusesOf().find((s) => s.endsWith('FAIL') || s === 'SUCCESS');
        if (reportId && last) resolve(last);
      };
    });
    const subscribed = new Promise<void>((resolve) => {
      stomp.onConnect = () => {
        stomp.watchForReceipt('subscribed', () => resolve());
        stomp.subscribe(
          '/all/messages',
          (frame) => {
            seen.push(JSON.parse(frame.body));
            onMessage();
          },
          { receipt: 'subscribed' },
        );
      };
    });
    stomp.activate();
    await subscribed;

    const report = await api<{ id: string }>('POST', '/api/reports', {
      app: 'price-service',
      name: 'discounts',
      baseVersion: base,
      newVersion: head,
      envType: 'ci',
      testType: 1,
      coverageType: 'incremental',
    });
    reportId = report.id;
    onMessage();
    expect(await finished).toBe('SUCCESS');
    const statuses = statusesOf();
    await stomp.deactivate();
    const steps = ['QUEUED', 'CLONING', 'DIFF_METHODS', 'ADDING_MODULE', 'ENV_REPORT', 'GENERATING_REPORT', 'SUCCESS'];
    expect(statuses.filter((s) => steps.includes(s))).toEqual(steps);

    const engine = await sextant(['coverage', lcov, '--repo', repo, '--base', base, '--head', head, '--json']);
    expect(engine.status, engine.stderr).toBe(0);
    const expected = JSON.parse(engine.stdout) as {
      diff: {
        lines: { covered: number; total: number };
        totals: Record<string, { covered: number; total: number } | null>;
        methods: { name: string; covered: boolean }[];
      };
    };
    const stored = await api<Record<string, number | string | null>>('GET', `/api/getReport?reportId=${report.id}`);
    expect(stored.status).toBe('SUCCESS');
    expect(stored.diffLineCovered).toBe(expected.diff.lines.covered);
    expect(stored.diffLineTotal).toBe(expected.diff.lines.total);
    expect(expected.diff.lines.total).toBeGreaterThan(0);
    const line = expected.diff.totals.line;
    expect(stored.lineCovered).toBe(line?.covered ?? null);
    expect(stored.lineTotal).toBe(line?.total ?? null);
    const branch = expected.diff.totals.branch;
    expect(stored.branchCovered).toBe(branch?.covered ?? null);
    expect(stored.branchTotal).toBe(branch?.total ?? null);
    const method = expected.diff.totals.method;
    expect(stored.methodCovered).toBe(method?.covered ?? null);
    expect(stored.methodTotal).toBe(method?.total ?? null);
    expect(stored.instructionCoverage).toBeNull();

    const files = await api<{ path: string; changed: boolean }[]>('GET', `/api/reports/${report.id}/files`);
    expect(files.map((f) => f.path)).toContain('src/price.js');
    const source = await api<{ lines: string[]; marks: { line: number; hits: number }[]; changedLines: number[] }>(
      'GET',
      `/api/reports/${report.id}/source?path=${encodeURIComponent('src/price.js')}`,
    );
    expect(source.lines[11]).toContain('export function discount');
    expect(source.changedLines).toEqual(expect.arrayContaining([2, 3, 4, 12, 13, 14]));
    const hitsOf = (n: number) => source.marks.find((m) => m.line === n)?.hits;
    expect(hitsOf(3)).toBe(0); // the throw never ran
    expect(hitsOf(16)).toBeGreaterThan(0); // discount(100, 10) took the second return
  }, 180_000);
});
