import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { CaseAnalyticRow, CaseImpact, CaseMethods, RequirementAnalyticRow } from '@sextant/api';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUpload, FIXTURES, TERMINAL, useReportsApp, waitForReport } from '../reports/pipeline-support.ts';
import { referenceCaseImpact, referenceCaseMethods } from './case-reads-reference.ts';

// Issue 35: requirement and case analytics over reports made by the real pipeline, on a repository this
// test writes. shop.js has price, tax and ship. v1 changes price (REQ-1); the QA run of v1 has case
// TC-1 running price and tax, TC-2 price only. v2 changes tax and ship (REQ-2) and price (REQ-3); its
// unit run covers tax, its QA run TC-1 price. For v2, by hand: re-run TC-1 (reaches price and tax),
// then TC-2 (price); tax is reached by one case only; ship by none: the one test gap.
const root = join(import.meta.dirname, '../../../..');
const cli = join(root, 'packages/cli/bin/sextant.mjs');

const FUNCTIONS = [
  { name: 'price', line: 1 },
  { name: 'tax', line: 4 },
  { name: 'ship', line: 7 },
] as const;
type Fn = (typeof FUNCTIONS)[number]['name'];

function source(bodies: Record<Fn, string>): string {
  return `${FUNCTIONS.map((f) => `export function ${f.name}(x) {\n  ${bodies[f.name]}\n}`).join('\n')}\n`;
}

const git = (cwd: string, message: string | null, ...args: string[]) =>
  execFileSync('git', message === null ? args : [...args, '-m', message], {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Dana',
      GIT_AUTHOR_EMAIL: 'dana@example.com',
      GIT_COMMITTER_NAME: 'Dana',
      GIT_COMMITTER_EMAIL: 'dana@example.com',
    },
    encoding: 'utf8',
  });

function shopRepo(dir: string): string {
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  const file = join(repo, 'src/shop.js');
  git(repo, null, 'init', '-q', '-b', 'main');
  const bodies: Record<Fn, string> = { price: 'return x;', tax: 'return x * 0.1;', ship: 'return 5;' };
  writeFileSync(file, source(bodies));
  git(repo, null, 'add', '.');
  git(repo, 'initial', 'commit', '-q');
  git(repo, null, 'tag', 'v0');
  writeFileSync(file, source({ ...bodies, price: 'return x + 1;' }));
  git(repo, 'REQ-1 price adds the fee', 'commit', '-q', '-a');
  git(repo, null, 'tag', 'v1');
  writeFileSync(file, source({ price: 'return x + 1;', tax: 'return x * 0.2;', ship: 'return x > 50 ? 0 : 5;' }));
  git(repo, 'REQ-2 new tax rate and free shipping', 'commit', '-q', '-a');
  writeFileSync(
    file,
    source({ price: 'return Math.round(x + 1);', tax: 'return x * 0.2;', ship: 'return x > 50 ? 0 : 5;' }),
  );
  git(repo, 'REQ-3 rounded prices', 'commit', '-q', '-a');
  git(repo, null, 'tag', 'v2');
  return repo;
}

/** LCOV of shop.js where the named functions ran (each function's three lines hit). */
function lcov(dir: string, repo: string, name: string, ran: Fn[]): string {
  const path = join(dir, `${name}.info`);
  const lines = FUNCTIONS.flatMap((f) => [0, 1, 2].map((i) => `DA:${f.line + i},${ran.includes(f.name) ? 1 : 0}`));
  const fns = FUNCTIONS.flatMap((f) => [`FN:${f.line},${f.name}`, `FNDA:${ran.includes(f.name) ? 1 : 0},${f.name}`]);
  writeFileSync(path, ['TN:', `SF:${join(repo, 'src/shop.js')}`, ...fns, ...lines, 'end_of_record', ''].join('\n'));
  return path;
}

function sextant(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, ...args], { encoding: 'utf8' }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr)) : resolve(stdout),
    );
  });
}

describe('requirement and case analytics over real reports', () => {
  const t = useReportsApp();
  const work = mkdtempSync(join(tmpdir(), 'sx-analytics-cases-'));
  const repo = shopRepo(work);
  const files = {
    v1tc1: lcov(work, repo, 'v1-TC-1', ['price', 'tax']),
    v1tc2: lcov(work, repo, 'v1-TC-2', ['price']),
    v2unit: lcov(work, repo, 'v2-unit', ['tax']),
    v2tc1: lcov(work, repo, 'v2-TC-1', ['price']),
  };
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  let appId = '';
  let v2qa = '';

  const upload = (commit: string, file: string, testType: 1 | 2, caseId?: string) =>
    addUpload(t.db, t.dataDir, {
      appId,
      commit,
      envType: testType === 1 ? 'dev' : 'test',
      testType,
      fixture: relative(FIXTURES, file),
      format: 'lcov',
      ...(caseId ? { caseId } : {}),
    });
  const report = async (base: string, head: string, testType: 1 | 2) => {
    const queued = await t.ok<{ id: string }>('POST', '/api/reports', {
      app: 'shop',
      name: `shop ${head} ${testType}`,
      baseVersion: base,
      newVersion: head,
      envType: testType === 1 ? 'dev' : 'test',
      testType,
      coverageType: 'incremental',
    });
    const done = await waitForReport(t.db, queued.id);
    expect(done.status, done.errMsg ?? '').toBe('SUCCESS');
    return queued.id;
  };

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--cli', '--if-missing']);
    appId = (
      await t.ok<{ id: string }>('POST', '/api/apps', {
        teamId: t.teamId,
        language: 'javascript',
        environments: ['dev', 'test'],
        name: 'shop',
        repoUrl: repo,
      })
    ).id;
    const projectId = (
      await t.ok<{ id: string }>('POST', '/api/projects', { name: 'shop', teamId: t.teamId, appIds: [appId] })
    ).id;
    const requirement = async (key: string) =>
      (await t.ok<{ id: string }>('POST', '/api/requirements', { key, title: `${key} title`, projectId })).id;
    const req2 = await requirement('REQ-2');
    await requirement('REQ-3');
    await requirement('REQ-9');
    await t.ok('POST', '/api/cases', {
      key: 'TC-1',
      title: 'Buy with tax',
      appId,
      requirementId: req2,
      type: 'manual',
    });
    await t.ok('POST', '/api/cases', { key: 'TC-3', title: 'Never ran', appId, requirementId: req2, type: 'manual' });
    await upload('v1', files.v1tc1, 2, 'TC-1');
    await upload('v1', files.v1tc2, 2, 'TC-2');
    await report('v0', 'v1', 2);
    await upload('v2', files.v2unit, 1);
    await report('v1', 'v2', 1);
    await upload('v2', files.v2tc1, 2, 'TC-1');
    v2qa = await report('v1', 'v2', 2);
  }, 180_000);

  const get = async <T>(url: string) => {
    const res = await t.call('GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as T;
  };

  it('cases to re-run and test gaps of v2, checked by hand', async () => {
    const impact = await get<CaseImpact>(`/api/analytics/cases/impact?appId=${appId}`);
    expect(impact.versions).toEqual([{ appName: 'shop', version: 'v2' }]);
    expect(impact.changedMethods).toBe(3);
    expect(impact.reachedMethods).toBe(2);
    expect(impact.reruns.map((r) => [r.caseKey, r.reached, r.title])).toEqual([
      ['TC-1', 2, 'Buy with tax'],
      ['TC-2', 1, null],
    ]);
    expect(impact.gaps.total).toBe(1);
    expect(impact.gaps.items.map((g) => [g.filePath, g.method, g.version, g.changeStatus])).toEqual([
      ['src/shop.js', 'ship', 'v2', 'modified'],
    ]);
    // v1's changed method (price) was reached by v1's cases: no gap there, no earlier run to re-run.
    const v1 = await get<CaseImpact>(`/api/analytics/cases/impact?appId=${appId}&version=v1`);
    expect([v1.changedMethods, v1.reruns.length, v1.gaps.total]).toEqual([1, 0, 0]);
  });

  it('per case: runs, methods, what it alone covers, changed methods of its latest version', async () => {
    const page = await get<{ items: CaseAnalyticRow[]; total: number }>(`/api/analytics/cases?appId=${appId}`);
    expect(page.total).toBe(3);
    const rows = page.items.map((r) => [
      r.caseKey,
      r.runs,
      r.reports,
      r.methods,
      r.aloneMethods,
      r.latestVersion,
      r.changedMethods,
    ]);
    expect(rows).toEqual([
      ['TC-1', 2, 2, 2, 1, 'v2', 1],
      ['TC-2', 1, 1, 1, 0, 'v1', 1],
      ['TC-3', 0, 0, 0, 0, null, 0],
    ]);
    const tc1 = await get<CaseMethods>(`/api/analytics/cases/methods?appId=${appId}&caseKey=TC-1`);
    expect(tc1.alone.map((m) => m.method)).toEqual(['tax']);
    expect(tc1).toMatchObject({ latestVersion: 'v2', changed: [{ filePath: 'src/shop.js', method: 'price' }] });
    // The engine on TC-1's own v2 coverage: the changed methods it covered are the ones stored.
    const engine = JSON.parse(
      await sextant(['coverage', files.v2tc1, '--repo', repo, '--base', 'v1', '--head', 'v2', '--json']),
    ).diff.methods as { name: string; covered: boolean }[];
    expect(engine.filter((m) => m.covered).map((m) => m.name)).toEqual(tc1.changed.map((m) => m.method));
    const sorted = await get<{ items: CaseAnalyticRow[] }>(
      `/api/analytics/cases?appId=${appId}&sortBy=runs&sortDesc=true&perPage=1`,
    );
    expect(sorted.items.map((r) => r.caseKey)).toEqual(['TC-1']);
    expect((await get<{ total: number }>(`/api/analytics/cases?appId=${appId}&version=v1`)).total).toBe(3);
    expect((await t.call('GET', `/api/analytics/cases?sortBy=nope`)).statusCode).toBe(400);
  });

  it('per requirement: its commits, their changed methods covered by unit and functional tests, cases, risks', async () => {
    const page = await get<{ items: RequirementAnalyticRow[]; total: number }>(
      `/api/analytics/requirements?appId=${appId}&perPage=50`,
    );
    const byKey = new Map(page.items.map((r) => [r.key, r]));
    expect([...byKey.keys()]).toEqual(['REQ-1', 'REQ-2', 'REQ-3', 'REQ-9']);
    const req2 = byKey.get('REQ-2');
    expect(req2?.commits.map((c) => c.subject)).toEqual(['REQ-2 new tax rate and free shipping']);
    expect(req2).toMatchObject({ title: 'REQ-2 title', changedMethods: 2, unitCovered: 1, unitMeasured: 2 });
    expect([req2?.functionalCovered, req2?.functionalMeasured, req2?.casesRun]).toEqual([0, 2, 1]);
    expect(req2?.methods.map((m) => [m.method, m.unitCovered, m.functionalCovered])).toEqual([
      ['ship', false, false],
      ['tax', true, false],
    ]);
    expect(req2?.cases.map((c) => [c.key, c.runs])).toEqual([
      ['TC-1', 2],
      ['TC-3', 0],
    ]);
    expect(byKey.get('REQ-3')).toMatchObject({ changedMethods: 1, unitCovered: 0, functionalCovered: 1 });
    // REQ-1 was v1's: a unit run never measured it.
    expect(byKey.get('REQ-1')).toMatchObject({
      requirementId: null,
      changedMethods: 1,
      unitMeasured: 0,
      unitCoverage: null,
    });
    expect(byKey.get('REQ-9')).toMatchObject({ changedMethods: 0, commits: [] });
    const worst = await get<{ items: RequirementAnalyticRow[] }>(
      `/api/analytics/requirements?appId=${appId}&sortBy=openRisks&sortDesc=true&perPage=1`,
    );
    expect(worst.items[0]?.openRisks).toBeGreaterThan(0);
  });

  it('the summaries equal what the per-method rows give', async () => {
    // Per report and case: the count of its method rows, and of those changed.
    const kept = await t.db.execute(sql`select report_id, case_key, methods, changed_methods from report_case_summaries
      order by report_id, case_key`);
    const counted = await t.db.execute(sql`select report_id, case_key, count(*)::int as methods,
        (count(*) filter (where changed))::int as changed_methods
      from report_case_methods group by report_id, case_key order by report_id, case_key`);
    expect(kept.rows.length).toBeGreaterThan(0);
    expect(kept.rows).toEqual(counted.rows);
    // Over the app alone the lists read the per-app summaries; a day filter holding every report makes
    // them read the per-report and per-method rows: the same answers.
    const everyDay = 'from=2000-01-01';
    const lists = [
      `/api/analytics/cases?appId=${appId}`,
      `/api/analytics/cases?appId=${appId}&sortBy=changedMethods&sortDesc=true`,
      `/api/analytics/requirements?appId=${appId}&perPage=50`,
      `/api/analytics/requirements?appId=${appId}&sortBy=unitCoverage`,
    ];
    for (const list of lists) {
      expect(await get<unknown>(list), list).toEqual(await get<unknown>(`${list}&${everyDay}`));
    }
    const summaries = await t.db.execute(
      sql`select count(*)::int as n from app_case_summaries where app_id = ${appId}`,
    );
    const requirements = await t.db.execute(
      sql`select count(*)::int as n from requirement_app_summaries where app_id = ${appId}`,
    );
    expect([summaries.rows[0]?.n, requirements.rows[0]?.n]).toEqual([2, 3]);
    // The page's union figures (methods, alone) equal those of the list sorted by them (every case's counted).
    const page = await get<{ items: CaseAnalyticRow[] }>(`/api/analytics/cases?appId=${appId}`);
    const sorted = await get<{ items: CaseAnalyticRow[] }>(`/api/analytics/cases?appId=${appId}&sortBy=methods`);
    const figures = (rows: CaseAnalyticRow[]) =>
      rows.map((r) => [r.caseKey, r.methods, r.aloneMethods]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(figures(page.items)).toEqual(figures(sorted.items));
    // Cases run and open risks, counted for the page only, equal those of the list sorted by them.
    const reqs = await get<{ items: RequirementAnalyticRow[] }>(
      `/api/analytics/requirements?appId=${appId}&perPage=50`,
    );
    const byRisk = await get<{ items: RequirementAnalyticRow[] }>(
      `/api/analytics/requirements?appId=${appId}&perPage=50&sortBy=openRisks`,
    );
    const extras = (rows: RequirementAnalyticRow[]) =>
      rows.map((r) => [r.key, r.casesRun, r.openRisks]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(extras(reqs.items)).toEqual(extras(byRisk.items));
  });

  it('a re-run replaces its summaries', async () => {
    const before = await get<CaseImpact>(`/api/analytics/cases/impact?appId=${appId}`);
    const cases = await get<unknown>(`/api/analytics/cases?appId=${appId}`);
    const kept = async () => ({
      report: (
        await t.db.execute(sql`select case_key, methods, changed_methods from report_case_summaries
          where report_id = ${v2qa} order by case_key`)
      ).rows,
      cases: (await t.db.execute(sql`select * from app_case_summaries where app_id = ${appId} order by case_key`)).rows,
      requirements: (
        await t.db.execute(sql`select * from requirement_app_summaries where app_id = ${appId}
          order by requirement_key`)
      ).rows,
    });
    const before2 = await kept();
    expect(before2.report.length).toBeGreaterThan(0);
    await t.ok('PATCH', `/api/reports/${v2qa}`, { rerun: true });
    const rerun = await waitForReport(t.db, v2qa, (row) => row.run === 2 && TERMINAL.includes(row.status));
    expect(rerun.status).toBe('SUCCESS');
    expect(await get<CaseImpact>(`/api/analytics/cases/impact?appId=${appId}`)).toEqual(before);
    expect(await get<unknown>(`/api/analytics/cases?appId=${appId}`)).toEqual(cases);
    // Replaced, not added to: the same rows, once.
    expect(await kept()).toEqual(before2);
  });

  it("case impact and a case's methods from the reach rows equal the reads over every report's method rows", async () => {
    const shop = [{ id: appId, name: 'shop', teamId: t.teamId, teamName: 'reporting' }];
    const filters: Record<string, string>[] = [
      {},
      { version: 'v1' },
      { version: 'v2' },
      { version: 'v9' },
      { testType: '1' },
      { testType: '2' },
      { envType: 'test' },
      { envType: 'dev', testType: '2' },
      { from: '2000-01-01' },
      { perPage: '1', page: '2' },
    ];
    for (const filter of filters) {
      const { page, perPage, testType, ...rest } = filter;
      const scope = { apps: shop, ...rest, ...(testType ? { testType: Number(testType) as 1 | 2 } : {}) };
      const query = new URLSearchParams({ appId, ...filter });
      const paging = { page: Number(page ?? 1), perPage: Number(perPage ?? 20) };
      expect(await get<CaseImpact>(`/api/analytics/cases/impact?${query}`), `${query}`).toEqual(
        await referenceCaseImpact(t.db, scope, paging),
      );
      for (const caseKey of ['TC-1', 'TC-2', 'TC-3']) {
        query.set('caseKey', caseKey);
        expect(await get<CaseMethods>(`/api/analytics/cases/methods?${query}`), `${query}`).toEqual(
          await referenceCaseMethods(t.db, scope, caseKey),
        );
      }
    }
    // The reach rows the triggers and the writer kept equal a count over the successful reports' case rows.
    const kept = await t.db.execute(sql`select case_key, file_path, class_name, method, test_type, env_type,
        new_version, first_at, reports from app_case_method_reach where app_id = ${appId} order by 1, 2, 3, 4, 5, 6, 7`);
    const counted = await t.db.execute(sql`select c.case_key, c.file_path, c.class_name, c.method, r.test_type,
        r.env_type, r.new_version, min(coalesce(r.finished_at, r.created_at)) as first_at, count(*)::int as reports
      from reports r join report_case_methods c on c.report_id = r.id where r.app_id = ${appId} and r.status = 'SUCCESS'
      group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7`);
    expect(kept.rows.length).toBeGreaterThan(0);
    expect(kept.rows).toEqual(counted.rows);
    // A report leaving SUCCESS takes its rows out of its group; back, they return.
    await t.db.execute(sql`update reports set status = 'GENERATEREPORT_FAIL' where id = ${v2qa}`);
    const without = await t.db.execute(sql`select count(*)::int as n from app_case_method_reach
      where app_id = ${appId} and new_version = 'v2' and test_type = 2`);
    expect(without.rows).toEqual([{ n: 0 }]);
    await t.db.execute(sql`update reports set status = 'SUCCESS' where id = ${v2qa}`);
    const back = await t.db.execute(sql`select case_key, file_path, class_name, method, test_type, env_type,
        new_version, first_at, reports from app_case_method_reach where app_id = ${appId} order by 1, 2, 3, 4, 5, 6, 7`);
    expect(back.rows).toEqual(kept.rows);
  });

  it('the summaries of reports made before they were kept are derived again, equal to what the pipeline wrote', async () => {
    const ids = (await t.db.execute(sql`select id from reports where app_id = ${appId} order by id`)).rows.map((r) =>
      String(r.id),
    );
    const summaries = async () => ({
      committers: (
        await t.db.execute(sql`select * from report_committers where report_id = any(${`{${ids}}`}::uuid[])
        order by report_id, author`)
      ).rows,
      cases: (
        await t.db.execute(sql`select * from report_case_methods where report_id = any(${`{${ids}}`}::uuid[])
        order by report_id, case_key, file_path, class_name, method`)
      ).rows,
      requirements: (
        await t.db.execute(sql`select * from report_requirements
        where report_id = any(${`{${ids}}`}::uuid[]) order by report_id, requirement_key`)
      ).rows,
      caseCounts: (
        await t.db.execute(sql`select * from report_case_summaries where report_id = any(${`{${ids}}`}::uuid[])
        order by report_id, case_key`)
      ).rows,
      appCases: (await t.db.execute(sql`select * from app_case_summaries where app_id = ${appId} order by case_key`))
        .rows,
      appRequirements: (
        await t.db.execute(sql`select * from requirement_app_summaries where app_id = ${appId}
        order by requirement_key`)
      ).rows,
      reach: (
        await t.db.execute(sql`select * from app_case_method_reach where app_id = ${appId}
        order by file_path, class_name, method, case_key, test_type, env_type, new_version`)
      ).rows,
    });
    const written = await summaries();
    expect(ids).toHaveLength(3);
    expect(written.cases.length).toBeGreaterThan(0);
    expect(written.requirements.length).toBeGreaterThan(0);
    expect(written.committers.length).toBeGreaterThan(0);
    expect(written.appCases.length).toBeGreaterThan(0);
    expect(written.appRequirements.length).toBeGreaterThan(0);
    expect(written.reach.length).toBeGreaterThan(0);
    // As a report finished before migration 0017 stands: no summaries, no summaries version.
    for (const table of ['report_committers', 'report_case_methods', 'report_requirements', 'report_case_summaries']) {
      await t.db.execute(sql`delete from ${sql.identifier(table)} where report_id = any(${`{${ids}}`}::uuid[])`);
    }
    await t.db.execute(sql`delete from app_case_summaries where app_id = ${appId}`);
    await t.db.execute(sql`delete from requirement_app_summaries where app_id = ${appId}`);
    await t.db.execute(sql`delete from app_case_method_reach where app_id = ${appId}`);
    await t.db.execute(sql`update reports set summaries_version = null where app_id = ${appId}`);
    expect(await t.app.reportSummaries.pending()).toBe(true);

    expect(await t.app.reportSummaries.run()).toEqual({ derived: 3, givenUp: 0 });
    expect(await summaries()).toEqual(written);
    const versions = await t.db.execute(
      sql`select distinct summaries_version as v from reports where app_id = ${appId}`,
    );
    expect(versions.rows).toEqual([{ v: 1 }]);
    expect(await t.app.reportSummaries.pending()).toBe(false);
    expect(await t.app.reportSummaries.run()).toEqual({ derived: 0, givenUp: 0 });
  });

  it('a report whose uploads are gone is given up on, once, and keeps nothing half-written', async () => {
    const [report] = (await t.db.execute(sql`select id from reports where app_id = ${appId} and test_type = 1 limit 1`))
      .rows;
    const id = String(report?.id);
    const stored = await t.db.execute(sql`select stored_path from coverage_uploads where app_id = ${appId}
      and test_type = 1`);
    for (const row of stored.rows) rmSync(join(t.dataDir, String(row.stored_path)));
    await t.db.execute(sql`update reports set summaries_version = null where id = ${id}`);
    const before = await t.db.execute(sql`select count(*)::int as n from report_committers where report_id = ${id}`);
    expect(await t.app.reportSummaries.run()).toEqual({ derived: 0, givenUp: 1 });
    const after = await t.db.execute(sql`select count(*)::int as n from report_committers where report_id = ${id}`);
    expect(after.rows).toEqual(before.rows);
    const [marked] = (await t.db.execute(sql`select summaries_version as v from reports where id = ${id}`)).rows;
    expect(marked).toEqual({ v: -1 });
    expect(await t.app.reportSummaries.run()).toEqual({ derived: 0, givenUp: 0 });
  });

  it('requirement analytics answers 403 in the lite edition; case analytics stays', async () => {
    await t.ok('PATCH', '/api/settings', { licenseVersion: 'lite' });
    try {
      const res = await t.call('GET', '/api/analytics/requirements');
      expect(res.json()).toMatchObject({ code: 403, data: { error: 'edition-forbidden' } });
      expect((await t.call('GET', '/api/analytics/cases')).statusCode).toBe(200);
    } finally {
      await t.ok('PATCH', '/api/settings', { licenseVersion: 'advanced' });
    }
  });
});
