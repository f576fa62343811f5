import { verify } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { roles, settings, users } from '../src/db/schema/index.ts';
import { seed } from '../src/db/seed.ts';
import { freshDatabase } from './support/build-test-app.ts';

describe('seed', () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase();
  }, 60_000);
  afterAll(async () => database?.close());

  it('creates roles, settings and the admin once, with a generated password returned only the first time', async () => {
    const password = await seed(database.db, undefined);
    expect(password).toMatch(/^[\w-]{16}$/);
    expect(await seed(database.db, undefined)).toBeUndefined();
    const names = (await database.db.select().from(roles)).map((r) => r.name).sort();
    expect(names).toEqual(['admin', 'client', 'developer', 'manager', 'tester']);
    const [admin] = await database.db.select().from(users);
    expect(admin?.usertypes).toEqual([1]);
    expect(await verify(admin?.passwordHash ?? '', password ?? '')).toBe(true);
    expect((await database.db.select().from(settings)).length).toBeGreaterThan(5);
  });
});
