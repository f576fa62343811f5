// Issue 41's load test, loopback only and bounded in time: 50 concurrent API clients (autocannon, each
// endpoint in a child process of its own, so none shares our event loop) for SECONDS (default 60), plus
// 500 STOMP clients (@stomp/stompjs over ws, as the web app connects) subscribed to /all/messages, plus
// 5 reports kept running (a finished one is replaced at once), on 1 web + 1 worker and on 2 web + 2
// workers (`main.ts --role`, each process with a data folder of its own) over one throw-away PostgreSQL
// database and this machine's Redis. Prints, per topology: errors (must be 0), p50/p99 per endpoint,
// and messages lost (every STOMP client must receive every status message of every report the run
// created, once and in order, as the messages table holds them).
// Run: npx tsx bench/load.ts            (SECONDS=10 to shorten; TOPOLOGIES=1x1,2x2)
// Figures (2026-11-29, 2 shared cores at load average 35-43 from other work, so latencies say little):
// 1+1: 0 API errors, p50 0.5-2.9 s, p99 10-22.5 s, 6 reports, 24,000 messages expected, 0 lost; 2+2: 0 errors,
// p50 1.4-3.0 s, p99 15.5-21.5 s, 4 reports, 16,000 expected, 0 lost, 0 duplicated, 0 out of order.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@stomp/stompjs';
import pg from 'pg';
import { WebSocket } from 'ws';
import { FIXTURES, fixtureRepo } from '../packages/server/test/reports/pipeline-support.ts';
import { RoleProcess } from '../packages/server/test/scale-out/processes.ts';
import { PG_SERVER } from './throwaway-database.ts';

const run = promisify(execFile);
const SECONDS = Number(process.env.SECONDS ?? 60);
const API_CLIENTS = 50;
const STOMP_CLIENTS = Number(process.env.STOMP_CLIENTS ?? 500);
const REPORTS_RUNNING = 5;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TOPOLOGIES = (process.env.TOPOLOGIES ?? '1x1,2x2')
  .split(',')
  .map((t) => t.split('x').map(Number) as [number, number]);
const AUTOCANNON = new URL('../node_modules/autocannon/autocannon.js', import.meta.url).pathname;
const FINAL = (status: string) => status === 'SUCCESS' || status.endsWith('FAIL');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

type Endpoint = { name: string; method: 'GET' | 'POST'; path: string; body?: string };
type ApiRow = {
  topology: string;
  endpoint: string;
  web: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** What the errors were: timeouts, statuses other than 2xx. */
  why: string;
};
type Message = { id: string; report_id?: string; status?: string };

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_SERVER });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** One autocannon child process: `connections` clients on one endpoint of one web process. */
async function cannon(base: string, token: string, endpoint: Endpoint, connections: number) {
  // A request unanswered after 30 s counts as an error (autocannon's default is 10 s).
  const args = [AUTOCANNON, '-c', String(connections), '-d', String(SECONDS), '-t', '30', '-j', '-m', endpoint.method];
  args.push('-H', `authorization=Bearer ${token}`);
  if (endpoint.body) args.push('-H', 'content-type=application/json', '-b', endpoint.body);
  const { stdout } = await run(process.execPath, [...args, `${base}${endpoint.path}`], { maxBuffer: 64 << 20 });
  const r = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats?: Record<string, { count: number }>;
  };
  const statuses = Object.entries(r.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count }]) => `${count}×${code}`);
  const why = [r.timeouts ? `${r.timeouts} timeouts` : '', ...statuses].filter(Boolean).join(', ');
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
    why,
  };
}

/** A browser-like STOMP client on one web process, keeping the messages of this run's reports. */
async function stompClient(base: string, token: string) {
  const received: Message[] = [];
  const problems: string[] = [];
  const client = new Client({
    webSocketFactory: () => new WebSocket(`${base.replace('http', 'ws')}/ws`, ['v12.stomp']),
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
  });
  client.onStompError = (frame) => problems.push(`ERROR ${frame.headers.message}`);
  let connected = false;
  client.onWebSocketClose = () => {
    if (connected) problems.push('closed');
  };
  await new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onWebSocketError = () => reject(new Error(`no STOMP connection to ${base}`));
    client.activate();
  });
  connected = true;
  const subscribed = new Promise<void>((resolve) => client.watchForReceipt('sub', () => resolve()));
  client.subscribe(
    '/all/messages',
    (m) => {
      // Kept whatever the report: a report's first message may arrive before its creation's answer.
      const message = JSON.parse(m.body) as Message;
      if (message.report_id) received.push(message);
    },
    { receipt: 'sub' },
  );
  await subscribed;
  return {
    received,
    problems,
    close: async () => {
      connected = false;
      await client.deactivate();
    },
  };
}

async function topology(webs: number, workers: number): Promise<{ api: ApiRow[]; summary: string }> {
  const name = `${webs} web + ${workers} worker${workers === 1 ? '' : 's'}`;
  const dbName = `sx_uploads_shared_load_${randomBytes(5).toString('hex')}`;
  await admin(`create database ${dbName}`);
  const url = new URL(PG_SERVER);
  url.pathname = `/${dbName}`;
  const password = `load-${randomBytes(8).toString('hex')}`;
  const folders: string[] = [];
  const repo = fixtureRepo('jacoco');
  const env = (): NodeJS.ProcessEnv => {
    const dir = mkdtempSync(join(tmpdir(), 'sx-load-'));
    folders.push(dir);
    return {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: url.toString(),
      REDIS_URL,
      SEXTANT_DATA_DIR: dir,
      SEXTANT_ADMIN_PASSWORD: password,
      SEXTANT_JWT_SECRET: 'load-bench-signing-key-of-enough-length-0123456789',
      SEXTANT_ACCESS_TOKEN_TTL: '3600',
      SEXTANT_REPO_PATHS: tmpdir(),
      SEXTANT_OTLP_GRPC_PORT: '0',
      SEXTANT_TRACE_VIEWER_PORT: String(20_000 + Math.floor(Math.random() * 20_000)),
      SEXTANT_ROLE: '',
    };
  };
  const webProcesses = Array.from({ length: webs }, () => new RoleProcess('web', env()));
  const workerProcesses = Array.from({ length: workers }, () => new RoleProcess('worker', env()));
  const all = [...webProcesses, ...workerProcesses];
  const clients: Awaited<ReturnType<typeof stompClient>>[] = [];
  try {
    await Promise.all(all.map((p) => p.start()));
    const bases = webProcesses.map((p) => p.base);
    const base = bases[0] as string;
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as { data: Record<string, unknown> };
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    const team = await api('POST', '/api/teams', { name: 'load' });
    await api('POST', '/api/apps', {
      teamId: team.id,
      name: 'calculator',
      language: 'java',
      repoUrl: repo,
      buildCommand: 'sleep 1',
    });
    const upload = await fetch(`${base}/api/coverage/uploads?app=calculator&commit=head&envType=test&testType=2`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: readFileSync(join(FIXTURES, 'jacoco/jacoco.xml')),
    });
    if (upload.status >= 300) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
    const createReport = async (i: number) =>
      (
        await api('POST', '/api/reports', {
          app: 'calculator',
          name: `load ${i}`,
          baseVersion: 'base',
          newVersion: 'head',
          envType: 'test',
          testType: 2,
          coverageType: 'incremental',
        })
      ).id as string;

    // The reports of this run (all created once every client has subscribed); every client keeps their messages.
    const ours = new Set<string>();
    for (let i = 0; i < STOMP_CLIENTS; i += 50) {
      const batch = Array.from({ length: Math.min(50, STOMP_CLIENTS - i) }, (_, j) =>
        stompClient(bases[(i + j) % bases.length] as string, token),
      );
      clients.push(...(await Promise.all(batch)));
    }
    const watcher = clients[0] as (typeof clients)[number];
    const statusOf = (id: string) => watcher.received.filter((m) => m.report_id === id).at(-1)?.status ?? '';
    process.stdout.write(`${name}: ${clients.length} STOMP clients connected (load ${load()})\n`);
    // A first report, for the reads.
    const first = await createReport(0);
    ours.add(first);

    const endpoints: Endpoint[] = [
      { name: 'GET /api/me', method: 'GET', path: '/api/me' },
      {
        name: 'POST /api/searchReports',
        method: 'POST',
        path: '/api/searchReports',
        body: JSON.stringify({ testType: 2 }),
      },
      { name: 'GET /api/getReport', method: 'GET', path: `/api/getReport?reportId=${first}` },
      { name: 'GET /api/getReportDetails', method: 'GET', path: `/api/getReportDetails?reportId=${first}` },
      { name: 'GET /api/messages', method: 'GET', path: `/api/messages?reportId=${first}` },
    ];
    const perCannon = Math.max(1, Math.floor(API_CLIENTS / (endpoints.length * bases.length)));
    const loadAtStart = load();
    const cannons = endpoints.flatMap((endpoint) =>
      bases.map(async (web, w) => ({
        topology: name,
        endpoint: endpoint.name,
        web: w + 1,
        ...(await cannon(web, token, endpoint, perCannon)),
      })),
    );

    // Five reports in flight for the whole run: a finished one is replaced at once.
    const deadline = Date.now() + SECONDS * 1000;
    let created = 1;
    const running = new Set<string>([first]);
    while (Date.now() < deadline) {
      for (const id of running) if (FINAL(statusOf(id))) running.delete(id);
      while (running.size < REPORTS_RUNNING && Date.now() < deadline) {
        const id = await createReport(created++);
        ours.add(id);
        running.add(id);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const apiRows = await Promise.all(cannons);
    const loadAtEnd = load();
    // The reports still running end, and every client gets their last message (or 120 s pass), before
    // the messages are counted: a message still on its way is late, not lost, up to then.
    const ended = Date.now() + 120_000;
    const allFinal = () =>
      clients.every((c) => {
        const last = new Map(c.received.map((m) => [m.report_id, m.status ?? '']));
        return [...ours].every((id) => FINAL(last.get(id) ?? ''));
      });
    while (!allFinal() && Date.now() < ended) await new Promise((resolve) => setTimeout(resolve, 250));
    const lateClients = clients.filter((c) => {
      const last = new Map(c.received.map((m) => [m.report_id, m.status ?? '']));
      return ![...ours].every((id) => FINAL(last.get(id) ?? ''));
    }).length;

    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    let expected = 0;
    let lost = 0;
    let duplicated = 0;
    let outOfOrder = 0;
    const finals = new Map<string, number>();
    const lostByStatus = new Map<string, number>();
    try {
      const { rows } = await db.query<{ id: string; report_id: string; status: string }>(
        'select id, report_id, status from messages where report_id = any($1) order by report_id, seq',
        [[...ours]],
      );
      const { rows: states } = await db.query<{ status: string; n: number }>(
        'select status, count(*)::int as n from reports where id = any($1) group by status',
        [[...ours]],
      );
      for (const s of states) finals.set(s.status, s.n);
      const want = new Map<string, string[]>();
      for (const r of rows) want.set(r.report_id, [...(want.get(r.report_id) ?? []), r.id]);
      const statusOfMessage = new Map(rows.map((r) => [r.id, r.status]));
      for (const client of clients) {
        for (const [reportId, ids] of want) {
          const got = client.received.filter((m) => m.report_id === reportId).map((m) => m.id);
          expected += ids.length;
          const seen = new Set(got);
          for (const id of ids.filter((one) => !seen.has(one))) {
            lost++;
            const status = statusOfMessage.get(id) ?? '?';
            lostByStatus.set(status, (lostByStatus.get(status) ?? 0) + 1);
          }
          duplicated += got.length - seen.size;
          const inOrder = got.filter((id) => ids.includes(id));
          if (inOrder.join() !== ids.filter((id) => seen.has(id)).join()) outOfOrder++;
        }
      }
    } finally {
      await db.end();
    }
    const stompProblems = clients.reduce((n, c) => n + c.problems.length, 0);
    const summary = [
      `${name}: ${ours.size} reports (${[...finals].map(([s, n]) => `${n} ${s}`).join(', ')}), ${clients.length} STOMP clients;`,
      `  messages expected ${expected}, lost ${lost}${lost ? ` (${[...lostByStatus].map(([st, n]) => `${n} ${st}`).join(', ')}; ${lateClients} clients without every final status after 120 s)` : ''}, duplicated ${duplicated}, clients out of order ${outOfOrder}, STOMP errors/closes ${stompProblems};`,
      `  API errors ${apiRows.reduce((n, r) => n + r.errors, 0)}; load average at start ${loadAtStart}, at end ${loadAtEnd}`,
    ].join('\n');
    return { api: apiRows, summary };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await Promise.all(all.map((p) => p.stop('SIGKILL')));
    await admin(`drop database if exists ${dbName} with (force)`);
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
    rmSync(dirname(repo), { recursive: true, force: true });
  }
}

process.stdout.write(`load bench: ${SECONDS} s per topology, load average ${load()}\n`);
const results = [];
for (const [webs, workers] of TOPOLOGIES) results.push(await topology(webs, workers));
process.stdout.write(`\n${API_CLIENTS} API clients (split evenly over endpoints and web processes), ${SECONDS} s\n`);
process.stdout.write(
  '| topology | endpoint | web | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|---|---|\n',
);
for (const r of results.flatMap((t) => t.api)) {
  const errors = r.why ? `${r.errors} (${r.why})` : String(r.errors);
  process.stdout.write(`| ${r.topology} | ${r.endpoint} | ${r.web} | ${r.rps} | ${r.p50} | ${r.p99} | ${errors} |\n`);
}
for (const r of results) process.stdout.write(`\n${r.summary}\n`);
process.exit(0);
