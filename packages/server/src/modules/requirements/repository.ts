import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { requirements } from '../../db/schema/index.ts';
import { type Executor, type PageQuery, TableRepository } from '../../lib/table-repository.ts';

export type RequirementRecord = typeof requirements.$inferSelect;
export type RequirementInsert = typeof requirements.$inferInsert;

/** The only SQL of the requirements module, on its one table. */
export class RequirementsRepository extends TableRepository<typeof requirements> {
  constructor(db: Db) {
    super(db, requirements, {
      sortable: {
        key: requirements.key,
        title: requirements.title,
        status: requirements.status,
        createdAt: requirements.createdAt,
      },
      defaultSort: 'key',
      searched: [requirements.key, requirements.title],
    });
  }

  listPage(query: PageQuery & { projectId?: string; versionId?: string; ownerId?: string; status?: string }) {
    return this.page(query, [
      query.projectId ? eq(requirements.projectId, query.projectId) : undefined,
      query.versionId ? eq(requirements.versionId, query.versionId) : undefined,
      query.ownerId ? eq(requirements.ownerId, query.ownerId) : undefined,
      query.status ? eq(requirements.status, query.status) : undefined,
    ]);
  }

  async idsByKey(keys: string[]): Promise<Map<string, string>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db
      .select({ id: requirements.id, key: requirements.key })
      .from(requirements)
      .where(inArray(requirements.key, [...new Set(keys)]));
    return new Map(rows.map((r) => [r.key, r.id]));
  }

  /** The rows with these keys, read (and locked) in the caller's transaction (an import's upsert). */
  async byKeys(tx: Executor, keys: string[]): Promise<RequirementRecord[]> {
    if (keys.length === 0) return [];
    return tx
      .select()
      .from(requirements)
      .where(inArray(requirements.key, [...new Set(keys)]))
      .for('update');
  }

  keys(ids: string[]): Promise<Map<string, string>> {
    return this.labels(ids, requirements.key);
  }
}
