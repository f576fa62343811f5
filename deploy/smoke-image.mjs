#!/usr/bin/env node
// Runs the built image as an operator would and checks it (README "Operating", Container):
//   node deploy/smoke-image.mjs embedded      one container, role all, the embedded database (PGlite)
//   node deploy/smoke-image.mjs distributed   a web and a worker container on DATABASE_URL and REDIS_URL
// Containers use the host's network (`--network host`, as deploy/build-local-base.sh builds), on ports
// picked at random. Checked: /healthz and /readyz answer 200 on every container, the admin signs in
// through the API and /api/me answers; a STOMP client on the web container receives the shutdown ERROR
// frame; `docker stop` ends each container gracefully (the server's `closed` log line, exit status 0).
// Variables: SEXTANT_IMAGE (default sextant); DATABASE_URL (an empty database, or one whose admin password
// is SEXTANT_ADMIN_PASSWORD) and REDIS_URL for distributed.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import WebSocket from 'ws';

const image = process.env.SEXTANT_IMAGE ?? 'sextant';
const mode = process.argv[2];
if (mode !== 'embedded' && mode !== 'distributed') {
  process.stderr.write('usage: node deploy/smoke-image.mjs embedded|distributed\n');
  process.exit(2);
}
const run = `smoke-${randomBytes(3).toString('hex')}`;
// A fresh database's admin gets this password; an existing one's must be given.
const password = process.env.SEXTANT_ADMIN_PASSWORD ?? `Smoke-${randomBytes(9).toString('base64url')}`;
const shared = {
  SEXTANT_ADMIN_PASSWORD: password,
  SEXTANT_JWT_SECRET: randomBytes(32).toString('hex'),
  HOST: '127.0.0.1',
};
const started = [];
const failures = [];

/** A container's output, stdout and stderr together (the server's crash goes to stderr). */
function logs(container, tail = 'all') {
  const out = spawnSync('docker', ['logs', '--tail', String(tail), container.name], { encoding: 'utf8' });
  return `${out.stdout}${out.stderr}`;
}

function docker(...args) {
  return execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Three free-looking ports above 20000 (the server's, the trace viewer's, OTLP/gRPC's). */
function ports() {
  const base = 20_000 + Math.floor(Math.random() * 13_000) * 3;
  return { PORT: base, SEXTANT_TRACE_VIEWER_PORT: base + 1, SEXTANT_OTLP_GRPC_PORT: base + 2 };
}

function start(name, role, env) {
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const volume = `${run}-${name}-data`;
  docker(
    'run',
    '-d',
    '--name',
    `${run}-${name}`,
    '--network',
    'host',
    '-v',
    `${volume}:/data`,
    ...envArgs,
    image,
    '--role',
    role,
  );
  started.push({ name: `${run}-${name}`, volume });
  return { name: `${run}-${name}`, url: `http://127.0.0.1:${env.PORT}` };
}

function check(what, ok, detail) {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}\n`);
  if (!ok) failures.push(what);
}

async function waitReady(container, timeoutMs = 180_000) {
  const t0 = Date.now();
  let last = '';
  while (Date.now() - t0 < timeoutMs) {
    try {
      const res = await fetch(`${container.url}/readyz`);
      last = `${res.status} ${await res.text()}`;
      if (res.status === 200) return Date.now() - t0;
    } catch (error) {
      last = String(error.cause?.code ?? error);
    }
    if (docker('inspect', '-f', '{{.State.Running}}', container.name) !== 'true') break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${container.name} not ready: ${last}\n${logs(container, 30)}`);
}

async function probes(container) {
  const ms = await waitReady(container);
  check(`${container.name} /readyz 200`, true, `${ms} ms after start`);
  const health = await fetch(`${container.url}/healthz`);
  check(`${container.name} /healthz`, health.status === 200, `${health.status} ${await health.text()}`);
}

async function signIn(web) {
  const res = await fetch(`${web.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const body = await res.json();
  check('admin signs in (POST /api/login)', res.status === 200 && Boolean(body.data?.accessToken), `${res.status}`);
  const me = await fetch(`${web.url}/api/me`, { headers: { authorization: `Bearer ${body.data.accessToken}` } });
  const meBody = await me.json();
  check(
    'GET /api/me with its token',
    me.status === 200,
    `${me.status} ${meBody.data?.username ?? meBody.data?.userData?.username ?? meBody.message}`,
  );
  const about = await (
    await fetch(`${web.url}/api/about`, { headers: { authorization: `Bearer ${body.data.accessToken}` } })
  ).json();
  process.stdout.write(`     about: ${JSON.stringify(about.data)}\n`);
  return body.data.accessToken;
}

/** A STOMP client signed in on `web`; resolves the ERROR frame's message header when the server sends one. */
async function stompClient(web, token) {
  const socket = new WebSocket(`${web.url.replace('http', 'ws')}/ws`);
  const frames = [];
  let onError;
  const errorFrame = new Promise((resolve) => {
    onError = resolve;
  });
  socket.on('message', (data) => {
    const text = data.toString();
    frames.push(text.split('\n')[0]);
    if (text.startsWith('ERROR')) onError(/\nmessage:([^\n]*)/.exec(text)?.[1] ?? text);
  });
  socket.on('close', () => onError(null));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.send(`CONNECT\naccept-version:1.2\nhost:sextant\nAuthorization:Bearer ${token}\n\n\0`);
  const t0 = Date.now();
  while (!frames.includes('CONNECTED') && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50));
  check('STOMP client connected on /ws', frames.includes('CONNECTED'), frames.join(','));
  // Wrapped: an async function returning the promise itself would wait for it.
  return { errorFrame };
}

/** Asynchronous, so that the STOMP client answers the server's close handshake meanwhile. */
async function stop(container) {
  const t0 = Date.now();
  await promisify(execFile)('docker', ['stop', '-t', '35', container.name]);
  const ms = Date.now() - t0;
  const code = docker('inspect', '-f', '{{.State.ExitCode}}', container.name);
  const output = logs(container);
  const closing = output.includes('"msg":"SIGTERM: closing"');
  const closed = output.includes('"msg":"closed"');
  check(
    `docker stop ${container.name}`,
    code === '0' && closing && closed,
    `exit ${code} after ${ms} ms, logged SIGTERM: ${closing}, closed: ${closed}`,
  );
}

try {
  if (mode === 'embedded') {
    const web = start('all', 'all', { ...shared, ...ports() });
    await probes(web);
    const token = await signIn(web);
    const { errorFrame } = await stompClient(web, token);
    await stop(web);
    const message = await errorFrame;
    check('STOMP client told to reconnect on stop', message?.includes('connect again') === true, String(message));
  } else {
    const { DATABASE_URL, REDIS_URL } = process.env;
    if (!DATABASE_URL || !REDIS_URL) throw new Error('distributed needs DATABASE_URL and REDIS_URL');
    const env = { ...shared, DATABASE_URL, REDIS_URL };
    const web = start('web', 'web', { ...env, ...ports() });
    const worker = start('worker', 'worker', { ...env, ...ports() });
    await probes(web);
    await probes(worker);
    const workerApi = await fetch(`${worker.url}/api/about`);
    check('the worker serves no API (404)', workerApi.status === 404, String(workerApi.status));
    const token = await signIn(web);
    const { errorFrame } = await stompClient(web, token);
    await stop(worker);
    await stop(web);
    const message = await errorFrame;
    check('STOMP client told to reconnect on stop', message?.includes('connect again') === true, String(message));
  }
} catch (error) {
  check('run', false, error.message);
} finally {
  for (const { name, volume } of started) {
    execFileSync('docker', ['rm', '-f', name], { stdio: 'ignore' });
    execFileSync('docker', ['volume', 'rm', volume], { stdio: 'ignore' });
  }
}
process.stdout.write(failures.length ? `${failures.length} check(s) failed\n` : 'all checks passed\n');
process.exit(failures.length ? 1 : 0);
