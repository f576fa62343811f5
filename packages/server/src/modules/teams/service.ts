import type { TeamInput, TeamUpdate, UserRef } from '@sextant/api';
import type { Db } from '../../db/client.ts';
import type { PageQuery } from '../../lib/table-repository.ts';
import { ApiError } from '../../plugins/errors.ts';
import { asApiError } from '../audit/constraint-errors.ts';
import { type Actor, type AuditService, changedFields } from '../audit/service.ts';
import { teamPeople, userRefs } from './people.ts';
import { type TeamRecord, TeamsRepository } from './repository.ts';

const NOT_FOUND = 'No such team.';
const RULES = {
  entity: 'team',
  meanings: {
    teams_name_unique: { field: 'name', message: 'A team with this name exists.' },
    teams_leader_id_users_id_fk: { field: 'leaderId', message: 'No such user.' },
    team_members_user_id_users_id_fk: { field: 'memberIds', message: 'No such user.' },
  },
  referencedBy: { apps: 'apps', projects: 'projects' },
};

export class TeamsService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly rows = new TeamsRepository(db),
  ) {}

  async list(query: PageQuery & { memberId?: string }) {
    const { rows, total } = await this.rows.listPage(query);
    return { items: await this.present(rows), total };
  }

  async get(id: string) {
    const row = await this.rows.find(id);
    if (!row) throw new ApiError(404, 'not-found', NOT_FOUND);
    const [team] = await this.present([row]);
    return team as NonNullable<typeof team>;
  }

  /** Team names by id, for lists of things that belong to a team. */
  names(ids: string[]): Promise<Map<string, string>> {
    return this.rows.names(ids);
  }

  async create(input: TeamInput, actor: Actor) {
    const id = await this.rows
      .transaction(async (tx) => {
        const values = { name: input.name, leaderId: input.leaderId ?? null, description: input.description ?? '' };
        const row = await this.rows.insert(tx, values);
        const memberIds = unique(input.memberIds ?? []);
        await this.rows.setMembers(tx, row.id, memberIds, false);
        const changes = changedFields({}, snapshot(row, memberIds));
        await this.audit.record(tx, actor, { entity: 'team', entityId: row.id, action: 'create', changes });
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
      notFound: NOT_FOUND,
      rules: RULES,
      current: async (tx) => {
        const row = await this.rows.lock(tx, id);
        return row && { row, memberIds: await this.rows.memberIdsOf(tx, id) };
      },
      update: async (tx, current) => {
        const row = await this.rows.update(tx, id, {
          name: input.name ?? current.row.name,
          leaderId: input.leaderId === undefined ? current.row.leaderId : input.leaderId,
          description: input.description ?? current.row.description,
          updatedAt: new Date(),
        });
        if (!row) return undefined;
        const memberIds = input.memberIds ? unique(input.memberIds) : current.memberIds;
        if (input.memberIds) await this.rows.setMembers(tx, id, memberIds, true);
        return { row, memberIds };
      },
      snapshot: ({ row, memberIds }) => snapshot(row, memberIds),
    });
    return this.get(id);
  }

  async remove(id: string, actor: Actor) {
    await this.audit.removeAudited({
      entity: 'team',
      id,
      actor,
      notFound: NOT_FOUND,
      rules: RULES,
      snapshot: async (tx) => {
        const current = await this.rows.find(id, tx);
        return current && snapshot(current, await this.rows.memberIdsOf(tx, id));
      },
      remove: (tx) => this.rows.delete(tx, id),
    });
  }

  private async present(rows: TeamRecord[]) {
    const [people, leaders] = await Promise.all([
      teamPeople(
        this.db,
        rows.map((r) => r.id),
      ),
      userRefs(
        this.db,
        rows.map((r) => r.leaderId),
      ),
    ]);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      leader: (r.leaderId && (leaders.get(r.leaderId) as UserRef | undefined)) || null,
      members: people
        .filter((p) => p.teamId === r.id)
        .map(({ id, username, displayName }) => ({ id, username, displayName })),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)].sort();
}

function snapshot(row: TeamRecord, memberIds: string[]) {
  return { name: row.name, leaderId: row.leaderId, description: row.description, memberIds };
}
