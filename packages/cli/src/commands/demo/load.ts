import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PATHS, pathTo, type Report } from '@sextant/api';
import { beatDemoAgents, demoAgentOf } from './agents.ts';
import type { DemoApi } from './client.ts';
import {
  DEMO_APPS,
  DEMO_CASES,
  DEMO_PROJECT,
  DEMO_REPORTS,
  DEMO_REQUIREMENTS,
  DEMO_TEAM,
  DEMO_VERSIONS,
  type DemoApp,
  parseUploadName,
  uploadMeta,
} from './manifest.ts';
import { askDemoDecision, judgeDemoRisks } from './risks.ts';
import { sendDemoTraces } from './traces.ts';
import { DEMO_ZENTAO_CASE_KEYS, DEMO_ZENTAO_REQUIREMENT_KEYS, importDemoZentao } from './zentao.ts';

export type DemoOptions = {
  api: DemoApi;
  /** packages/cli/demo: bundles and coverage files. */
  demoDir: string;
  /** Where the apps' repositories are made; the server must be able to read them (same machine). */
  reposDir: string;
  log: (line: string) => void;
  /** Longest wait for the reports to finish. */
  timeoutMs: number;
};

type Named = { id: string; name: string };
export type DemoSummary = { created: number; existing: number; reports: Report[] };

/** Creates what is missing of the demo workspace, then waits for its reports to finish. */
export async function loadDemo(o: DemoOptions): Promise<DemoSummary> {
  const tally = { created: 0, existing: 0 };
  const ensure = async <T extends Record<string, unknown>>(
    list: string,
    field: string,
    value: string,
    body: unknown,
  ) => {
    const found = await o.api.find<T>(list, field, value);
    if (found) {
      tally.existing++;
      return found;
    }
    tally.created++;
    o.log(`creating ${list.replace(/^\/api\//, '').split('?')[0]} ${value}`);
    return o.api.call<T>('POST', list.split('?')[0] as string, body);
  };

  const team = await ensure<Named>(PATHS.teams, 'name', DEMO_TEAM.name, DEMO_TEAM);
  const apps = new Map<DemoApp['dir'], Named>();
  for (const app of DEMO_APPS) {
    const repoUrl = makeRepository(o, app);
    const body = { teamId: team.id, name: app.name, language: app.language, repoUrl, environments: app.environments };
    apps.set(app.dir, await ensure<Named>(PATHS.apps, 'name', app.name, body));
  }
  const appIds = [...apps.values()].map((a) => a.id);
  const project = await ensure<Named>(PATHS.projects, 'name', DEMO_PROJECT, {
    name: DEMO_PROJECT,
    teamId: team.id,
    appIds,
  });
  for (const [, app] of apps) {
    for (const v of DEMO_VERSIONS) {
      const body = { projectId: project.id, appId: app.id, name: v.name, newRef: v.newRef, baseRef: v.baseRef };
      await ensure<Named>(`${PATHS.versions}?projectId=${project.id}&appId=${app.id}`, 'name', v.name, body);
    }
  }
  const requirements = new Map<string, string>();
  for (const r of DEMO_REQUIREMENTS) {
    const found = await ensure<{ id: string }>(PATHS.requirements, 'key', r.key, {
      key: r.key,
      title: r.title,
      projectId: project.id,
    });
    requirements.set(r.key, found.id);
  }
  for (const c of DEMO_CASES) {
    const appId = apps.get(c.app)?.id as string;
    await ensure<{ id: string }>(`${PATHS.cases}?appId=${appId}`, 'key', c.key, {
      key: c.key,
      title: c.title,
      appId,
      requirementId: requirements.get(c.requirement) ?? null,
      type: 'automated',
    });
  }
  for (const app of DEMO_APPS) await uploadCoverage(o, app, apps.get(app.dir) as Named, tally);
  // Unit-test reports first, then a few of their risks are judged, then the QA reports run (the home
  // screen shows judgments kept across reports and items a later report resolved), then one is
  // asked a decision on (issue 34).
  const reports: Report[] = [];
  for (const testType of [1, 2] as const) {
    reports.push(...(await runReports(o, testType, tally)));
    if (testType === 1) await judgeDemoRisks(o.api, appIds, o.log);
  }
  await askDemoDecision(o.api, appIds, o.log);
  await sendDemoTraces(o.api, apps, o.log);
  await beatDemoAgents(o.api, o.reposDir, o.log);
  await importDemoZentao(o.api, o.log);
  return { ...tally, reports };
}

async function runReports(
  o: DemoOptions,
  testType: 1 | 2,
  tally: { created: number; existing: number },
): Promise<Report[]> {
  const pending: string[] = [];
  for (const app of DEMO_APPS) {
    const existing = await demoReports(o.api, app.name);
    for (const r of DEMO_REPORTS.filter((report) => report.testType === testType)) {
      const found = existing.find((e) => e.name === r.name);
      if (found) {
        tally.existing++;
        if (found.status !== 'SUCCESS') pending.push(found.id);
        continue;
      }
      tally.created++;
      o.log(`creating report ${app.name} "${r.name}"`);
      const report = await o.api.call<Report>('POST', PATHS.reports, { app: app.name, ...r });
      pending.push(report.id);
    }
  }
  return waitForReports(o, pending);
}

/** A bare repository cloned from the committed bundle, unless it is already there. */
function makeRepository(o: DemoOptions, app: DemoApp): string {
  const target = join(o.reposDir, `${app.name}.git`);
  if (!existsSync(target)) {
    mkdirSync(o.reposDir, { recursive: true });
    execFileSync('git', ['clone', '-q', '--mirror', join(o.demoDir, app.dir, 'repo.bundle'), target], {
      stdio: 'ignore',
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    });
  }
  return target;
}

function commitOf(repo: string, tag: string): string {
  return execFileSync('git', ['--git-dir', repo, 'rev-parse', `${tag}^{commit}`], { encoding: 'utf8' }).trim();
}

type UploadRow = { commit: string; envType: string; testType: number; caseId: string | null };

async function uploadCoverage(
  o: DemoOptions,
  app: DemoApp,
  created: Named,
  tally: { created: number; existing: number },
) {
  const repo = join(o.reposDir, `${app.name}.git`);
  const done = await o.api.call<{ items: UploadRow[] }>('GET', `${PATHS.uploads}?appId=${created.id}&perPage=200`);
  for (const file of readdirSync(join(o.demoDir, app.dir)).sort()) {
    const upload = parseUploadName(file);
    if (!upload) continue;
    const meta = uploadMeta(upload);
    const commit = commitOf(repo, upload.tag);
    const same = (u: UploadRow) =>
      u.commit === commit &&
      u.envType === meta.envType &&
      u.testType === meta.testType &&
      (u.caseId ?? undefined) === meta.caseId;
    if (done.items.some(same)) {
      tally.existing++;
      continue;
    }
    tally.created++;
    o.log(`uploading ${app.name} ${file}`);
    const query: Record<string, string> = {
      app: created.id,
      commit,
      envType: meta.envType,
      testType: String(meta.testType),
    };
    if (meta.caseId) query.caseId = meta.caseId;
    // Functional runs come from the QA agent beside the app under test.
    if (meta.testType === 2) query.agentId = demoAgentOf(app);
    await o.api.upload(query, join(o.demoDir, app.dir, file));
  }
}

async function demoReports(api: DemoApi, appName: string): Promise<Report[]> {
  const all: Report[] = [];
  for (const testType of [1, 2]) {
    const page = await api.call<{ reports: Report[] }>('POST', PATHS.searchReports, {
      appName,
      testType,
      perPage: 200,
    });
    all.push(...page.reports);
  }
  return all;
}

const FINISHED = /(_FAIL|FAILADDMODULE|SUCCESS)$/;

async function waitForReports(o: DemoOptions, ids: string[]): Promise<Report[]> {
  const deadline = Date.now() + o.timeoutMs;
  const finished = new Map<string, Report>();
  let last = '';
  while (finished.size < ids.length) {
    for (const id of ids) {
      if (finished.has(id)) continue;
      const report = await o.api.call<Report>('GET', `${PATHS.getReport}?reportId=${id}`);
      if (FINISHED.test(report.status)) finished.set(id, report);
    }
    const line = `reports finished: ${finished.size} of ${ids.length}`;
    if (line !== last) o.log(line);
    last = line;
    if (finished.size === ids.length) break;
    if (Date.now() > deadline) throw new Error(`the demo reports did not finish within ${o.timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const failed = [...finished.values()].filter((r) => r.status !== 'SUCCESS');
  if (failed.length > 0) {
    const first = failed[0] as Report;
    throw new Error(
      `${failed.length} demo report(s) failed; ${first.appName} "${first.name}": ${first.status} ${first.errMsg ?? ''}`,
    );
  }
  return [...finished.values()];
}

/** Deletes everything the demo made (reports, uploads and agents go with their apps). */
export async function removeDemo(o: Omit<DemoOptions, 'timeoutMs'>): Promise<number> {
  let removed = 0;
  const drop = async (path: string) => {
    await o.api.call('DELETE', path);
    removed++;
  };
  const apps: Named[] = [];
  for (const app of DEMO_APPS) {
    const found = await o.api.find<Named>(PATHS.apps, 'name', app.name);
    if (found) apps.push(found);
  }
  for (const app of apps) {
    for (const report of await demoReports(o.api, app.name)) await drop(pathTo(PATHS.report, { id: report.id }));
    for (const key of [...DEMO_CASES.map((c) => c.key), ...DEMO_ZENTAO_CASE_KEYS]) {
      const found = await o.api.find<{ id: string }>(`${PATHS.cases}?appId=${app.id}`, 'key', key);
      if (found) await drop(pathTo(PATHS.case, { id: found.id }));
    }
  }
  for (const key of [...DEMO_REQUIREMENTS.map((r) => r.key), ...DEMO_ZENTAO_REQUIREMENT_KEYS]) {
    const found = await o.api.find<{ id: string }>(PATHS.requirements, 'key', key);
    if (found) await drop(pathTo(PATHS.requirement, { id: found.id }));
  }
  const project = await o.api.find<Named>(PATHS.projects, 'name', DEMO_PROJECT);
  if (project) {
    const versions = await o.api.call<{ items: Named[] }>(
      'GET',
      `${PATHS.versions}?projectId=${project.id}&perPage=200`,
    );
    for (const v of versions.items) await drop(pathTo(PATHS.version, { id: v.id }));
    await drop(pathTo(PATHS.project, { id: project.id }));
  }
  for (const app of apps) await drop(pathTo(PATHS.app, { id: app.id }));
  const team = await o.api.find<Named>(PATHS.teams, 'name', DEMO_TEAM.name);
  if (team) await drop(pathTo(PATHS.team, { id: team.id }));
  for (const app of DEMO_APPS) rmSync(join(o.reposDir, `${app.name}.git`), { recursive: true, force: true });
  return removed;
}
