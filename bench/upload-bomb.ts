// A gzip bomb against the upload route, beside a normal large upload, each against a fresh server in a
// process of its own (so its peak RSS is the server's): time to answer, the server's peak RSS, and the
// slowest GET /api/me answered while the upload ran (one request after another, from this process).
// Run: npx tsx bench/upload-bomb.ts   (PORT=N serves on that port; BOMB_MB / NORMAL_MB change the sizes)
//
// This machine (2 cores shared with other work, load average 18-30), PGlite, 2026-11-28:
//   upload            before the bounds (3d1c70c)                after (issue 32)
//                     status  answered  peak RSS  /api/me max    status  answered  peak RSS  /api/me max
//   idle server       -       -         -         -              -       -         961 MB    152 ms
//   bomb              201     92.1 s    3,459 MB  49,153 ms      413     2.7 s     1,020 MB  286 ms
//   3 bombs at once   201 x3  144.6 s   5,996 MB  96,219 ms      413 x3  3.0 s     1,092 MB  270 ms
//   normal large      201     7.5 s     1,261 MB  643 ms         201     7.5 s     1,323 MB  123 ms
// The bomb's 2.7 s is mostly the parser thread's start (tsx compiles the engine in it); the ratio
// bound stops it after its first 8 MiB.
import { type ChildProcess, fork } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { printTable } from './table.ts';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'bench/out/upload-bomb');
const BOMB_MB = Number(process.env.BOMB_MB ?? 560);
const NORMAL_MB = Number(process.env.NORMAL_MB ?? 100);
const PASSWORD = 'bench-admin-password';

type Ready = { port: number; ingestionToken: string; accessToken: string };

/** The server side: a fresh PGlite database and data folder, one team and app; tells the parent its port. */
async function serve(): Promise<void> {
  const { buildApp } = await import('../packages/server/src/app.ts');
  const { BENCH_ABOUT, benchConfig } = await import('./server-config.ts');
  const { openDatabase } = await import('../packages/server/src/db/client.ts');
  const { seed } = await import('../packages/server/src/db/seed.ts');
  const dataDir = mkdtempSync(join(tmpdir(), 'sx-bench-bomb-'));
  const database = await openDatabase({ pgliteDir: join(dataDir, 'pg') });
  await seed(database.db, PASSWORD);
  const app = await buildApp({
    db: database.db,
    config: benchConfig({ accessTokenTtl: 3600, dataDir }),
    about: BENCH_ABOUT,
  });
  await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  const call = async (url: string, payload: object, token?: string) => {
    const res = await app.inject({
      method: 'POST',
      url,
      payload,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.body}`);
    return res.json().data;
  };
  const { accessToken } = await call('/api/login', { username: 'admin', password: PASSWORD });
  const team = await call('/api/teams', { name: 'bench' }, accessToken);
  const created = await call(
    '/api/apps',
    { teamId: team.id, name: 'bench-app', language: 'java', repoUrl: 'https://example.invalid/bench.git' },
    accessToken,
  );
  const port = (app.server.address() as AddressInfo).port;
  process.send?.({ port, ingestionToken: created.ingestionToken, accessToken } satisfies Ready);
  process.on('message', async (message) => {
    if (message !== 'stop') return;
    const peakRssMb = process.resourceUsage().maxRSS / 1024;
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.send?.({ peakRssMb }, () => process.exit(0));
  });
}

/** LCOV text made of `lines` repeated until `mb` MiB, gzipped as it is made (nothing that size in memory). */
async function writeGzip(path: string, mb: number, record: (i: number) => string, trailer = ''): Promise<void> {
  if (existsSync(path)) return;
  mkdirSync(out, { recursive: true });
  const target = mb * 1024 * 1024;
  async function* text() {
    let written = 0;
    for (let i = 0; written < target; i++) {
      const chunk = record(i);
      written += chunk.length;
      yield chunk;
    }
    yield trailer;
  }
  await pipeline(Readable.from(text()), createGzip({ level: 9 }), createWriteStream(`${path}.tmp`));
  const { renameSync } = await import('node:fs');
  renameSync(`${path}.tmp`, path);
}

/** One file's line repeated: 560 MiB of LCOV in well under 1 MB of gzip. */
const bombRecord = (i: number) => (i === 0 ? 'TN:\nSF:src/a.c\n' : 'DA:1,1\n'.repeat(16 * 1024));

/** A plausible report: 2,000-line files, varied hits, functions and branches, each its own record. */
function normalRecord(i: number): string {
  const lines: string[] = [`TN:\nSF:src/module-${i % 97}/file-${i}.ts`];
  for (let f = 1; f <= 40; f++) lines.push(`FN:${f * 50},fn${f}`, `FNDA:${(i * f) % 7},fn${f}`);
  lines.push('FNF:40', `FNH:${30 + (i % 10)}`);
  for (let l = 1; l <= 2000; l++) {
    if (l % 3 === 0) lines.push(`BRDA:${l},0,0,${(i + l) % 4}`, `BRDA:${l},0,1,${(i * l) % 3}`);
    lines.push(`DA:${l},${(i * 31 + l * 17) % 11}`);
  }
  lines.push('LF:2000', 'LH:1818', 'end_of_record\n');
  return lines.join('\n');
}

function startServer(): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(new URL(import.meta.url).pathname, ['serve'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as Ready }));
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
}

function stopServer(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('message', (m) => resolve((m as { peakRssMb: number }).peakRssMb));
    child.send('stop');
  });
}

type Answer = { status: number; seconds: number; message: string };

function upload(port: number, token: string, file: string): Promise<Answer> {
  const started = performance.now();
  const query = 'app=bench-app&commit=main&envType=test&testType=2';
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/coverage/uploads?${query}`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/gzip',
          'content-length': statSync(file).size,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let message = text;
          try {
            message = (JSON.parse(text) as { message: string }).message;
          } catch {}
          resolve({ status: res.statusCode ?? 0, seconds: (performance.now() - started) / 1000, message });
        });
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE' && e.code !== 'ECONNRESET') reject(e);
    });
    createReadStream(file).pipe(req);
  });
}

/** GET /api/me one after another until `until` settles; the slowest answer in ms. */
async function slowestMe(port: number, token: string, until: Promise<unknown>): Promise<number> {
  let done = false;
  until.finally(() => {
    done = true;
  });
  let slowest = 0;
  while (!done) {
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    slowest = Math.max(slowest, performance.now() - started);
  }
  return slowest;
}

async function scenario(name: string, files: string[]): Promise<string[]> {
  const { child, ready } = await startServer();
  const answers = Promise.all(files.map((file) => upload(ready.port, ready.ingestionToken, file)));
  const slowest = await slowestMe(ready.port, ready.accessToken, answers);
  const results = await answers;
  const peak = await stopServer(child);
  const statuses = results.map((r) => r.status).join(',');
  const seconds = results.map((r) => r.seconds.toFixed(1)).join(', ');
  console.log(`${name}: ${results.map((r) => `${r.status} ${r.message}`).join(' | ')}`);
  return [name, statuses, seconds, peak.toFixed(0), slowest.toFixed(0)];
}

if (process.argv[2] === 'serve') {
  await serve();
} else {
  const bomb = join(out, `bomb-${BOMB_MB}.lcov.gz`);
  const normal = join(out, `normal-${NORMAL_MB}.lcov.gz`);
  await writeGzip(bomb, BOMB_MB, bombRecord, 'end_of_record\n');
  await writeGzip(normal, NORMAL_MB, normalRecord);
  const kb = (path: string) => `${(statSync(path).size / 1024).toFixed(0)} KB`;
  console.log(`bomb: ${BOMB_MB} MiB of LCOV in ${kb(bomb)}; normal: ${NORMAL_MB} MiB in ${kb(normal)}`);
  const rows = [
    await scenario('none (the idle server)', []),
    await scenario('bomb', [bomb]),
    await scenario('3 bombs at once', [bomb, bomb, bomb]),
    await scenario('normal large', [normal]),
  ];
  printTable(['upload', 'status', 'answered after (s)', 'server peak RSS (MB)', 'slowest /api/me (ms)'], rows);
}
