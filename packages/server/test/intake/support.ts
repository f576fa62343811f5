import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { type AppOptions, buildApp } from '../../src/app.ts';
import type { Db } from '../../src/db/client.ts';
import { seed } from '../../src/db/seed.ts';
import { uploadsDir } from '../../src/lib/data-paths.ts';
import { classFilesIn } from '../../src/modules/intake/index.ts';
import { IntakeRepository } from '../../src/modules/intake/repository.ts';
import { StoredUploads } from '../../src/modules/intake/stored-uploads.ts';
import { type UploadStorage, UploadStore } from '../../src/modules/intake/upload-store.ts';
import { ADMIN_PASSWORD, freshDatabase, signIn, testAppOptions } from '../support/build-test-app.ts';

export const FIXTURES = join(import.meta.dirname, '../../../coverage/fixtures');

type Headers = Record<string, string>;
type Method = 'GET' | 'POST';
type TeamApp = { id: string; name: string; token: string };

/**
 * An app with its own data directory and upload limit, and two teams: "shop" (app checkout, member
 * `dev`) and "billing" (app invoices, member `other`); `client` may not create reports at all.
 */
export function useIntakeApp(opts: { uploadLimitBytes?: number; config?: Partial<AppOptions['config']> } = {}) {
  const t = {} as {
    app: FastifyInstance;
    db: Db;
    dataDir: string;
    admin: Headers;
    dev: Headers & { id?: string };
    devId: string;
    other: Headers;
    client: Headers;
    checkout: TeamApp;
    invoices: TeamApp;
    call: (method: Method, url: string, payload?: unknown, headers?: Headers) => Promise<LightMyRequestResponse>;
    /** Files in the app's uploads directory (temporary ones included). */
    storedFiles: (appId: string) => string[];
    close: () => Promise<void>;
  };
  beforeAll(async () => {
    const database = await freshDatabase();
    await seed(database.db, ADMIN_PASSWORD);
    t.dataDir = mkdtempSync(join(tmpdir(), 'sx-intake-'));
    t.app = await buildApp(
      testAppOptions({
        db: database.db,
        runJobs: false,
        config: {
          jwtSecret: 'test-secret-that-is-long-enough-for-hs256!!',
          accessTokenTtl: 900,
          dataDir: t.dataDir,
          repoPaths: [tmpdir()],
          ...(opts.uploadLimitBytes ? { uploadLimitBytes: opts.uploadLimitBytes } : {}),
          ...opts.config,
        },
      }),
    );
    t.db = database.db;
    t.close = async () => {
      await t.app.close();
      await database.close();
      rmSync(t.dataDir, { recursive: true, force: true });
    };
    t.admin = (await signIn(t.app, 'admin', ADMIN_PASSWORD)).headers;
    t.call = (method, url, payload, headers = t.admin) =>
      t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    const ok = async <T>(url: string, payload: unknown): Promise<T> => {
      const res = await t.call('POST', url, payload);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return res.json().data as T;
    };
    const user = async (username: string, role: string) => {
      const password = `${username}-password`;
      const created = await ok<{ id: string }>('/api/users', {
        username,
        email: `${username}@example.test`,
        role,
        password,
      });
      return { id: created.id, headers: (await signIn(t.app, username, password)).headers };
    };
    const dev = await user('dev', 'developer');
    const other = await user('other', 'developer');
    t.devId = dev.id;
    t.dev = dev.headers;
    t.other = other.headers;
    t.client = (await user('visitor', 'client')).headers;
    const shop = await ok<{ id: string }>('/api/teams', { name: 'shop', memberIds: [dev.id] });
    const billing = await ok<{ id: string }>('/api/teams', { name: 'billing', memberIds: [other.id] });
    const app = async (teamId: string, name: string) => {
      const created = await ok<{ id: string; ingestionToken: string }>('/api/apps', {
        teamId,
        name,
        language: 'java',
        repoUrl: `https://example.invalid/${name}.git`,
      });
      return { id: created.id, name, token: created.ingestionToken };
    };
    t.checkout = await app(shop.id, 'checkout');
    t.invoices = await app(billing.id, 'invoices');
    t.storedFiles = (appId) => {
      try {
        return readdirSync(uploadsDir(t.dataDir, appId));
      } catch {
        return [];
      }
    };
  }, 240_000);
  afterAll(async () => t.close?.());
  return t;
}

export function uploadQuery(fields: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString();
}

export function bearer(token: string): Headers {
  return { authorization: `Bearer ${token}` };
}

/** The kept uploads as the report pipeline reads them, from `dataDir` or the database. */
export function storedUploadsOf(db: Db, dataDir: string, storage: UploadStorage = 'file'): StoredUploads {
  const repository = new IntakeRepository(db, () => sql`select null::uuid`);
  return new StoredUploads(
    repository,
    new UploadStore(repository, dataDir, storage),
    classFilesIn(repository, dataDir, storage),
  );
}
