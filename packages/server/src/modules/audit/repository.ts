import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLogs } from '../../db/schema/index.ts';
import { type Executor, type PageQuery, TableRepository } from '../../lib/table-repository.ts';

type NewEntry = typeof auditLogs.$inferInsert;

/** The only SQL of the audit log. */
export class AuditRepository extends TableRepository<typeof auditLogs> {
  constructor(db: Db) {
    super(db, auditLogs, { sortable: { id: auditLogs.id }, defaultSort: 'id', searched: [] });
  }

  listPage(query: Omit<PageQuery, 'q' | 'sortBy'> & { entity?: string; entityId?: string; userId?: string }) {
    return this.page(query, [
      query.entity ? eq(auditLogs.entity, query.entity) : undefined,
      query.entityId ? eq(auditLogs.entityId, query.entityId) : undefined,
      query.userId ? eq(auditLogs.actorId, query.userId) : undefined,
    ]);
  }

  /** Entries in one statement, in the change's own transaction. */
  async append(tx: Executor, entries: NewEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await tx.insert(auditLogs).values(entries);
  }
}
