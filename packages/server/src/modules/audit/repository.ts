import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLogs, users } from '../../db/schema/index.ts';
import { type Executor, type PageQuery, TableRepository } from '../../lib/table-repository.ts';

type NewEntry = Omit<typeof auditLogs.$inferInsert, 'actorName'>;

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

  /**
   * Entries in one statement, each with its actor's username as it is now (kept with the entry, so
   * the log still names someone whose account is gone). The one read of the users table: inside the
   * insert, in the change's own transaction.
   */
  async append(tx: Executor, actorId: string, entries: NewEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const actorName = sql`coalesce((select ${users.username} from ${users} where ${users.id} = ${actorId}), '')`;
    await tx.insert(auditLogs).values(entries.map((entry) => ({ ...entry, actorName })));
  }
}
