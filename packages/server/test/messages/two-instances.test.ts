import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PATHS } from '@sextant/api';
import { Client, type IMessage } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { firstMissing, missingPostgres, missingRedis, skipWithout } from '../../../../tools/test-support/machine.ts';
import { asAdmin } from '../support/empty-server-database.ts';

// Two real server processes (`main.ts`) on two ports, sharing a throw-away database on this machine's
// PostgreSQL and fanning messages out through its Redis (DESIGN §2, scale-out).
const PG_SERVER = process.env.PG_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const noServices = skipWithout(
  'two server instances sharing PostgreSQL and Redis',
  firstMissing(await missingPostgres(PG_SERVER), await missingRedis(REDIS_URL)),
);
const root = new URL('../../../..', import.meta.url).pathname;
const adminPassword = `two-${randomBytes(8).toString('hex')}`;
const jwtSecret = randomBytes(48).toString('base64url');
const dbName = `sx_fanout_${randomBytes(6).toString('hex')}`;

function admin(sql: string): Promise<void> {
  return asAdmin(PG_SERVER, sql);
}

type Instance = { child: ChildProcess; base: string; dataDir: string };

function startInstance(databaseUrl: string): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sx-two-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      SEXTANT_DATA_DIR: dataDir,
      SEXTANT_ADMIN_PASSWORD: adminPassword,
      SEXTANT_JWT_SECRET: jwtSecret,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
      if (match?.[1]) resolve({ child, base: match[1], dataDir });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

async function stopInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode === null) {
    const exited = new Promise((resolve) => instance.child.once('exit', resolve));
    instance.child.kill('SIGTERM');
    await exited;
  }
  rmSync(instance.dataDir, { recursive: true, force: true });
}

async function call<T>(base: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as { code: number; message: string; data: T };
  if (envelope.code !== 200) throw new Error(`${method} ${path}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

/** A real @stomp/stompjs client subscribed to /all/messages, collecting what arrives. */
async function subscriber(base: string, token: string) {
  const received: IMessage[] = [];
  const waiters: (() => void)[] = [];
  const client = new Client({
    webSocketFactory: () => new WebSocket(`${base.replace('http', 'ws')}/ws`, ['v12.stomp']),
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
  });
  await new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onStompError = (frame) => reject(new Error(frame.headers.message));
    client.activate();
  });
  const subscribed = new Promise<void>((resolve) => client.watchForReceipt('sub', () => resolve()));
  client.subscribe(
    '/all/messages',
    (m) => {
      received.push(m);
      for (const wake of waiters.splice(0)) wake();
    },
    { receipt: 'sub' },
  );
  await subscribed;
  const bodies = () => received.map((m) => JSON.parse(m.body) as { id: string });
  return {
    client,
    bodies,
    /** Resolves once a message with this id has arrived. */
    waitFor: async (id: string) => {
      while (!bodies().some((b) => b.id === id)) await new Promise<void>((wake) => waiters.push(wake));
    },
  };
}

describe.skipIf(noServices)('two server instances sharing PostgreSQL and Redis', () => {
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    await admin(`create database ${dbName}`);
    const url = new URL(PG_SERVER);
    url.pathname = `/${dbName}`;
    // One after the other: the first migrates and seeds, the second finds both done.
    a = await startInstance(url.toString());
    b = await startInstance(url.toString());
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a && stopInstance(a), b && stopInstance(b)]);
    await admin(`drop database if exists ${dbName}`);
  }, 60_000);

  it('delivers a message published on A to a STOMP client on B, once, and both read the same notifications', async () => {
    const { accessToken } = await call<{ accessToken: string }>(a.base, 'POST', '/api/login', {
      username: 'admin',
      password: adminPassword,
    });
    const onB = await subscriber(b.base, accessToken);
    const onA = await subscriber(a.base, accessToken);
    const id = `fanout-${randomBytes(4).toString('hex')}`;
    const published = await call<{ id: string }>(
      a.base,
      'POST',
      PATHS.messages,
      { id, title: 'Report ready', text: 'done', report_id: 'rep-1', agent_id: 'ag-1', status: 'SUCCESS' },
      accessToken,
    );
    await Promise.all([onB.waitFor(id), onA.waitFor(id)]);
    expect(onB.bodies().find((m) => m.id === id)).toEqual(published);
    // a second message marks the end: the first must not have arrived twice on either instance
    const marker = `${id}-end`;
    await call(a.base, 'POST', PATHS.messages, { id: marker, title: 'end', message_type: 'NOTICE' }, accessToken);
    await Promise.all([onB.waitFor(marker), onA.waitFor(marker)]);
    expect(onB.bodies().filter((m) => m.id === id)).toHaveLength(1);
    expect(onA.bodies().filter((m) => m.id === id)).toHaveLength(1);
    const pageOnB = await call<{ unread: number; items: { id: string }[] }>(
      b.base,
      'GET',
      PATHS.notifications,
      undefined,
      accessToken,
    );
    expect(pageOnB.items.map((m) => m.id)).toEqual([marker, id]);
    expect(pageOnB.unread).toBe(2);
    await Promise.all([onA.client.deactivate(), onB.client.deactivate()]);
  }, 60_000);
});
