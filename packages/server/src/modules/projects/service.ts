import type { ProjectInput, ProjectUpdate } from '@sextant/api';
import { type AnyColumn, and, asc, count, desc, eq, exists, ilike, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { projectApps, projects } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import type { AppsService } from '../apps/service.ts';
import { asApiError, containsPattern } from '../audit/constraint-errors.ts';
import { type Actor, type AuditService, changedFields, type Executor } from '../audit/service.ts';
import { userRefs } from '../teams/people.ts';
import type { TeamsService } from '../teams/service.ts';

type ProjectRecord = typeof projects.$inferSelect;
type Status = NonNullable<ProjectInput['status']>;

const SORTABLE: Record<string, AnyColumn> = {
  name: projects.name,
  status: projects.status,
  startDate: projects.startDate,
  endDate: projects.endDate,
  createdAt: projects.createdAt,
};
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
    private readonly audit: AuditService,
    private readonly teams: TeamsService,
    private readonly apps: AppsService,
  ) {}

  async list(query: {
    page: number;
    perPage: number;
    q?: string;
    sortBy?: string;
    sortDesc: boolean;
    teamId?: string;
    appId?: string;
    status?: string;
  }) {
    const where = and(
      query.q ? ilike(projects.name, containsPattern(query.q)) : undefined,
      query.teamId ? eq(projects.teamId, query.teamId) : undefined,
      query.status ? eq(projects.status, query.status) : undefined,
      query.appId
        ? exists(
            this.db
              .select()
              .from(projectApps)
              .where(and(eq(projectApps.projectId, projects.id), eq(projectApps.appId, query.appId))),
          )
        : undefined,
    );
    const column = SORTABLE[query.sortBy ?? 'name'] ?? projects.name;
    const rows = await this.db
      .select()
      .from(projects)
      .where(where)
      .orderBy(query.sortDesc ? desc(column) : asc(column), asc(projects.id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage);
    const [total] = await this.db.select({ n: count() }).from(projects).where(where);
    return { items: await this.present(rows), total: total?.n ?? 0 };
  }

  async get(id: string) {
    const [row] = await this.db.select().from(projects).where(eq(projects.id, id));
    if (!row) throw new ApiError(404, 'not-found', 'No such project.');
    const [project] = await this.present([row]);
    return project as NonNullable<typeof project>;
  }

  /** Project names by id, for lists of things that belong to a project. */
  async names(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(inArray(projects.id, [...new Set(ids)]));
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** The apps a project delivers; null when there is no such project. */
  async appIdsOf(projectId: string): Promise<string[] | null> {
    const [row] = await this.db.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId));
    if (!row) return null;
    return appIdsOf(this.db, projectId);
  }

  async create(input: ProjectInput, actor: Actor) {
    const id = await this.db
      .transaction(async (tx) => {
        const [row] = await tx
          .insert(projects)
          .values({
            name: input.name,
            teamId: input.teamId,
            ownerId: input.ownerId ?? null,
            startDate: input.startDate ?? null,
            endDate: input.endDate ?? null,
            status: input.status ?? 'planned',
          })
          .returning();
        if (!row) throw new Error('insert returned no row');
        const appIds = unique(input.appIds ?? []);
        await setApps(tx, row.id, appIds);
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
      notFound: 'No such project.',
      rules: RULES,
      current: async (tx) => {
        const [row] = await tx.select().from(projects).where(eq(projects.id, id)).for('update');
        return row && { row, appIds: await appIdsOf(tx, id) };
      },
      update: async (tx, current) => {
        const startDate = fields.startDate === undefined ? current.row.startDate : fields.startDate;
        const endDate = fields.endDate === undefined ? current.row.endDate : fields.endDate;
        if (startDate && endDate && endDate < startDate) {
          const message = 'The end date is before the start date.';
          throw new ApiError(400, 'validation-failed', message, { endDate: message });
        }
        const [row] = await tx
          .update(projects)
          .set({ ...fields, updatedAt: new Date() })
          .where(eq(projects.id, id))
          .returning();
        if (!row) return undefined;
        const appIds = newAppIds ? unique(newAppIds) : current.appIds;
        if (newAppIds) {
          await tx.delete(projectApps).where(eq(projectApps.projectId, id));
          await setApps(tx, id, appIds);
        }
        return { row, appIds };
      },
      snapshot: ({ row, appIds }) => snapshot(row, appIds),
    });
    return this.get(id);
  }

  async remove(id: string, actor: Actor) {
    await this.db
      .transaction(async (tx) => {
        const [current] = await tx.select().from(projects).where(eq(projects.id, id));
        if (!current) throw new ApiError(404, 'not-found', 'No such project.');
        const appIds = await appIdsOf(tx, id);
        await tx.delete(projects).where(eq(projects.id, id));
        const changes = changedFields(snapshot(current, appIds), {});
        await this.audit.record(tx, actor, { entity: 'project', entityId: id, action: 'delete', changes });
      })
      .catch((e: unknown) => {
        throw asApiError(e, RULES);
      });
  }

  private async present(rows: ProjectRecord[]) {
    const ids = rows.map((r) => r.id);
    const links = ids.length ? await this.db.select().from(projectApps).where(inArray(projectApps.projectId, ids)) : [];
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

async function appIdsOf(tx: Executor, projectId: string): Promise<string[]> {
  const rows = await tx.select({ id: projectApps.appId }).from(projectApps).where(eq(projectApps.projectId, projectId));
  return rows.map((r) => r.id).sort();
}

async function setApps(tx: Executor, projectId: string, appIds: string[]) {
  if (appIds.length === 0) return;
  await tx.insert(projectApps).values(appIds.map((appId) => ({ projectId, appId })));
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)].sort();
}
