import type { Application } from '@sextant/api';
import { and, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { applications } from '../../db/schema/index.ts';
import { type Executor, TableRepository } from '../../lib/table-repository.ts';

export type ApplicationRecord = typeof applications.$inferSelect;

/** The only SQL of the access requests (the applications table, kept in db/schema/settings.ts). */
export class ApplicationsRepository extends TableRepository<typeof applications> {
  constructor(db: Db) {
    super(db, applications, {
      sortable: { createdAt: applications.createdAt },
      defaultSort: 'createdAt',
      searched: [applications.username, applications.email],
    });
  }

  /** Newest first. */
  listPage(query: { page: number; perPage: number; q?: string; status?: Application['status'] }) {
    return this.page({ ...query, sortDesc: true }, [query.status ? eq(applications.status, query.status) : undefined]);
  }

  /** Pending requests holding this compared username or this (lower-case) email, as (key, email). */
  pendingHolding(executor: Executor, key: string, email: string): Promise<{ key: string; email: string }[]> {
    return executor
      .select({ key: applications.usernameKey, email: applications.email })
      .from(applications)
      .where(
        and(eq(applications.status, 'pending'), or(eq(applications.usernameKey, key), eq(applications.email, email))),
      );
  }

  /** Records the decision on a request still pending (a request decided meanwhile is left as it is). */
  async decide(
    executor: Executor,
    id: string,
    decision: { status: 'approved' | 'rejected'; decidedBy: string; decisionNote: string },
  ): Promise<void> {
    await executor
      .update(applications)
      .set({ ...decision, decidedAt: new Date() })
      .where(and(eq(applications.id, id), eq(applications.status, 'pending')));
  }
}
