// POST /api/searchReports and GET /api/getReportDetails under 50 connections (autocannon in a child process,
// so it does not share the server's event loop), over 100,001 reports and 5,200,000 report_details rows in a
// throw-away PostgreSQL database. Peer in the same run: the same read models called in-process by 50
// concurrent loops (no HTTP, no token check, no JSON) — the database's share of each request.
// Goal (issue 6): p99 under 50 ms on PostgreSQL.
// Run: npx tsx bench/search-reports.ts   (SECONDS=10 per scenario; PG_SERVER_URL for another server; SCALE;
// BENCH_DB=<name> reads an already loaded database of that name, e.g. bench/read-plans.ts's KEEP_DB, and keeps it)
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { classRowId, FULL_SHAPE, LARGE_REPORT_NO } from './gen/report-rows.ts';

const SECONDS = Number(process.env.SECONDS ?? 10);
const CONNECTIONS = 50;
const PASSWORD = 'bench-admin-password';
const PG_SERVER = process.env.PG_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// SCALE=0.01 shrinks the data for a quick trial of the script itself; published figures use 1.
const SCALE = Number(process.env.SCALE ?? 1);
const shape = {
  ...FULL_SHAPE,
  apps: Math.max(10, Math.round(FULL_SHAPE.apps * SCALE)),
  reports: Math.round(FULL_SHAPE.reports * SCALE),
  largeReportClasses: Math.round(FULL_SHAPE.largeReportClasses * SCALE),
};

/**
 * The indexes this benchmark asks for (issue 6), created here only if the migration has not made them:
 * the report list's default sort (line coverage, absent figures last) in both directions, and a report's
 * class rows in name order (the detail table's default), so a page is an index walk, not a sort.
 */
export const READ_INDEXES = [
  `create index if not exists reports_line_coverage_idx on reports
    (test_type, (line_covered::float8 / nullif(line_total, 0)), id)`,
  `create index if not exists reports_line_coverage_desc_idx on reports
    (test_type, (line_covered::float8 / nullif(line_total, 0)) desc nulls last, id desc)`,
  `create index if not exists report_details_class_rows_name_idx on report_details (report_id, name, id)
    where class_id is null`,
];

type Call = { search: Record<string, unknown> } | { details: Record<string, string> };
type Scenario = { name: string; next: (random: () => number) => Call };

const reportId = (n: number) =>
  createHash('md5')
    .update(`r${n}`)
    .digest('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const int = (random: () => number, from: number, to: number) => from + Math.floor(random() * (to - from + 1));

/** Keyset cursors (`next`) of the large report's first 40 pages per sort, taken before the run. */
const cursors: { sortBy: string; sortDesc: string; after: string }[] = [];

const SCENARIOS: Scenario[] = [
  { name: 'search: defaults (testType 1, lineCoverage asc, page 1)', next: () => ({ search: {} }) },
  {
    name: 'search: random filters, pages 1-20, lineCoverage either way',
    next: (random) => {
      const body: Record<string, unknown> = {
        testType: int(random, 1, 2),
        page: int(random, 1, 20),
        sortDesc: random() < 0.5,
      };
      if (random() < 0.4) body.appName = `app-${int(random, 1, shape.apps)}`;
      if (random() < 0.3) body.envType = pick(random, ['dev', 'test', 'staging']);
      if (random() < 0.1) body.newVersion = `v${int(random, 1, 50)}`;
      return { search: body };
    },
  },
  {
    name: 'search: other sort keys (each indexed, issue 41), page 1-5',
    next: (random) => ({
      search: {
        sortBy: pick(random, ['branchCoverage', 'methodCoverage', 'name', 'createdAt'] as const),
        sortDesc: random() < 0.5,
        page: int(random, 1, 5),
      },
    }),
  },
  {
    name: 'details: class rows of a random report',
    next: (random) => ({ details: { reportId: reportId(int(random, 1, shape.reports)) } }),
  },
  {
    name: 'details: method rows of a random class, by lineCoverage',
    next: (random) => {
      const n = int(random, 1, shape.reports);
      return {
        details: {
          reportId: reportId(n),
          classId: String(classRowId(shape, n, int(random, 0, shape.classesPerReport - 1))),
          sortBy: 'lineCoverage',
          sortDesc: String(random() < 0.5),
        },
      };
    },
  },
  {
    name: `details: ${shape.largeReportClasses.toLocaleString('en')}-class report, 50 a page, by name or coverage`,
    next: (random) => ({
      details: {
        reportId: reportId(LARGE_REPORT_NO),
        perPage: '50',
        page: String(int(random, 1, 40)),
        sortBy: pick(random, ['name', 'lineCoverage'] as const),
        sortDesc: String(random() < 0.5),
      },
    }),
  },
];

SCENARIOS.push({
  name: `details: ${shape.largeReportClasses.toLocaleString('en')}-class report, 50 a page by keyset (next), by name or coverage`,
  next: (random) => ({ details: { reportId: reportId(LARGE_REPORT_NO), perPage: '50', ...pick(random, cursors) } }),
});

function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function httpRequest(call: Call) {
  if ('search' in call) return { method: 'POST', path: '/api/searchReports', body: JSON.stringify(call.search) };
  return { method: 'GET', path: `/api/getReportDetails?${new URLSearchParams(call.details)}` };
}

type Figures = { rps: number; p50: number; p99: number; errors: number };

/** Child mode: autocannon against the running server, one scenario, figures as JSON on stdout. */
async function loadChild(index: number, url: string, token: string): Promise<void> {
  const { default: autocannon } = await import('autocannon');
  const scenario = SCENARIOS[index] as Scenario;
  const random = seeded(index + 1);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [{ setupRequest: (req: object) => ({ ...req, ...httpRequest(scenario.next(random)) }) }],
  });
  const figures: Figures = {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
  process.stdout.write(JSON.stringify(figures));
}

async function overHttp(index: number, url: string, token: string): Promise<Figures> {
  const self = fileURLToPath(import.meta.url);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...process.execArgv, self, '--load', String(index), url, token],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as Figures;
}

/** The peer: the same read model, in-process, 50 loops for SECONDS. */
async function inProcess(run: (call: Call) => Promise<unknown>, scenario: Scenario, seed: number): Promise<Figures> {
  const random = seeded(seed);
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        try {
          await run(scenario.next(random));
          latencies.push(performance.now() - started);
        } catch {
          errors++;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { rps: Math.round(latencies.length / SECONDS), p50: at(0.5), p99: at(0.99), errors };
}

async function main(): Promise<void> {
  const pg = (await import('pg')).default;
  const { buildApp } = await import('../packages/server/src/app.ts');
  const { BENCH_ABOUT, benchConfig } = await import('./server-config.ts');
  const { openDatabase } = await import('../packages/server/src/db/client.ts');
  const { seed } = await import('../packages/server/src/db/seed.ts');
  const { loadReportRows } = await import('./gen/report-rows.ts');
  const { searchReports } = await import('../packages/server/src/modules/report-views/search-reports.ts');
  const { reportDetails } = await import('../packages/server/src/modules/report-views/report-details.ts');
  const { SearchTotals } = await import('../packages/server/src/modules/report-views/search-totals.ts');
  const { SearchReportsSchema, ReportDetailsQuerySchema } = await import('../packages/api/src/reports.ts');

  const reuse = process.env.BENCH_DB;
  const name = reuse ?? `sextant_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_SERVER });
  await admin.connect();
  if (!reuse) await admin.query(`create database ${name}`);
  const target = new URL(PG_SERVER);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.toString() });
  // The forced drop at the end terminates connections the pool may still hold idle.
  database.pool.on('error', () => {});
  try {
    await seed(database.db, PASSWORD);
    let started = performance.now();
    const counts = reuse
      ? { reports: shape.reports + 1, details: Number.NaN }
      : await loadReportRows(database.pool, shape);
    const loadSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    for (const statement of READ_INDEXES) await database.pool.query(statement);
    await database.pool.query('vacuum analyze reports');
    await database.pool.query('vacuum analyze report_details');
    const indexSeconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `loaded ${counts.reports.toLocaleString('en')} reports and ${counts.details.toLocaleString('en')} detail rows ` +
        `in ${loadSeconds.toFixed(0)} s; read indexes and vacuum in ${indexSeconds.toFixed(0)} s\n`,
    );

    const app = await buildApp({
      config: benchConfig({ accessTokenTtl: 3600 }),
      about: BENCH_ABOUT,
      db: database.db,
      runJobs: false,
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'admin', password: PASSWORD },
    });
    const token = login.json().data.accessToken as string;
    const whole = performance.now();
    const all = await app.inject({
      url: `/api/getReportDetails?reportId=${reportId(LARGE_REPORT_NO)}&perPage=100000`,
      headers: { authorization: `Bearer ${token}` },
    });
    const wholeMs = performance.now() - whole;
    process.stdout.write(
      `one getReportDetails of all ${shape.largeReportClasses.toLocaleString('en')} class rows (perPage 100000): ` +
        `${wholeMs.toFixed(0)} ms, ${(all.body.length / 1024 / 1024).toFixed(1)} MB JSON, status ${all.statusCode}\n`,
    );

    for (const sortBy of ['name', 'lineCoverage']) {
      for (const sortDesc of ['false', 'true']) {
        let after: string | null | undefined;
        for (let page = 0; page < 40 && after !== null; page++) {
          const query = ReportDetailsQuerySchema.parse({
            reportId: reportId(LARGE_REPORT_NO),
            perPage: '50',
            sortBy,
            sortDesc,
            ...(after ? { after } : {}),
          });
          after = (await reportDetails(database.db, query)).next;
          if (after) cursors.push({ sortBy, sortDesc, after });
        }
      }
    }
    const totals = new SearchTotals();
    const direct = (call: Call) =>
      'search' in call
        ? searchReports(database.db, SearchReportsSchema.parse(call.search), totals)
        : reportDetails(database.db, ReportDetailsQuerySchema.parse(call.details));
    // Warm the caches (shared buffers, the server's JIT) before measuring.
    await overHttp(1, address, token);
    const rows: { scenario: string; http: Figures; direct: Figures; load: string }[] = [];
    for (const [index, scenario] of SCENARIOS.entries()) {
      const http = await overHttp(index, address, token);
      const load = loadavg()[0]?.toFixed(1) ?? '?';
      rows.push({ scenario: scenario.name, http, direct: await inProcess(direct, scenario, index + 1), load });
    }
    await app.close();

    process.stdout.write(`\n${CONNECTIONS} connections, ${SECONDS} s per scenario, PostgreSQL, 2 shared cores\n`);
    process.stdout.write(
      '| scenario | HTTP req/s | HTTP p50 ms | HTTP p99 ms | errors | in-process req/s | p50 ms | p99 ms | load avg |\n' +
        '|---|---|---|---|---|---|---|---|---|\n',
    );
    for (const r of rows) {
      const { http: h, direct: d } = r;
      process.stdout.write(
        `| ${r.scenario} | ${h.rps} | ${h.p50} | ${h.p99} | ${h.errors} | ${d.rps} | ${d.p50} | ${d.p99} | ${r.load} |\n`,
      );
    }
  } finally {
    await database.close();
    if (!reuse) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

if (process.argv[2] === '--load') {
  await loadChild(Number(process.argv[3]), String(process.argv[4]), String(process.argv[5]));
} else {
  await main();
}
