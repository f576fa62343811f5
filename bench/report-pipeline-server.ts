// The report pipeline through the real server, in a process of its own (its peak RSS is the server's):
//   npx tsx bench/report-pipeline-server.ts pglite|postgres  → one JSON line on stdout.
// Starts the app on a port, uploads both JaCoCo runs with `sextant upload` (a separate process),
// creates an incremental report and polls getReport until SUCCESS (or a failure status).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildApp } from '../packages/server/src/app.ts';
import { seed } from '../packages/server/src/db/seed.ts';
import { summariseHolds } from './holds.ts';
import { isTarget, openBenchDatabase } from './report-pipeline-db.ts';
import { BENCH_ABOUT, benchConfig } from './server-config.ts';

const run = promisify(execFile);
const target = process.argv[2];
if (!isTarget(target)) throw new Error('usage: report-pipeline-server.ts pglite|postgres');
const root = new URL('..', import.meta.url).pathname;
const dir = join(root, 'bench/out/report-pipeline');
const PASSWORD = 'bench-admin-password';

await run(process.execPath, [join(root, 'scripts/build.mjs'), '--cli', '--if-missing']);
const database = await openBenchDatabase(target);
await seed(database.db, PASSWORD);
const dataDir = mkdtempSync(join(tmpdir(), 'sx-bench-data-'));
const app = await buildApp({
  db: database.db,
  config: benchConfig({ accessTokenTtl: 3600, dataDir, repoPaths: [dir] }),
  about: BENCH_ABOUT,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const server = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

async function api<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${server}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as { code: number; message: string; data: T };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${answer.message}`);
  return answer.data;
}

const { accessToken } = await api<{ accessToken: string }>('POST', '/api/login', null, {
  username: 'admin',
  password: PASSWORD,
});
const team = await api<{ id: string }>('POST', '/api/teams', accessToken, { name: 'Bench' });
const created = await api<{ ingestionToken: string }>('POST', '/api/apps', accessToken, {
  teamId: team.id,
  name: 'bench-app',
  language: 'java',
  repoUrl: join(dir, 'repo'),
  environments: ['test'],
});
const { stdout: head } = await run('git', ['-C', join(dir, 'repo'), 'rev-parse', 'head']);

await database.takeHolds?.();
const rssAtStartMb = process.memoryUsage().rss / 1024 / 1024;
const started = performance.now();
const cpuBefore = process.cpuUsage();
const cli = join(root, 'packages/cli/bin/sextant.mjs');
await run(process.execPath, [
  cli,
  'upload',
  join(dir, 'run-1.xml'),
  join(dir, 'run-2.xml'),
  '--server',
  server,
  '--token',
  created.ingestionToken,
  '--app',
  'bench-app',
  '--commit',
  head.trim(),
  '--env',
  'test',
  '--test-type',
  '2',
]);
const uploaded = performance.now();
const report = await api<{ id: string }>('POST', '/api/reports', accessToken, {
  app: 'bench-app',
  name: 'bench',
  baseVersion: 'base',
  newVersion: 'head',
  envType: 'test',
  testType: 2,
  coverageType: 'incremental',
});
type Stored = { status: string; errMsg: string | null; lineCovered: number | null; lineTotal: number | null };
let stored: Stored;
const deadline = Date.now() + 30 * 60_000;
// Per status the report passed through (as polled): CPU s of this whole process (the server, its PGlite
// and parse workers) and the highest RSS sampled while it lasted. A step shorter than a poll may be missed.
type StatusUse = { cpuSeconds: number; peakRssMb: number; mainHeapMb?: number };
const perStatus: Record<string, StatusUse> = {};
let current = 'create';
perStatus.upload = { cpuSeconds: cpuOf(process.cpuUsage(cpuBefore)), peakRssMb: process.resourceUsage().maxRSS / 1024 };
let mark = process.cpuUsage(); // after the upload (the report's creation is counted in its first status)
for (;;) {
  stored = await api<Stored>('GET', `/api/getReport?reportId=${report.id}`, accessToken);
  const { rss: rssBytes, heapTotal } = process.memoryUsage();
  const rss = rssBytes / 1024 / 1024;
  if (stored.status !== current) {
    const used = process.cpuUsage(mark);
    mark = process.cpuUsage();
    const seen = perStatus[current] ?? { cpuSeconds: 0, peakRssMb: 0 };
    perStatus[current] = { ...seen, cpuSeconds: seen.cpuSeconds + cpuOf(used) };
    current = stored.status;
  }
  const seen = perStatus[current] ?? { cpuSeconds: 0, peakRssMb: 0 };
  // The main thread's V8 heap when the step's RSS peaked: the rest is the PGlite and parser threads' and code.
  if (rss > seen.peakRssMb) perStatus[current] = { ...seen, peakRssMb: rss, mainHeapMb: heapTotal / 1024 / 1024 };
  if (stored.status === 'SUCCESS' || stored.status.endsWith('FAIL')) break;
  if (Date.now() > deadline) throw new Error(`report still ${stored.status} after 30 minutes`);
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const done = performance.now();
const cpu = process.cpuUsage(cpuBefore);

function cpuOf(used: NodeJS.CpuUsage): number {
  return (used.user + used.system) / 1e6;
}
const result = {
  seconds: (done - started) / 1000,
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
  peakRssMb: process.resourceUsage().maxRSS / 1024,
  rssAtStartMb,
  steps: {
    'upload 2 runs (sextant upload)': (uploaded - started) / 1000,
    'report: create → SUCCESS': (done - uploaded) / 1000,
  },
  perStatus: Object.fromEntries(
    Object.entries(perStatus).map(([k, v]) => [
      k,
      `CPU ${v.cpuSeconds.toFixed(2)} s, RSS ≤ ${v.peakRssMb.toFixed(0)} MB (main heap ${v.mainHeapMb?.toFixed(0) ?? '?'})`,
    ]),
  ),
  status: stored.status,
  errMsg: stored.errMsg,
  lineCovered: stored.lineCovered,
  lineTotal: stored.lineTotal,
  // PGlite: the longest stretches one connection kept the engine while other requests waited (issue 41).
  ...(database.takeHolds ? { holds: summariseHolds(await database.takeHolds()) } : {}),
};
await app.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify(result)}\n`);
