import { and, eq, exists } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teamMembers, teams } from '../../db/schema/index.ts';
import { LinkedRows } from '../../lib/linked-rows.ts';
import { type PageQuery, TableRepository } from '../../lib/table-repository.ts';

export type TeamRecord = typeof teams.$inferSelect;

/** The only SQL of the teams module on its tables: teams and their members (memberships.ts reads them for sockets). */
export class TeamsRepository extends TableRepository<typeof teams> {
  /** Teams with their members. */
  readonly withMembers = new LinkedRows(this.db, this, {
    table: teamMembers,
    owner: teamMembers.teamId,
    target: teamMembers.userId,
    value: (teamId, userId) => ({ teamId, userId }),
  });

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
}
