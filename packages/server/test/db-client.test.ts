import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
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

  it('takes a message of many socket reads whole, and the next one after it (pglite-socket joins them once)', async () => {
    const text = Array.from({ length: 300_000 }, (_, i) => `row ${i};`).join('');
    const [big, small] = await Promise.all([
      database.pool.query('select md5($1) as sum, length($1) as n', [text]),
      database.pool.query('select $1::int + 1 as next', [41]),
    ]);
    expect(big.rows[0]).toEqual({ sum: createHash('md5').update(text).digest('hex'), n: text.length });
    expect(small.rows[0]).toEqual({ next: 42 });
  });

  it('refuses a duplicate role name through the unique index', async () => {
    await expect(database.db.insert(roles).values({ name: 'probe' })).rejects.toThrow();
  });
});

describe('an embedded database started from a dump', () => {
  it('holds the dumped rows and needs no migration', async () => {
    const first = await openDatabase({});
    const file = join(mkdtempSync(join(tmpdir(), 'sx-dump-')), 'db.tar');
    try {
      await first.db.insert(roles).values({ name: 'dumped' });
      await first.dumpTo?.(file);
    } finally {
      await first.close();
    }
    const second = await openDatabase({ loadFrom: file });
    try {
      expect((await second.db.select().from(roles)).map((r) => r.name)).toEqual(['dumped']);
      const applied = await second.pool.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      const journal = JSON.parse(
        readFileSync(new URL('../src/db/migrations/meta/_journal.json', import.meta.url), 'utf8'),
      );
      expect(applied.rows[0].n).toBe(journal.entries.length);
    } finally {
      await second.close();
    }
  }, 120_000);
});
