import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { roles } from '../src/db/schema/index.ts';
import { freshDatabase } from './support/build-test-app.ts';

describe('openDatabase', () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase();
  }, 60_000);
  afterAll(async () => database?.close());

  it('applies the migrations and answers drizzle queries over node-postgres', async () => {
    await database.db.insert(roles).values({ name: 'probe', abilities: [{ action: 'read', resource: 'Auth' }] });
    const rows = await database.db.select().from(roles);
    expect(rows.map((r) => r.name)).toEqual(['probe']);
    expect(rows[0]?.abilities).toEqual([{ action: 'read', resource: 'Auth' }]);
  });

  it('refuses a duplicate role name through the unique index', async () => {
    await expect(database.db.insert(roles).values({ name: 'probe' })).rejects.toThrow();
  });
});
