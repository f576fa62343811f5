import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type IMessage } from '@stomp/stompjs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { WebSocket } from 'ws';
import { buildApp } from '../../src/app.ts';
import type { Db } from '../../src/db/client.ts';
import { reports } from '../../src/db/schema/index.ts';
import { seed } from '../../src/db/seed.ts';
import type { RealtimeOptions } from '../../src/plugins/realtime.ts';
import { ADMIN_PASSWORD, freshDatabase, signIn, testAppOptions } from '../support/build-test-app.ts';

type Headers = Record<string, string>;
type User = { id: string; token: string; headers: Headers };
type TeamApp = { id: string; teamId: string; token: string; reportId: string };

/**
 * A listening server with two teams: "shop" (app checkout, developer `dev`) and "billing" (app
 * invoices, developer `other`), a report of each, and `visitor`, a client without Report read.
 */
export function useTwoTeams(realtime: Omit<RealtimeOptions, 'fanOut'> = {}) {
  const t = {} as {
    app: FastifyInstance;
    db: Db;
    url: string;
    admin: User;
    dev: User;
    other: User;
    visitor: User;
    checkout: TeamApp;
    invoices: TeamApp;
    call: (
      method: 'GET' | 'POST' | 'PATCH',
      url: string,
      payload?: unknown,
      headers?: Headers,
    ) => Promise<LightMyRequestResponse>;
    createUser: (username: string, role: string) => Promise<User>;
  };
  let close = async () => {};
  beforeAll(async () => {
    const database = await freshDatabase();
    await seed(database.db, ADMIN_PASSWORD);
    const dataDir = mkdtempSync(join(tmpdir(), 'sx-messages-'));
    t.db = database.db;
    t.app = await buildApp(
      testAppOptions({
        db: database.db,
        runJobs: false,
        config: {
          jwtSecret: 'test-secret-that-is-long-enough-for-hs256!!',
          accessTokenTtl: 900,
          dataDir,
          ...(realtime.connectTimeoutMs === undefined ? {} : { wsConnectTimeoutMs: realtime.connectTimeoutMs }),
          ...(realtime.recheckMs === undefined ? {} : { wsRecheckMs: realtime.recheckMs }),
        },
      }),
    );
    close = async () => {
      await t.app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
    const admin = await signIn(t.app, 'admin', ADMIN_PASSWORD);
    t.admin = { id: '', token: admin.accessToken, headers: admin.headers };
    t.call = (method, url, payload, headers = t.admin.headers) =>
      t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    const ok = async <T>(method: 'POST' | 'PATCH', url: string, payload: unknown): Promise<T> => {
      const res = await t.call(method, url, payload);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return res.json().data as T;
    };
    t.createUser = async (username, role) => {
      const password = `${username}-password`;
      const { id } = await ok<{ id: string }>('POST', '/api/users', {
        username,
        email: `${username}@example.test`,
        role,
        password,
      });
      const session = await signIn(t.app, username, password);
      return { id, token: session.accessToken, headers: session.headers };
    };
    t.dev = await t.createUser('dev', 'developer');
    t.other = await t.createUser('other', 'developer');
    t.visitor = await t.createUser('visitor', 'client');
    const teamApp = async (team: string, name: string, member: User): Promise<TeamApp> => {
      const { id: teamId } = await ok<{ id: string }>('POST', '/api/teams', { name: team, memberIds: [member.id] });
      const created = await ok<{ id: string; ingestionToken: string }>('POST', '/api/apps', {
        teamId,
        name,
        language: 'java',
        repoUrl: `https://example.invalid/${name}.git`,
      });
      const [report] = await t.db
        .insert(reports)
        .values({
          appId: created.id,
          name: `${name} v2`,
          baseVersion: 'v1',
          newVersion: 'v2',
          envType: 'test',
          testType: 1,
          coverageType: 'full',
          status: 'CLONING',
        })
        .returning({ id: reports.id });
      return { id: created.id, teamId, token: created.ingestionToken, reportId: report!.id };
    };
    t.checkout = await teamApp('shop', 'checkout', t.dev);
    t.invoices = await teamApp('billing', 'invoices', t.other);
  }, 60_000);
  afterAll(async () => close());
  return t;
}

export type Listener = Awaited<ReturnType<typeof stompListener>>;

/**
 * A real @stomp/stompjs client subscribed to `/all/messages` and `/user/queue/messages`, keeping what
 * arrives on each, the ERROR frames it gets and whether its socket closed.
 */
export async function stompListener(url: string, token: string) {
  const got: Record<string, { id: string; [field: string]: unknown }[]> = {
    '/all/messages': [],
    '/user/queue/messages': [],
  };
  const errors: string[] = [];
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  const client = new Client({
    webSocketFactory: () => new WebSocket(url, ['v12.stomp']),
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
  });
  const closed = new Promise<void>((resolve) => {
    client.onWebSocketClose = () => resolve();
  });
  await new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onStompError = (frame) => reject(new Error(frame.headers.message));
    client.activate();
  });
  client.onStompError = (frame) => {
    errors.push(frame.headers.message ?? '');
    wake();
  };
  for (const destination of Object.keys(got)) {
    const ready = new Promise<void>((resolve) => client.watchForReceipt(destination, () => resolve()));
    client.subscribe(
      destination,
      (m: IMessage) => {
        got[destination]?.push(JSON.parse(m.body));
        wake();
      },
      { receipt: destination },
    );
    await ready;
  }
  const ids = (destination = '/all/messages') => (got[destination] ?? []).map((m) => m.id);
  return {
    client,
    got,
    errors,
    ids,
    closed,
    /** Resolves once a message with this id has arrived on the destination. */
    waitFor: async (id: string, destination = '/all/messages') => {
      while (!ids(destination).includes(id)) await new Promise<void>((w) => waiters.push(w));
    },
  };
}
