import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/run.ts';

// Issue 7: `sextant demo` against a real server process — every report reaches SUCCESS, a second
// run leaves the same counts, and --remove leaves none of it.
const root = join(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'sx-demo-'));
let server: ChildProcess;
let url = '';
let token = '';

async function sextant(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    cwd: root,
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    colour: false,
  });
  return { code, stdout, stderr };
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(new URL(path, url), {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, path).toBeLessThan(300);
  return ((await res.json()) as { data: T }).data;
}

/** Asks `probe` again (each answer a round trip to the server) until it returns a value, or fails after `timeoutMs`. */
async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not there after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** How many of each kind of object the server holds (all of them are the demo's on this server). */
async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const list of ['teams', 'apps', 'projects', 'versions', 'requirements', 'cases']) {
    out[list] = (await api<{ total: number }>('GET', `/api/${list}?perPage=1`)).total;
  }
  for (const testType of [1, 2]) {
    const page = await api<{ total: number; reports: { status: string }[] }>('POST', '/api/searchReports', {
      testType,
      perPage: 100,
    });
    out[`reports${testType}`] = page.total;
    out[`succeeded${testType}`] = page.reports.filter((r) => r.status === 'SUCCESS').length;
  }
  const apps = await api<{ items: { id: string }[] }>('GET', '/api/apps?perPage=100');
  out.uploads = 0;
  for (const app of apps.items) {
    out.uploads += (await api<{ total: number }>('GET', `/api/coverage/uploads?appId=${app.id}&perPage=1`)).total;
  }
  return out;
}

beforeAll(async () => {
  server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SEXTANT_DATA_DIR: dataDir, SEXTANT_ADMIN_PASSWORD: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    server.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (match) resolve(match[1] as string);
    });
    server.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('sextant demo', () => {
  it('signs in with the generated password, loads everything, and every report succeeds', async () => {
    expect(existsSync(join(dataDir, 'initial-admin-password'))).toBe(true);
    const first = await sextant(['demo', '--server', url, '--data-dir', dataDir]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/demo workspace ready: \d+ created, 0 already there/);
    const password = readFileSync(join(dataDir, 'initial-admin-password'), 'utf8').trim();
    const login = await fetch(new URL('/api/login', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const after = await counts();
    expect(after).toMatchObject({
      teams: 1,
      apps: 2,
      projects: 1,
      versions: 4,
      // Six requirements and four cases of the demo's own, four of each imported from its ZenTao plan.
      requirements: 10,
      cases: 8,
      uploads: 10,
    });
    // Issue 35: the ZenTao import's summary stays, the settings pointing at the demo's server do not.
    const zentao = await api<{ url: string | null; lastImport: { requirements: { created: number } } }>(
      'GET',
      '/api/zentao',
    );
    expect(zentao.url).toBeNull();
    expect(zentao.lastImport.requirements.created).toBe(4);
    expect(first.stderr).toMatch(/ZenTao import: requirements 4 created, 0 updated, 0 unchanged, 0 refused/);
    expect(after.reports1).toBe(6);
    expect(after.reports2).toBe(6);
    expect(after.succeeded1).toBe(6);
    expect(after.succeeded2).toBe(6);
    // Issue 35: each app's QA agent beat, and its functional uploads name it.
    const apps0 = await api<{ items: { id: string; name: string }[] }>('GET', '/api/apps?perPage=100');
    for (const app of apps0.items) {
      const agents = await api<{ agentId: string; envType: string }[]>('GET', `/api/apps/${app.id}/agents`);
      expect(agents.map((a) => [a.agentId, a.envType])).toEqual([[`${app.name}-qa-agent`, 'test']]);
    }
    // Issue 36: each app's traces across 1.0 and 1.1; in 1.1 one interface is slower, one fails more.
    const apps = await api<{ items: { id: string; name: string }[] }>('GET', '/api/apps?perPage=100');
    for (const app of apps.items) {
      const found = await api<{ items: unknown[] }>('GET', `/api/traces/interfaces?appId=${app.id}`);
      expect(found.items, app.name).toHaveLength(4);
      const run = await api<{ counts: Record<string, number> }>('POST', '/api/traces/regressions', {
        appId: app.id,
        name: 'demo 1.0 → 1.1',
        base: { kind: 'version', version: '1.0' },
        candidate: { kind: 'version', version: '1.1' },
      });
      expect(run.counts, app.name).toMatchObject({ slower: 1, 'failing-more': 1, added: 0, removed: 0 });
    }
    // Issue 34: the home screen holds risks in every state, judged through the public API; the
    // "needs test" item was then covered by a QA report (resolved, its judgment kept).
    const risks = await api<{ items: { kind: string; state: string; judgment: string | null }[] }>(
      'GET',
      '/api/risks?perPage=200',
    );
    expect(new Set(risks.items.map((r) => r.state)), first.stderr).toEqual(
      new Set(['observing', 'pending', 'judged', 'resolved']),
    );
    expect(
      risks.items
        .filter((r) => r.judgment)
        .map((r) => `${r.state} ${r.judgment}`)
        .sort(),
    ).toEqual(['judged accepted', 'judged false-positive', 'resolved needs-test']);

    const second = await sextant(['demo', '--server', url, '--data-dir', dataDir]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/0 created/);
    expect(await counts()).toEqual(after);
    // Coverage risks come from the reports, so a second run leaves them as they were. Exception and
    // performance risks come from the demo's traces by a job that runs after intake (at most every
    // half minute), so they may land on either side of the first listing; they must land, once.
    const coverageStates = async () =>
      (await api<{ items: { state: string }[] }>('GET', '/api/risks?kind=coverage&perPage=200')).items
        .map((r) => r.state)
        .sort();
    expect(await coverageStates()).toEqual(
      risks.items
        .filter((r) => r.kind === 'coverage')
        .map((r) => r.state)
        .sort(),
    );
    const traceKinds = await eventually(async () => {
      const found = await api<{ items: { kind: string; appName: string }[] }>('GET', '/api/risks?perPage=200');
      const kinds = found.items.filter((r) => r.kind !== 'coverage').map((r) => `${r.appName} ${r.kind}`);
      return kinds.length >= 4 ? kinds.sort() : undefined;
    }, 120_000);
    expect(new Set(traceKinds).size, 'one item per app and kind').toBe(traceKinds.length);
    expect(new Set(traceKinds.map((k) => k.split(' ')[1]))).toEqual(new Set(['exception', 'performance']));

    const removed = await sextant(['demo', '--remove', '--server', url, '--data-dir', dataDir]);
    expect(removed.code, removed.stderr).toBe(0);
    const none = await counts();
    for (const [kind, n] of Object.entries(none)) expect(n, kind).toBe(0);
    expect(existsSync(join(dataDir, 'demo-repos', 'demo-inventory.git'))).toBe(false);
  }, 600_000);
});
