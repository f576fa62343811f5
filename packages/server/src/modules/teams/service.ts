import type { TeamInput, TeamUpdate } from '@sextant/api';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import type { Linked } from '../../lib/linked-rows.ts';
import { timestamps } from '../../lib/presented.ts';
import type { PageQuery } from '../../lib/table-repository.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { Accounts } from '../users/accounts.ts';
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
    const values = { name: input.name, leaderId: input.leaderId ?? null, description: input.description ?? '' };
    const id = await this.audit.createRow(this.rows.withMembers, {
      entity: 'team',
      actor,
      rules: RULES,
      values: { values, ids: input.memberIds ?? [] },
      snapshot,
    });
    return this.get(id);
  }

  async update(id: string, input: TeamUpdate, actor: Actor) {
    const { memberIds, ...fields } = input;
    const values = { values: { ...fields, updatedAt: new Date() }, ids: memberIds };
    await this.audit.updateRow(this.rows.withMembers, { ...this.audited(id, actor), values });
    return this.get(id);
  }

  async remove(id: string, actor: Actor) {
    await this.audit.removeRow(this.rows.withMembers, this.audited(id, actor));
  }

  private audited(id: string, actor: Actor) {
    return { entity: 'team', id, actor, notFound: NOT_FOUND, rules: RULES, snapshot } as const;
  }

  /** Teams with their leader and their members by username (the people are the users module's). */
  private async present(rows: TeamRecord[]) {
    const links = await this.rows.withMembers.linksOf(rows.map((r) => r.id));
    const people = await new Accounts(this.db).orderedRefs([
      ...links.map((l) => l.targetId),
      ...rows.map((r) => r.leaderId),
    ]);
    const byId = new Map(people.map((p) => [p.id, p]));
    return rows.map((r) => {
      const members = new Set(links.filter((l) => l.ownerId === r.id).map((l) => l.targetId));
      return {
        id: r.id,
        name: r.name,
        description: r.description,
        leader: (r.leaderId && byId.get(r.leaderId)) || null,
        members: people.filter((p) => members.has(p.id)),
        ...timestamps(r),
      };
    });
  }
}

function snapshot({ row, ids }: Linked<TeamRecord>) {
  return { name: row.name, leaderId: row.leaderId, description: row.description, memberIds: ids };
}
