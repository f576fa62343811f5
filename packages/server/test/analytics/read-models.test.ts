import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { AppOverview, AppVersionRow, Cockpit, CommitterRow, GroupFigures, ProjectDashboard } from '@sextant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addUpload,
  FIXTURES,
  fixtureRepo,
  TERMINAL,
  useReportsApp,
  waitForReport,
} from '../reports/pipeline-support.ts';

// Issue 35: committer figures of reports made by the real pipeline equal what `sextant coverage --json`
// gives for the same repository, coverage and versions, grouped by the changed methods' blame authors.
const root = join(import.meta.dirname, '../../../..');
const cli = join(root, 'packages/cli/bin/sextant.mjs');

type EngineMethod = {
  author: string | null;
  covered: boolean;
  measured: boolean;
  counters: Record<string, { covered: number; total: number } | null>;
};

function sextant(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, ...args], { encoding: 'utf8' }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr)) : resolve(stdout),
    );
  });
}

/** The committer rows the engine's changed methods give (the definition the summaries follow). */
function byAuthor(
  methods: EngineMethod[],
): Map<string | null, Omit<CommitterRow, 'reports' | 'methodCoverage' | 'lineCoverage'>> {
  const rows = new Map<string | null, Omit<CommitterRow, 'reports' | 'methodCoverage' | 'lineCoverage'>>();
  for (const m of methods) {
    const row = rows.get(m.author) ?? {
      author: m.author,
      changedMethods: 0,
      measuredMethods: 0,
      coveredMethods: 0,
      uncoveredMethods: 0,
      lineCovered: 0,
      lineTotal: 0,
    };
    row.changedMethods++;
    if (m.measured) row.measuredMethods++;
    if (m.covered) row.coveredMethods++;
    else row.uncoveredMethods++;
    row.lineCovered += m.counters.line?.covered ?? 0;
    row.lineTotal += m.counters.line?.total ?? 0;
    rows.set(m.author, row);
  }
  return rows;
}

const git = (cwd: string, env: Record<string, string>, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8' });
const as = (name: string) => ({
  GIT_AUTHOR_NAME: name,
  GIT_AUTHOR_EMAIL: `${name.toLowerCase()}@example.com`,
  GIT_COMMITTER_NAME: name,
  GIT_COMMITTER_EMAIL: `${name.toLowerCase()}@example.com`,
});

/** A repository whose head has methods changed by two people, and LCOV for it written by hand. */
function twoAuthorRepo(dir: string): { repo: string; lcov: string } {
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  git(repo, as('Base'), 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'src/cart.js'), 'export function total(a, b) {\n  return a + b;\n}\n');
  git(repo, as('Base'), 'add', '.');
  git(repo, as('Base'), 'commit', '-q', '-m', 'base');
  git(repo, as('Base'), 'tag', 'base');
  const alice = [
    'export function total(a, b) {',
    '  const sum = a + b;',
    '  return sum;',
    '}',
    'export function discount(value) {',
    '  if (value > 100) {',
    '    return value * 0.9;',
    '  }',
    '  return value;',
    '}',
  ];
  writeFileSync(join(repo, 'src/cart.js'), `${alice.join('\n')}\n`);
  git(repo, as('Alice'), 'commit', '-q', '-am', 'alice: discount');
  const bob = ['export function refund(order) {', '  return -order.total;', '}'];
  writeFileSync(join(repo, 'src/refund.js'), `${bob.join('\n')}\n`);
  git(repo, as('Bob'), 'add', '.');
  git(repo, as('Bob'), 'commit', '-q', '-m', 'bob: refund');
  git(repo, as('Bob'), 'tag', 'head');
  // total and discount ran (discount's 100+ branch not), refund never did.
  const lcov = join(dir, 'lcov.info');
  const cart = [1, 2, 3, 5, 6, 7, 9].map((l) => `DA:${l},${l === 7 ? 0 : 1}`);
  writeFileSync(
    lcov,
    [
      'TN:',
      `SF:${join(repo, 'src/cart.js')}`,
      'FN:1,total',
      'FN:5,discount',
      'FNDA:1,total',
      'FNDA:1,discount',
      ...cart,
      'end_of_record',
      `SF:${join(repo, 'src/refund.js')}`,
      'FN:1,refund',
      'FNDA:0,refund',
      'DA:1,0',
      'DA:2,0',
      'end_of_record',
      '',
    ].join('\n'),
  );
  return { repo, lcov };
}

describe('committer analytics over real reports', () => {
  const t = useReportsApp();
  const work = mkdtempSync(join(tmpdir(), 'sx-analytics-'));
  const made = twoAuthorRepo(work);
  const jacocoRepo = fixtureRepo('jacoco');
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
    rmSync(join(jacocoRepo, '..'), { recursive: true, force: true });
  });

  const report = async (app: string, repoUrl: string, language: string, fixture: string, format: string) => {
    const created = await t.ok<{ id: string }>('POST', '/api/apps', {
      teamId: t.teamId,
      language,
      environments: ['test'],
      name: app,
      repoUrl,
    });
    await addUpload(t.db, t.dataDir, {
      appId: created.id,
      commit: 'head',
      envType: 'test',
      testType: 1,
      fixture,
      format,
    });
    const body = { app, name: `${app} head`, baseVersion: 'base', newVersion: 'head', envType: 'test', testType: 1 };
    const queued = await t.ok<{ id: string }>('POST', '/api/reports', { ...body, coverageType: 'incremental' });
    const done = await waitForReport(t.db, queued.id);
    expect(done.status, done.errMsg ?? '').toBe('SUCCESS');
    return { appId: created.id, reportId: queued.id };
  };
  let cart: { appId: string; reportId: string };
  let calculator: { appId: string; reportId: string };

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--cli', '--if-missing']);
    cart = await report('cart', made.repo, 'javascript', relative(FIXTURES, made.lcov), 'lcov');
    calculator = await report('calculator', jacocoRepo, 'java', 'jacoco/jacoco-main.xml', 'jacoco');
  }, 180_000);

  const committers = async (query: string) => {
    const res = await t.call('GET', `/api/analytics/committers?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { items: CommitterRow[]; total: number };
  };
  const engine = async (file: string, repo: string) =>
    JSON.parse(await sextant(['coverage', file, '--repo', repo, '--base', 'base', '--head', 'head', '--json'])).diff
      .methods as EngineMethod[];

  it("equals the engine's changed methods per author, for each app", async () => {
    for (const [app, file, repo] of [
      [cart, made.lcov, made.repo],
      [calculator, join(FIXTURES, 'jacoco/jacoco-main.xml'), jacocoRepo],
    ] as const) {
      const expected = byAuthor(await engine(file, repo));
      const page = await committers(`appId=${app.appId}&perPage=50&sortBy=author`);
      expect(page.total).toBe(expected.size);
      for (const row of page.items) {
        const want = expected.get(row.author);
        expect(want, String(row.author)).toBeDefined();
        expect(row).toMatchObject({ ...want, reports: 1 });
        expect(row.methodCoverage).toBe(row.changedMethods ? row.coveredMethods / row.changedMethods : null);
      }
    }
  });

  it('by hand: Alice changed two methods and both ran, Bob one that never ran', async () => {
    const page = await committers(`appId=${cart.appId}&sortBy=uncoveredMethods&sortDesc=true`);
    expect(page.items.map((r) => [r.author, r.changedMethods, r.coveredMethods, r.uncoveredMethods])).toEqual([
      ['Bob <bob@example.com>', 1, 0, 1],
      ['Alice <alice@example.com>', 2, 2, 0],
    ]);
  });

  it('sums apps, pages on the server, and a re-run replaces its summaries', async () => {
    const all = await committers('perPage=1&sortBy=changedMethods&sortDesc=true');
    const bobs = (await committers('perPage=50')).items.filter((r) => r.author?.endsWith('<bob@example.com>'));
    expect(all.items).toHaveLength(1);
    expect(all.total).toBeGreaterThanOrEqual(2);
    // Bob changed methods in both repositories (the JaCoCo fixture's author is Bob Fixture <bob@example.com>).
    expect(bobs.length).toBe(2);
    const before = await committers(`appId=${cart.appId}&sortBy=author`);
    await t.ok('PATCH', `/api/reports/${cart.reportId}`, { rerun: true });
    const rerun = await waitForReport(t.db, cart.reportId, (row) => row.run === 2 && TERMINAL.includes(row.status));
    expect(rerun.status).toBe('SUCCESS');
    const after = await committers(`appId=${cart.appId}&sortBy=author`);
    expect(after).toEqual(before);
  });

  it('the trend follows versions; the filters narrow', async () => {
    const trend = await t.call('GET', `/api/analytics/committers/trend?appId=${cart.appId}`);
    expect(trend.json().data.versions).toEqual(['head']);
    expect((await committers(`appId=${cart.appId}&testType=2`)).total).toBe(0);
    expect((await committers(`appId=${cart.appId}&version=other`)).total).toBe(0);
    expect((await committers(`appId=${cart.appId}&from=2000-01-01&to=2000-01-02`)).total).toBe(0);
  });

  const get = async <T>(url: string) => {
    const res = await t.call('GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as T;
  };

  it("app analytics: a version's row carries its incremental report's stored figures", async () => {
    const stored = await get<{ diffLineCovered: number; diffLineTotal: number }>(
      `/api/getReport?reportId=${cart.reportId}`,
    );
    const page = await get<{ items: AppVersionRow[]; total: number }>(`/api/analytics/apps?appId=${cart.appId}`);
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      appName: 'cart',
      teamName: 'reporting',
      version: 'head',
      testType: 1,
      fullReportId: null,
      lineCoverage: null,
      incrementalReportId: cart.reportId,
      diffLineCoverage: stored.diffLineCovered / stored.diffLineTotal,
      changedMethods: 3,
      coveredMethods: 2,
    });
    const sorted = await get<{ items: AppVersionRow[] }>('/api/analytics/apps?sortBy=appName');
    expect(sorted.items.map((r) => r.appName)).toEqual(['calculator', 'cart']);
    const overview = await get<AppOverview>('/api/analytics/apps/overview');
    expect(overview.activity.reduce((n, d) => n + d.succeeded, 0)).toBeGreaterThanOrEqual(2);
    expect(overview.trend.every((w) => w.testType === 1 && w.lineCoverage === null)).toBe(true);
  });

  it('versions, projects, the cockpit and a project dashboard sum the same stored figures', async () => {
    const [head] = await get<GroupFigures[]>('/api/analytics/versions');
    const all = await committers('perPage=50');
    expect(head).toMatchObject({ key: 'head', apps: 2, reports: 2 });
    expect(head?.changedMethods).toBe(all.items.reduce((n, r) => n + r.changedMethods, 0));
    expect(head?.coveredMethods).toBe(all.items.reduce((n, r) => n + r.coveredMethods, 0));

    const project = await t.ok<{ id: string }>('POST', '/api/projects', {
      name: 'checkout',
      teamId: t.teamId,
      appIds: [cart.appId],
    });
    const projects = await get<GroupFigures[]>('/api/analytics/projects');
    expect(projects.find((p) => p.key === project.id)).toMatchObject({
      name: 'checkout',
      apps: 1,
      changedMethods: 3,
      coveredMethods: 2,
    });
    const dashboard = await get<ProjectDashboard>(`/api/analytics/projects/${project.id}`);
    expect(dashboard.standings.map((s) => [s.appName, s.reportId])).toEqual([['cart', cart.reportId]]);
    expect(dashboard.versions).toHaveLength(1);
    const missing = await t.call('GET', '/api/analytics/projects/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);

    const cockpit = await get<Cockpit>(`/api/analytics/cockpit?teamId=${t.teamId}`);
    expect(cockpit.apps).toBe(2);
    expect(cockpit.standings.map((s) => s.appName).sort()).toEqual(['calculator', 'cart']);
  });

  it('answers 403 to a role without the Analytics resource', async () => {
    const reader = await t.createUser('plain-client', 'client');
    const res = await t.call('GET', '/api/analytics/committers', undefined, reader.headers);
    expect(res.statusCode).toBe(403);
  });
});
