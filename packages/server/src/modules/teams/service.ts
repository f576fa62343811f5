import type { TeamInput, TeamUpdate, UserRef } from '@sextant/api';
import { type AnyColumn, and, asc, count, desc, eq, exists, ilike, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teamMembers, teams, users } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import { asApiError, containsPattern } from '../audit/constraint-errors.ts';
import { type Actor, type AuditService, changedFields, type Executor } from '../audit/service.ts';

const SORTABLE: Record<string, AnyColumn> = {
  name: teams.name,
  createdAt: teams.createdAt,
  updatedAt: teams.updatedAt,
};
const RULES = {
  entity: 'team',
  meanings: {
    teams_name_unique: { field: 'name', message: 'A team with this name exists.' },
    teams_leader_id_users_id_fk: { field: 'leaderId', message: 'No such user.' },
    team_members_user_id_users_id_fk: { field: 'memberIds', message: 'No such user.' },
  },
  referencedBy: { apps: 'apps', projects: 'projects' },
};

type TeamRecord = typeof teams.$inferSelect;

export class TeamsService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
  ) {}

  async list(query: {
    page: number;
    perPage: number;
    q?: string;
    sortBy?: string;
    sortDesc: boolean;
    memberId?: string;
  }) {
    const pattern = query.q ? containsPattern(query.q) : null;
    const where = and(
      pattern ? or(ilike(teams.name, pattern), ilike(teams.description, pattern)) : undefined,
      query.memberId
        ? exists(
            this.db
              .select()
              .from(teamMembers)
              .where(and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, query.memberId))),
          )
        : undefined,
    );
    const column = SORTABLE[query.sortBy ?? 'name'] ?? teams.name;
    const rows = await this.db
      .select()
      .from(teams)
      .where(where)
      .orderBy(query.sortDesc ? desc(column) : asc(column), asc(teams.id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage);
    const [total] = await this.db.select({ n: count() }).from(teams).where(where);
    return { items: await this.present(rows), total: total?.n ?? 0 };
  }

  async get(id: string) {
    const [row] = await this.db.select().from(teams).where(eq(teams.id, id));
    if (!row) throw new ApiError(404, 'not-found', 'No such team.');
    const [team] = await this.present([row]);
    return team as NonNullable<typeof team>;
  }

  /** Team names by id, for lists of things that belong to a team. */
  async names(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: teams.id, name: teams.name })
      .from(teams)
      .where(inArray(teams.id, [...new Set(ids)]));
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async create(input: TeamInput, actor: Actor) {
    const id = await this.db
      .transaction(async (tx) => {
        const [row] = await tx
          .insert(teams)
          .values({ name: input.name, leaderId: input.leaderId ?? null, description: input.description ?? '' })
          .returning();
        if (!row) throw new Error('insert returned no row');
        const memberIds = unique(input.memberIds ?? []);
        await this.setMembers(tx, row.id, memberIds);
        await this.audit.record(tx, actor, {
          entity: 'team',
          entityId: row.id,
          action: 'create',
          changes: changedFields({}, snapshot(row, memberIds)),
        });
        return row.id;
      })
      .catch((e: unknown) => {
        throw asApiError(e, RULES);
      });
    return this.get(id);
  }

  async update(id: string, input: TeamUpdate, actor: Actor) {
    await this.audit.updateAudited({
      entity: 'team',
      id,
      actor,
      notFound: 'No such team.',
      rules: RULES,
      current: async (tx) => {
        const [row] = await tx.select().from(teams).where(eq(teams.id, id)).for('update');
        return row && { row, memberIds: await memberIdsOf(tx, id) };
      },
      update: async (tx, current) => {
        const [row] = await tx
          .update(teams)
          .set({
            name: input.name ?? current.row.name,
            leaderId: input.leaderId === undefined ? current.row.leaderId : input.leaderId,
            description: input.description ?? current.row.description,
            updatedAt: new Date(),
          })
          .where(eq(teams.id, id))
          .returning();
        if (!row) return undefined;
        const memberIds = input.memberIds ? unique(input.memberIds) : current.memberIds;
        if (input.memberIds) {
          await tx.delete(teamMembers).where(eq(teamMembers.teamId, id));
          await this.setMembers(tx, id, memberIds);
        }
        return { row, memberIds };
      },
      snapshot: ({ row, memberIds }) => snapshot(row, memberIds),
    });
    return this.get(id);
  }

  async remove(id: string, actor: Actor) {
    await this.db
      .transaction(async (tx) => {
        const [current] = await tx.select().from(teams).where(eq(teams.id, id));
        if (!current) throw new ApiError(404, 'not-found', 'No such team.');
        const members = await memberIdsOf(tx, id);
        await tx.delete(teams).where(eq(teams.id, id));
        await this.audit.record(tx, actor, {
          entity: 'team',
          entityId: id,
          action: 'delete',
          changes: changedFields(snapshot(current, members), {}),
        });
      })
      .catch((e: unknown) => {
        throw asApiError(e, RULES);
      });
  }

  private async setMembers(tx: Executor, teamId: string, memberIds: string[]) {
    if (memberIds.length === 0) return;
    await tx.insert(teamMembers).values(memberIds.map((userId) => ({ teamId, userId })));
  }

  private async present(rows: TeamRecord[]) {
    const ids = rows.map((r) => r.id);
    const people = ids.length
      ? await this.db
          .select({
            teamId: teamMembers.teamId,
            id: users.id,
            username: users.username,
            displayName: users.displayName,
          })
          .from(teamMembers)
          .innerJoin(users, eq(users.id, teamMembers.userId))
          .where(inArray(teamMembers.teamId, ids))
          .orderBy(asc(users.username))
      : [];
    const leaderIds = rows.flatMap((r) => (r.leaderId ? [r.leaderId] : []));
    const leaders = leaderIds.length
      ? await this.db
          .select({ id: users.id, username: users.username, displayName: users.displayName })
          .from(users)
          .where(inArray(users.id, leaderIds))
      : [];
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      leader: (leaders.find((l) => l.id === r.leaderId) as UserRef | undefined) ?? null,
      members: people
        .filter((p) => p.teamId === r.id)
        .map(({ id, username, displayName }) => ({ id, username, displayName })),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}

async function memberIdsOf(tx: Executor, teamId: string): Promise<string[]> {
  const rows = await tx.select({ id: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
  return rows.map((r) => r.id).sort();
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)].sort();
}

function snapshot(row: TeamRecord, memberIds: string[]) {
  return { name: row.name, leaderId: row.leaderId, description: row.description, memberIds };
}
