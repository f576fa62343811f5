import type { ProjectInput, ProjectUpdate } from '@sextant/api';
import type { Db } from '../../db/client.ts';
import type { PageQuery } from '../../lib/table-repository.ts';
import { ApiError } from '../../plugins/errors.ts';
import type { AppsService } from '../apps/service.ts';
import { asApiError } from '../audit/constraint-errors.ts';
import { type Actor, type AuditService, changedFields } from '../audit/service.ts';
import { userRefs } from '../teams/people.ts';
import type { TeamsService } from '../teams/service.ts';
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

function snapshot(row: ProjectRecord, appIds: string[]) {
  const { id: _id, createdAt: _c, updatedAt: _u, ...shown } = row;
  return { ...shown, appIds };
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

  /** The apps a project delivers; null when there is no such project. */
  async appIdsOf(projectId: string): Promise<string[] | null> {
    if (!(await this.rows.find(projectId))) return null;
    return this.rows.appIdsOf(projectId);
  }

  async create(input: ProjectInput, actor: Actor) {
    const id = await this.rows
      .transaction(async (tx) => {
        const row = await this.rows.insert(tx, {
          name: input.name,
          teamId: input.teamId,
          ownerId: input.ownerId ?? null,
          startDate: input.startDate ?? null,
          endDate: input.endDate ?? null,
          status: input.status ?? 'planned',
        });
        const appIds = unique(input.appIds ?? []);
        await this.rows.setApps(tx, row.id, appIds, false);
        const changes = changedFields({}, snapshot(row, appIds));
        await this.audit.record(tx, actor, { entity: 'project', entityId: row.id, action: 'create', changes });
        return row.id;
      })
      .catch((e: unknown) => {
        throw asApiError(e, RULES);
      });
    return this.get(id);
  }

  async update(id: string, input: ProjectUpdate, actor: Actor) {
    const { appIds: newAppIds, ...fields } = input;
    await this.audit.updateAudited({
      entity: 'project',
      id,
      actor,
      notFound: NOT_FOUND,
      rules: RULES,
      current: async (tx) => {
        const row = await this.rows.lock(tx, id);
        return row && { row, appIds: await this.rows.appIdsOf(id, tx) };
      },
      update: async (tx, current) => {
        const startDate = fields.startDate === undefined ? current.row.startDate : fields.startDate;
        const endDate = fields.endDate === undefined ? current.row.endDate : fields.endDate;
        if (startDate && endDate && endDate < startDate) {
          const message = 'The end date is before the start date.';
          throw new ApiError(400, 'validation-failed', message, { endDate: message });
        }
        const row = await this.rows.update(tx, id, { ...fields, updatedAt: new Date() });
        if (!row) return undefined;
        const appIds = newAppIds ? unique(newAppIds) : current.appIds;
        if (newAppIds) await this.rows.setApps(tx, id, appIds, true);
        return { row, appIds };
      },
      snapshot: ({ row, appIds }) => snapshot(row, appIds),
    });
    return this.get(id);
  }

  async remove(id: string, actor: Actor) {
    await this.audit.removeAudited({
      entity: 'project',
      id,
      actor,
      notFound: NOT_FOUND,
      rules: RULES,
      snapshot: async (tx) => {
        const current = await this.rows.find(id, tx);
        return current && snapshot(current, await this.rows.appIdsOf(id, tx));
      },
      remove: (tx) => this.rows.delete(tx, id),
    });
  }

  private async present(rows: ProjectRecord[]) {
    const ids = rows.map((r) => r.id);
    const links = await this.rows.appLinks(ids);
    const [teamNames, appNames, owners] = await Promise.all([
      this.teams.names(rows.map((r) => r.teamId)),
      this.apps.names(links.map((l) => l.appId)),
      userRefs(
        this.db,
        rows.map((r) => r.ownerId),
      ),
    ]);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      teamId: r.teamId,
      teamName: teamNames.get(r.teamId) ?? '',
      owner: (r.ownerId && owners.get(r.ownerId)) || null,
      apps: links
        .filter((l) => l.projectId === r.id)
        .map((l) => ({ id: l.appId, name: appNames.get(l.appId) ?? '' }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      startDate: r.startDate,
      endDate: r.endDate,
      status: r.status as Status,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)].sort();
}
