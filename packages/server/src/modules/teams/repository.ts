import { and, eq, exists } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teamMembers, teams } from '../../db/schema/index.ts';
import { type Executor, type PageQuery, TableRepository } from '../../lib/table-repository.ts';

export type TeamRecord = typeof teams.$inferSelect;

/** The only SQL of the teams module on its tables: teams and their members (memberships.ts reads them for sockets). */
export class TeamsRepository extends TableRepository<typeof teams> {
  constructor(db: Db) {
    super(db, teams, {
      sortable: { name: teams.name, createdAt: teams.createdAt, updatedAt: teams.updatedAt },
      defaultSort: 'name',
      searched: [teams.name, teams.description],
    });
  }

  listPage(query: PageQuery & { memberId?: string }) {
    return this.page(query, [
      query.memberId
        ? exists(
            this.db
              .select()
              .from(teamMembers)
              .where(and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, query.memberId))),
          )
        : undefined,
    ]);
  }

  names(ids: string[]): Promise<Map<string, string>> {
    return this.labels(ids, teams.name);
  }

  async memberIdsOf(tx: Executor, teamId: string): Promise<string[]> {
    const rows = await tx.select({ id: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
    return rows.map((r) => r.id).sort();
  }

  /** Sets a team's members (`replace`: drops the ones it had first). */
  async setMembers(tx: Executor, teamId: string, memberIds: string[], replace: boolean) {
    if (replace) await tx.delete(teamMembers).where(eq(teamMembers.teamId, teamId));
    if (memberIds.length === 0) return;
    await tx.insert(teamMembers).values(memberIds.map((userId) => ({ teamId, userId })));
  }

  transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
