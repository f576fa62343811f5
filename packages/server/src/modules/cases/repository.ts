import { and, arrayContains, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cases } from '../../db/schema/index.ts';
import { type Executor, type PageQuery, TableRepository } from '../../lib/table-repository.ts';

export type CaseRecord = typeof cases.$inferSelect;
export type CaseInsert = typeof cases.$inferInsert;

/** The only SQL of the test cases module, on its one table. */
export class CasesRepository extends TableRepository<typeof cases> {
  constructor(db: Db) {
    super(db, cases, {
      sortable: { key: cases.key, title: cases.title, type: cases.type, createdAt: cases.createdAt },
      defaultSort: 'key',
      searched: [cases.key, cases.title],
    });
  }

  listPage(
    query: PageQuery & { appId?: string; requirementId?: string; ownerId?: string; type?: string; tag?: string },
  ) {
    return this.page(query, [
      query.appId ? eq(cases.appId, query.appId) : undefined,
      query.requirementId ? eq(cases.requirementId, query.requirementId) : undefined,
      query.ownerId ? eq(cases.ownerId, query.ownerId) : undefined,
      query.type ? eq(cases.type, query.type) : undefined,
      query.tag ? arrayContains(cases.tags, [query.tag]) : undefined,
    ]);
  }

  /** Which of these keys the app already uses. */
  async existingKeys(appId: string, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db
      .select({ key: cases.key })
      .from(cases)
      .where(and(eq(cases.appId, appId), inArray(cases.key, keys)));
    return new Set(rows.map((r) => r.key));
  }

  /** The cases of these apps with these keys, read (and locked) in the caller's transaction (an import's upsert). */
  async byKeys(tx: Executor, appIds: string[], keys: string[]): Promise<CaseRecord[]> {
    if (appIds.length === 0 || keys.length === 0) return [];
    return tx
      .select()
      .from(cases)
      .where(and(inArray(cases.appId, [...new Set(appIds)]), inArray(cases.key, [...new Set(keys)])))
      .for('update');
  }

  insertMany(tx: Executor, values: (typeof cases.$inferInsert)[]): Promise<CaseRecord[]> {
    return tx.insert(cases).values(values).returning();
  }

  /** A transaction for an import's inserts and their audit entries. */
  transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
