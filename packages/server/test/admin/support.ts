import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { ADMIN_PASSWORD, buildTestApp, signIn } from '../support/build-test-app.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Headers = Record<string, string>;

/** One app per test file, signed in as admin, with a client and a read-only user beside it. */
export function useAdminApi() {
  const t = {} as {
    app: FastifyInstance;
    db: Db;
    close: () => Promise<void>;
    admin: Headers;
    client: Headers;
    call: (method: Method, url: string, payload?: unknown, headers?: Headers) => Promise<LightMyRequestResponse>;
    ok: <T = Record<string, unknown>>(method: Method, url: string, payload?: unknown) => Promise<T>;
    createUser: (username: string, role?: string) => Promise<{ id: string; headers: Headers }>;
    auditOf: (entity: string, entityId: string) => Promise<{ action: string; actorName: string; changes: object }[]>;
  };
  beforeAll(async () => {
    const built = await buildTestApp();
    t.app = built.app;
    t.close = built.close;
    t.db = built.database.db;
    t.admin = (await signIn(t.app, 'admin', ADMIN_PASSWORD)).headers;
    t.call = (method, url, payload, headers = t.admin) =>
      t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    t.ok = async (method, url, payload) => {
      const res = await t.call(method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
      return res.json().data;
    };
    t.createUser = async (username, role = 'client') => {
      const password = `${username}-password`;
      const user = await t.ok<{ id: string }>('POST', '/api/users', {
        username,
        email: `${username}@example.test`,
        role,
        password,
      });
      return { id: user.id, headers: (await signIn(t.app, username, password)).headers };
    };
    t.auditOf = async (entity, entityId) =>
      (
        await t.ok<{ items: { action: string; actorName: string; changes: object }[] }>(
          'GET',
          `/api/auditLogs?entity=${entity}&entityId=${entityId}&perPage=200&sortDesc=false`,
        )
      ).items;
    t.client = (await t.createUser('plainclient')).headers;
  }, 60_000);
  afterAll(async () => t.close?.());
  return t;
}

export const LONG_NAME = 'x'.repeat(10_000);
export const SCRIPT = '<script>alert(1)</script>';
