import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

const JOURNAL = new URL('../../db/migrations/meta/_journal.json', import.meta.url);

/** The health module's SQL: a round trip and the migrations drizzle has recorded as applied. */
export class HealthRepository {
  constructor(private readonly db: Db) {}

  async roundTrip(): Promise<void> {
    await this.db.execute(sql`select 1`);
  }

  async appliedMigrations(): Promise<number> {
    const result = await this.db.execute<{ applied: number }>(
      sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
    );
    return Number(result.rows[0]?.applied ?? 0);
  }

  /** How many migrations this build ships (drizzle-kit's journal). */
  shippedMigrations(): number {
    const journal = JSON.parse(readFileSync(JOURNAL, 'utf8')) as { entries: unknown[] };
    return journal.entries.length;
  }
}
