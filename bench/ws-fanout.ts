// Fan-out of /all/messages to N concurrent STOMP clients (N = 1000 and 5000): 100 messages, publish → receipt
// latency (p50/p99 to the last client, and over every delivery), delivered messages per second, and the
// server's resident memory per connection — for Sextant's own STOMP endpoint and, in the same run and with
// the same @stomp/stompjs clients, for RabbitMQ's Web-STOMP plugin (a private node started here).
// Run (as root, beside Debian's rabbitmq-server and a local PostgreSQL): npx tsx bench/ws-fanout.ts [1000,5000]
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client } from '@stomp/stompjs';
import pg from 'pg';
import { WebSocket } from 'ws';

const SIZES = (process.argv[2] ?? '1000,5000').split(',').map(Number);
const MESSAGES = 100;
const CONNECT_BATCH = 250;
const PG_SERVER = process.env.PG_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const root = new URL('..', import.meta.url).pathname;
const RABBIT_DIR = '/tmp/sx-bench-rabbit';
const RABBIT_WS_PORT = 15679;

type Target = {
  name: string;
  url: string;
  connectHeaders: Record<string, string>;
  destination: string;
  serverPid: () => number;
  publish: (body: string) => Promise<void>;
  close: () => Promise<void>;
};

type Row = {
  target: string;
  clients: number;
  connectSeconds: number;
  p50Last: number;
  p99Last: number;
  p50All: number;
  p99All: number;
  burstMsgsPerSecond: number;
  burstDeliveredPct: number;
  kbPerConnection: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await sleep(250);
  }
  throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`);
}

/** Our server exactly as deployed (`main.ts`), on a throw-away PostgreSQL database, without Redis. */
async function startSextant(): Promise<Target> {
  const dbName = `sx_bench_ws_${randomBytes(5).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: PG_SERVER });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`create database ${dbName}`);
  const url = new URL(PG_SERVER);
  url.pathname = `/${dbName}`;
  const password = `bench-${randomBytes(6).toString('hex')}`;
  const dataDir = `/tmp/sx-bench-ws-${dbName}`;
  const { REDIS_URL: _noRedis, ...env } = process.env;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: {
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: url.toString(),
      SEXTANT_DATA_DIR: dataDir,
      SEXTANT_ADMIN_PASSWORD: password,
      SEXTANT_JWT_SECRET: randomBytes(48).toString('base64url'),
      SEXTANT_ACCESS_TOKEN_TTL: '3600',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  return {
    name: 'Sextant /ws',
    url: `${base.replace('http', 'ws')}/ws`,
    connectHeaders: { Authorization: `Bearer ${token}` },
    destination: '/all/messages',
    serverPid: () => child.pid ?? 0,
    // The real publishing path: POST /api/messages stores the message, then the broker pushes it.
    publish: async (body) => {
      const parsed = JSON.parse(body) as { id: string };
      const res = await fetch(`${base}/api/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ id: parsed.id, title: body, message_type: 'NOTICE' }),
      });
      if (res.status !== 200) throw new Error(`publish answered ${res.status}: ${await res.text()}`);
    },
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await admin(`drop database if exists ${dbName}`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A private RabbitMQ node with Web-STOMP on 15679. Debian's service runs with a soft limit of 1024 open
 * files (too few for 5000 sockets) and `rabbitmq-server` resets limits through su/PAM, so the node is
 * started directly as the rabbitmq user with 20000 descriptors.
 */
async function startRabbit(): Promise<Target> {
  if (!existsSync('/usr/lib/rabbitmq/bin/rabbitmq-server')) throw new Error('rabbitmq-server is not installed');
  rmSync(RABBIT_DIR, { recursive: true, force: true });
  mkdirSync(`${RABBIT_DIR}/mnesia`, { recursive: true });
  mkdirSync(`${RABBIT_DIR}/log`, { recursive: true });
  writeFileSync(
    `${RABBIT_DIR}/rabbitmq.conf`,
    [
      'listeners.tcp.local = 127.0.0.1:5679',
      `web_stomp.tcp.port = ${RABBIT_WS_PORT}`,
      'web_stomp.tcp.ip = 127.0.0.1',
      'stomp.listeners.tcp.1 = 127.0.0.1:61619',
      '',
    ].join('\n'),
  );
  writeFileSync(`${RABBIT_DIR}/enabled_plugins`, '[rabbitmq_web_stomp].\n');
  spawn('chown', ['-R', 'rabbitmq:rabbitmq', RABBIT_DIR]).once('exit', () => {});
  await sleep(200);
  const script = `ulimit -n 20000 && exec setpriv --reuid=rabbitmq --regid=rabbitmq --init-groups /usr/lib/rabbitmq/bin/rabbitmq-server`;
  const node = spawn('sh', ['-c', script], {
    env: {
      ...process.env,
      HOME: '/var/lib/rabbitmq',
      RABBITMQ_NODENAME: 'sxbench@localhost',
      RABBITMQ_CONFIG_FILE: `${RABBIT_DIR}/rabbitmq.conf`,
      RABBITMQ_ENABLED_PLUGINS_FILE: `${RABBIT_DIR}/enabled_plugins`,
      RABBITMQ_MNESIA_BASE: `${RABBIT_DIR}/mnesia`,
      RABBITMQ_LOG_BASE: `${RABBIT_DIR}/log`,
      RABBITMQ_DIST_PORT: '25679',
      // As Debian's service runs it: idle schedulers sleep instead of spinning (they would steal the CPU).
      RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '+sbwt none +sbwtdcpu none +sbwtdio none',
      ERL_EPMD_ADDRESS: '127.0.0.1',
    },
    stdio: 'ignore',
  });
  await waitForPort(RABBIT_WS_PORT, 60_000);
  const beamPid = () => {
    const children = readFileSync(`/proc/${node.pid}/task/${node.pid}/children`, 'utf8').trim().split(/\s+/);
    const beam = children.find((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('beam'));
    return Number(beam ?? 0);
  };
  const publisher = await connectClient(`ws://127.0.0.1:${RABBIT_WS_PORT}/ws`, guest(), () => {});
  return {
    name: 'RabbitMQ Web-STOMP',
    url: `ws://127.0.0.1:${RABBIT_WS_PORT}/ws`,
    connectHeaders: guest(),
    destination: '/topic/all.messages',
    serverPid: beamPid,
    publish: async (body) => publisher.publish({ destination: '/topic/all.messages', body }),
    close: async () => {
      await publisher.deactivate();
      const exited = new Promise((resolve) => node.once('exit', resolve));
      // A throw-away node: a graceful stop with thousands of queues and a backlog takes minutes.
      const beam = beamPid();
      if (beam > 0) process.kill(beam, 'SIGKILL');
      else node.kill('SIGKILL');
      await exited;
      rmSync(RABBIT_DIR, { recursive: true, force: true });
    },
  };
}

const guest = () => ({ login: 'guest', passcode: 'guest', host: '/' });

function connectClient(url: string, headers: Record<string, string>, onClose: () => void): Promise<Client> {
  const client = new Client({
    webSocketFactory: () => new WebSocket(url, ['v12.stomp']),
    connectHeaders: headers,
    heartbeatIncoming: 5000,
    heartbeatOutgoing: 5000,
    reconnectDelay: 0,
    debug: () => {},
  });
  return new Promise((resolve, reject) => {
    client.onConnect = () => resolve(client);
    client.onStompError = (frame) => reject(new Error(frame.headers.message));
    client.onWebSocketError = () => reject(new Error(`socket error on ${url}`));
    client.onWebSocketClose = onClose;
    client.activate();
  });
}

async function connectAll(target: Target, n: number, onMessage: (body: string) => void): Promise<Client[]> {
  const clients: Client[] = [];
  let dropped = 0;
  for (let start = 0; start < n; start += CONNECT_BATCH) {
    const batch = Array.from({ length: Math.min(CONNECT_BATCH, n - start) }, async (_, i) => {
      const client = await connectClient(target.url, target.connectHeaders, () => {
        dropped++;
      });
      const receipt = `sub-${start + i}`;
      const subscribed = new Promise<void>((resolve) => client.watchForReceipt(receipt, () => resolve()));
      client.subscribe(target.destination, (m) => onMessage(m.body), { receipt });
      await subscribed;
      return client;
    });
    clients.push(...(await Promise.all(batch)));
  }
  if (dropped > 0) throw new Error(`${dropped} connections closed while connecting`);
  return clients;
}

async function measure(target: Target, n: number): Promise<Row> {
  const runId = randomBytes(4).toString('hex');
  const sentAt: number[] = [];
  const counts = new Int32Array(MESSAGES * 2);
  const lastAt: number[] = [];
  const latencies: number[] = [];
  let wake: (() => void) | null = null;
  let lastReceipt = 0;
  const onMessage = (body: string) => {
    const now = performance.now();
    lastReceipt = now;
    const id = (JSON.parse(body) as { id?: string }).id ?? '';
    if (!id.startsWith(runId)) return;
    const k = Number(id.slice(runId.length + 1));
    counts[k] = (counts[k] ?? 0) + 1;
    latencies.push(now - (sentAt[k] ?? now));
    if (counts[k] === n) {
      lastAt[k] = now;
      wake?.();
    }
  };
  /** Waits until every client has messages from..to-1; false when the time is up first. */
  const allReceived = async (from: number, to: number, timeoutMs: number) => {
    const deadline = performance.now() + timeoutMs;
    while (lastAt.slice(from, to).filter((t) => t !== undefined).length < to - from) {
      if (performance.now() > deadline) return false;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 1000);
      });
    }
    return true;
  };

  await sleep(1000);
  const rssBefore = rssKb(target.serverPid());
  const connectStart = performance.now();
  const clients = await connectAll(target, n, onMessage);
  const connectSeconds = (performance.now() - connectStart) / 1000;
  await sleep(1000);
  const rssAfter = rssKb(target.serverPid());

  // One message at a time: the time until the last of the N clients has it.
  const lastLatencies: number[] = [];
  for (let k = 0; k < MESSAGES; k++) {
    sentAt[k] = performance.now();
    await target.publish(JSON.stringify({ id: `${runId}-${k}` }));
    const complete = await allReceived(k, k + 1, 30_000);
    lastLatencies.push(complete ? (lastAt[k] ?? 0) - (sentAt[k] ?? 0) : Number.POSITIVE_INFINITY);
  }
  const sequentialDeliveries = latencies.splice(0);
  // A burst of 100: deliveries per second from the first publish to the last receipt.
  const burstStart = performance.now();
  for (let k = MESSAGES; k < 2 * MESSAGES; k++) {
    sentAt[k] = performance.now();
    await target.publish(JSON.stringify({ id: `${runId}-${k}` }));
  }
  await allReceived(MESSAGES, 2 * MESSAGES, 120_000);
  const burstEnd = lastReceipt;
  const burstDelivered = counts.slice(MESSAGES).reduce((a, b) => a + b, 0);
  for (let start = 0; start < clients.length; start += CONNECT_BATCH) {
    await Promise.all(clients.slice(start, start + CONNECT_BATCH).map((c) => c.deactivate()));
  }
  return {
    target: target.name,
    clients: n,
    connectSeconds,
    p50Last: percentile(lastLatencies, 50),
    p99Last: percentile(lastLatencies, 99),
    p50All: percentile(sequentialDeliveries, 50),
    p99All: percentile(sequentialDeliveries, 99),
    burstMsgsPerSecond: burstDelivered / ((burstEnd - burstStart) / 1000),
    burstDeliveredPct: (100 * burstDelivered) / (n * MESSAGES),
    kbPerConnection: (rssAfter - rssBefore) / n,
  };
}

const HEADER = [
  'target',
  'N',
  'connect s',
  'p50 last',
  'p99 last',
  'p50 each',
  'p99 each',
  'burst msg/s',
  'burst %',
  'KB/conn',
];
const WIDTHS = [20, 5, 9, 8, 8, 8, 8, 11, 7, 8];

function line(cells: string[]): string {
  return `${cells.map((c, i) => (i === 0 ? c.padEnd(WIDTHS[i] ?? 8) : c.padStart(WIDTHS[i] ?? 8))).join(' ')}\n`;
}

function format(r: Row): string {
  const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : 'lost');
  return line([
    r.target,
    String(r.clients),
    r.connectSeconds.toFixed(1),
    ms(r.p50Last),
    ms(r.p99Last),
    ms(r.p50All),
    ms(r.p99All),
    String(Math.round(r.burstMsgsPerSecond)),
    r.burstDeliveredPct.toFixed(1),
    r.kbPerConnection.toFixed(1),
  ]);
}

const LEGEND =
  'Latencies in ms from publish to receipt: "last" = until the last of the N clients has the message (100 messages ' +
  'sent one at a time; "lost" = not all delivered within 30 s), "each" = every single delivery. Burst = 100 messages ' +
  'published back to back: deliveries / (last receipt − first publish), and the share of the N×100 deliveries made ' +
  'within 120 s. KB/conn = growth of the server RSS / N. Clients, servers and database share this machine.\n';

// A fresh server process per size and target, so the memory figure starts from the same clean baseline
// (a reused Node process may collect the previous run's garbage in between and show a negative growth).
const starters: [string, () => Promise<Target>][] = [
  ['Sextant /ws', startSextant],
  ['RabbitMQ Web-STOMP', startRabbit],
];
const rows: Row[] = [];
for (const n of SIZES) {
  for (const [name, start] of starters) {
    let target: Target;
    try {
      target = await start();
    } catch (error) {
      process.stdout.write(`${name} not measured: ${(error as Error).message}\n`);
      continue;
    }
    try {
      process.stdout.write(`${target.name}: ${n} clients…\n`);
      const row = await measure(target, n);
      rows.push(row);
      process.stdout.write(line(HEADER) + format(row));
    } finally {
      await target.close();
    }
  }
}
process.stdout.write(`\n${line(HEADER)}${rows.map(format).join('')}\n${LEGEND}`);
process.exit(0);
