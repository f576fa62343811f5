import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { branches } from '../../db/schema/index.ts';
import { type Executor, type PageQuery, TableRepository } from '../../lib/table-repository.ts';

export type BranchRecord = typeof branches.$inferSelect;

/** The only SQL of the branches module, on its one table. */
export class BranchesRepository extends TableRepository<typeof branches> {
  constructor(db: Db) {
    super(db, branches, {
      sortable: { name: branches.name, tracked: branches.tracked, refreshedAt: branches.refreshedAt },
      defaultSort: 'name',
      searched: [branches.name],
    });
  }

  listPage(query: PageQuery & { appId?: string; tracked?: boolean }) {
    return this.page(query, [
      query.appId ? eq(branches.appId, query.appId) : undefined,
      query.tracked === undefined ? undefined : eq(branches.tracked, query.tracked),
    ]);
  }

  /** An app's branches, locked until the refresh's transaction ends. */
  lockOfApp(tx: Executor, appId: string): Promise<BranchRecord[]> {
    return tx.select().from(branches).where(eq(branches.appId, appId)).for('update');
  }

  /** A head seen on the remote: added, or moved to its commit and present again. */
  async upsertHead(tx: Executor, appId: string, head: { name: string; commit: string }, now: Date) {
    await tx
      .insert(branches)
      .values({ appId, name: head.name, commit: head.commit, refreshedAt: now })
      .onConflictDoUpdate({
        target: [branches.appId, branches.name],
        set: { commit: head.commit, present: true, refreshedAt: now },
      });
  }

  transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
