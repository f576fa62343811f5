import type { ProjectInput, ProjectUpdate } from '@sextant/api';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import type { Linked } from '../../lib/linked-rows.ts';
import { timestamps } from '../../lib/presented.ts';
import type { PageQuery } from '../../lib/table-repository.ts';
import type { AppsService } from '../apps/service.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { TeamsService } from '../teams/service.ts';
import { ownersOf } from '../users/accounts.ts';
import type { ProjectRecord, ProjectsRepository } from './repository.ts';

type Status = NonNullable<ProjectInput['status']>;

const NOT_FOUND = 'No such project.';
const RULES = {
  entity: 'project',
  meanings: {
    projects_name_unique: { field: 'name', message: 'A project with this name exists.' },
    projects_team_id_teams_id_fk: { field: 'teamId', message: 'No such team.' },
    projects_owner_id_users_id_fk: { field: 'ownerId', message: 'No such user.' },
    project_apps_app_id_apps_id_fk: { field: 'appIds', message: 'No such app.' },
  },
  referencedBy: { versions: 'versions', requirements: 'requirements' },
};

function snapshot({ row, ids }: Linked<ProjectRecord>) {
  const { id: _id, createdAt: _c, updatedAt: _u, ...shown } = row;
  return { ...shown, appIds: ids };
}

export class ProjectsService {
  constructor(
    private readonly db: Db,
    private readonly rows: ProjectsRepository,
    private readonly audit: AuditService,
    private readonly teams: TeamsService,
    private readonly apps: AppsService,
  ) {}

  async list(query: PageQuery & { teamId?: string; appId?: string; status?: string }) {
    const { rows, total } = await this.rows.listPage(query);
    return { items: await this.present(rows), total };
  }

  async get(id: string) {
    const row = await this.rows.find(id);
    if (!row) throw new ApiError(404, 'not-found', NOT_FOUND);
    const [project] = await this.present([row]);
    return project as NonNullable<typeof project>;
  }

  /** Project names by id, for lists of things that belong to a project. */
  names(ids: string[]): Promise<Map<string, string>> {
    return this.rows.names(ids);
  }

  /** Project ids by name (the ZenTao import finds a product's project by its name). */
  idsByName(names: string[]): Promise<Map<string, string>> {
    return this.rows.idsByName(names);
  }

  /** The apps a project delivers; null when there is no such project. */
  async appIdsOf(projectId: string): Promise<string[] | null> {
    const project = await this.rows.withApps.find(projectId);
    return project ? project.ids : null;
  }

  async create(input: ProjectInput, actor: Actor) {
    const { appIds = [], ...fields } = input;
    const values = {
      ...fields,
      ownerId: input.ownerId ?? null,
      startDate: input.startDate ?? null,
      endDate: input.endDate ?? null,
      status: input.status ?? 'planned',
    };
    const id = await this.audit.createRow(this.rows.withApps, {
      entity: 'project',
      actor,
      rules: RULES,
      values: { values, ids: appIds },
      snapshot,
    });
    return this.get(id);
  }

  async update(id: string, input: ProjectUpdate, actor: Actor) {
    const { appIds, ...fields } = input;
    const check = ({ row }: Linked<ProjectRecord>) => {
      const startDate = fields.startDate === undefined ? row.startDate : fields.startDate;
      const endDate = fields.endDate === undefined ? row.endDate : fields.endDate;
      if (startDate && endDate && endDate < startDate) {
        const message = 'The end date is before the start date.';
        throw new ApiError(400, 'validation-failed', message, { endDate: message });
      }
    };
    const values = { values: { ...fields, updatedAt: new Date() }, ids: appIds };
    await this.audit.updateRow(this.rows.withApps, { ...this.audited(id, actor), values, check });
    return this.get(id);
  }

  async remove(id: string, actor: Actor) {
    await this.audit.removeRow(this.rows.withApps, this.audited(id, actor));
  }

  private audited(id: string, actor: Actor) {
    return { entity: 'project', id, actor, notFound: NOT_FOUND, rules: RULES, snapshot } as const;
  }

  private async present(rows: ProjectRecord[]) {
    const ids = rows.map((r) => r.id);
    const links = await this.rows.withApps.linksOf(ids);
    const [teamNames, appNames, ownerOf] = await Promise.all([
      this.teams.names(rows.map((r) => r.teamId)),
      this.apps.names(links.map((l) => l.targetId)),
      ownersOf(this.db, rows),
    ]);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      teamId: r.teamId,
      teamName: teamNames.get(r.teamId) ?? '',
      owner: ownerOf(r.ownerId),
      apps: links
        .filter((l) => l.ownerId === r.id)
        .map((l) => ({ id: l.targetId, name: appNames.get(l.targetId) ?? '' }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      startDate: r.startDate,
      endDate: r.endDate,
      status: r.status as Status,
      ...timestamps(r),
    }));
  }
}
