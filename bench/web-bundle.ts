// The web app's initial JavaScript (gzip) and the time to show the report list in headless Chromium.
// Builds the production bundle into a temp folder, sums the gzip size of what index.html loads before
// any screen (entry script + modulepreload links), starts the server on a fresh PostgreSQL database with
// 1,000 reports in it, and times navigation start → the report table's first row, cold and warm.
// Goals (issue 6): < 300 KB gzip, < 1 s. Peers in the same run: all JS of the build (what a bundle without
// lazy screens would load) and the dashboard chunk (ECharts, kept out of the initial load).
// Run: npx tsx bench/web-bundle.ts            (needs PostgreSQL at 127.0.0.1:5432, /usr/bin/chromium)
//      npx tsx bench/web-bundle.ts --serve    (keeps the seeded server up to look around)
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { chromium } from 'playwright-core';

const root = new URL('..', import.meta.url).pathname;
const PG = 'postgres://postgres@127.0.0.1:5432';
const REPORTS = 1000;
const CLASSES = 50_000;
const RUNS = 5;
const PASSWORD = 'bench-web-admin-password';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function buildWeb(outDir: string) {
  execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: join(root, 'packages/web'),
    stdio: 'inherit',
  });
}

function bundleFigures(outDir: string) {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const initial = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((m) => join(outDir, m[1] as string));
  const all = readdirSync(join(outDir, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => join(outDir, 'assets', f));
  const dashboard = all.filter((f) => /DashboardPage-/.test(f));
  const sum = (files: string[]) => files.reduce((n, f) => n + gz(f), 0);
  return {
    initialFiles: initial.length,
    initial: sum(initial),
    all: sum(all),
    allFiles: all.length,
    dashboard: sum(dashboard),
  };
}

function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Server listening')) resolve({ child, url: `http://127.0.0.1:${port}` });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

async function api<T>(url: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(url + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  if (envelope.code !== 200) throw new Error(`${method} ${path}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

/** 1,000 finished reports with plausible figures, written straight into the tables; the last one has 50,000 classes. */
async function seedReports(client: pg.Client, appId: string): Promise<string> {
  await client.query(
    `insert into reports (app_id, name, base_version, new_version, env_type, test_type, coverage_type, status,
       line_covered, line_total, branch_covered, branch_total, method_covered, method_total,
       instruction_covered, instruction_total, diff_line_covered, diff_line_total, created_at, finished_at)
     select $1, 'Sprint ' || g, 'main', 'release/' || (g % 40), (array['test','staging'])[1 + g % 2], 1 + g % 2,
       (array['full','incremental'])[1 + g % 2], 'SUCCESS',
       (g * 37) % 1000, 1000, (g * 13) % 400, 400, (g * 7) % 200, 200, (g * 91) % 9000, 9000,
       (g * 3) % 120, 120, now() - g * interval '1 hour', now() - g * interval '1 hour'
     from generate_series(1, $2::int) g`,
    [appId, REPORTS],
  );
  const big = await client.query<{ id: string }>(
    `insert into reports (app_id, name, base_version, new_version, env_type, test_type, coverage_type, status,
       line_covered, line_total, created_at, finished_at)
     values ($1, 'Big report', 'main', 'release/big', 'test', 1, 'full', 'SUCCESS', 1, 2, now() - interval '1 year', now())
     returning id`,
    [appId],
  );
  const id = big.rows[0]?.id as string;
  await client.query(
    `insert into report_details (report_id, class_id, kind, name, file_path, line_covered, line_total,
       branch_covered, branch_total, method_covered, method_total)
     select $1, null, 'class', 'com/acme/p' || (g % 500) || '/Class' || g, 'src/main/java/com/acme/p' || (g % 500) || '/Class' || g || '.java',
       (g * 7) % 50, 50, (g * 3) % 10, 10, g % 5, 5
     from generate_series(1, $2::int) g`,
    [id, CLASSES],
  );
  return id;
}

/** Navigation start → a selector present, measured in the page (performance.now()). */
async function timeTo(page: import('playwright-core').Page, path: string, selector: string): Promise<number> {
  await page.goto(path, { waitUntil: 'commit' });
  const shown = await page.waitForFunction(
    (sel) => (document.querySelector(sel) ? performance.now() : false),
    selector,
    { polling: 'raf', timeout: 60_000 },
  );
  return (await shown.jsonValue()) as number;
}

async function timeReportList(url: string, session: unknown, bigReport: string) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const cold: number[] = [];
  const warm: number[] = [];
  const big: number[] = [];
  let rendered = 0;
  const detailPages: { url: string; bytes: number }[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ baseURL: url, viewport: { width: 1360, height: 860 } });
      await context.addInitScript((s) => {
        const v = s as { accessToken: string; refreshToken: string; userData: unknown; settings: unknown };
        localStorage.setItem('accessToken', v.accessToken);
        localStorage.setItem('refreshToken', v.refreshToken);
        localStorage.setItem('userData', JSON.stringify(v.userData));
        localStorage.setItem('settings', JSON.stringify(v.settings));
      }, session);
      const page = await context.newPage();
      for (const bucket of [cold, warm]) {
        bucket.push(await timeTo(page, '/dashboard/devcoverage', '.ant-table-tbody tr.ant-table-row'));
      }
      if (run === 0) {
        // Issue 41: the class table fetches 200 rows a page by keyset as it scrolls.
        page.on('response', async (response) => {
          if (!response.url().includes('/api/getReportDetails')) return;
          detailPages.push({ url: response.url(), bytes: (await response.body()).byteLength });
        });
        big.push(await timeTo(page, `/dashboard/coverage/${bigReport}`, '.detail-class'));
        // Scrolling the virtual table to the end of what it holds asks for the next page (not 50,000 DOM rows).
        const next = page.waitForResponse(
          (r) => r.url().includes('/api/getReportDetails') && r.url().includes('after='),
        );
        await page.evaluate(() => {
          const holder = document.querySelector('.ant-table-tbody-virtual-holder');
          holder?.scrollTo(0, holder.scrollHeight);
        });
        await next;
        rendered = await page.evaluate(() => document.querySelectorAll('.detail-class').length);
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { cold, warm, big, rendered, detailPages };
}

const outDir = mkdtempSync(join(tmpdir(), 'sextant-web-bench-'));
const dataDir = mkdtempSync(join(tmpdir(), 'sextant-web-bench-data-'));
const database = `bench_web_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: `${PG}/postgres` });
let server: ChildProcess | undefined;
try {
  const buildStart = performance.now();
  buildWeb(outDir);
  const buildSeconds = (performance.now() - buildStart) / 1000;
  const b = bundleFigures(outDir);
  process.stdout.write(
    `build: ${buildSeconds.toFixed(1)} s\n` +
      `initial JS (entry + ${b.initialFiles - 1} modulepreload), gzip -9: ${kb(b.initial)}  (goal < 300 KB)\n` +
      `peer: all JS of the build (${b.allFiles} files), gzip -9: ${kb(b.all)}; dashboard chunk with ECharts: ${kb(b.dashboard)}\n`,
  );

  await admin.connect();
  await admin.query(`create database ${database}`);
  const started = await startServer({
    DATABASE_URL: `${PG}/${database}`,
    SEXTANT_DATA_DIR: dataDir,
    SEXTANT_ADMIN_PASSWORD: PASSWORD,
    SEXTANT_JWT_SECRET: randomBytes(48).toString('base64url'),
    SEXTANT_WEB_DIST: outDir,
  });
  server = started.child;
  const session = await api<{ accessToken: string }>(started.url, 'POST', '/api/login', {
    username: 'admin',
    password: PASSWORD,
  });
  const team = await api<{ id: string }>(
    started.url,
    'POST',
    '/api/teams',
    { name: 'Bench team' },
    session.accessToken,
  );
  const app = await api<{ id: string }>(
    started.url,
    'POST',
    '/api/apps',
    {
      teamId: team.id,
      name: 'bench-app',
      language: 'java',
      repoUrl: '/srv/git/bench-app.git',
      environments: ['test', 'staging'],
    },
    session.accessToken,
  );
  const db = new pg.Client({ connectionString: `${PG}/${database}` });
  await db.connect();
  const bigReport = await seedReports(db, app.id);
  await db.end();

  if (process.argv.includes('--serve')) {
    process.stdout.write(`serving ${started.url} (admin / ${PASSWORD}); Ctrl-C to stop\n`);
    await new Promise((resolve) => process.once('SIGINT', resolve));
  } else {
    const apiStart = performance.now();
    const details = await fetch(
      `${started.url}/api/getReportDetails?reportId=${bigReport}&perPage=${CLASSES}&sortBy=name`,
      { headers: { authorization: `Bearer ${session.accessToken}` } },
    );
    const bytes = (await details.arrayBuffer()).byteLength;
    const apiMs = performance.now() - apiStart;
    const t = await timeReportList(started.url, session, bigReport);
    const fmt = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ');
    process.stdout.write(
      `report list (${REPORTS} reports, page of 10), navigation start → first table row, ${RUNS} runs:\n` +
        `  cold (empty cache): median ${Math.round(median(t.cold))} ms  [${fmt(t.cold)}]  (goal < 1000 ms)\n` +
        `  warm (cached assets): median ${Math.round(median(t.warm))} ms  [${fmt(t.warm)}]\n` +
        `report detail with ${CLASSES.toLocaleString()} classes (keyset pages as the table scrolls), navigation → first class row: ${Math.round(t.big[0] ?? 0)} ms; class rows in the DOM after scrolling to the end: ${t.rendered}\n` +
        `  class-row pages fetched by then: ${t.detailPages.length}, ${(t.detailPages.reduce((n, p) => n + p.bytes, 0) / 1024).toFixed(0)} KB of JSON\n` +
        `  peer: all ${CLASSES.toLocaleString()} class rows in one answer (getReportDetails perPage=${CLASSES}, from Node): ${(bytes / 1024 / 1024).toFixed(1)} MB JSON, ${Math.round(apiMs)} ms\n` +
        `  load average: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
    );
  }
} finally {
  if (server) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await admin.query(`drop database if exists ${database} with (force)`).catch(() => {});
  await admin.end().catch(() => {});
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
