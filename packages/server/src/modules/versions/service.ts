import type { VersionInput, VersionUpdate } from '@sextant/api';
import { type AnyColumn, and, asc, count, desc, eq, ilike, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { versions } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import type { AppsService } from '../apps/service.ts';
import { asApiError, containsPattern } from '../audit/constraint-errors.ts';
import { type Actor, type AuditService, changedFields, firstRow } from '../audit/service.ts';
import type { ProjectsService } from '../projects/service.ts';

type VersionRecord = typeof versions.$inferSelect;
type Status = NonNullable<VersionInput['status']>;

const SORTABLE: Record<string, AnyColumn> = {
  name: versions.name,
  status: versions.status,
  plannedRelease: versions.plannedRelease,
  createdAt: versions.createdAt,
};
const RULES = {
  entity: 'version',
  meanings: {
    versions_project_app_name_unique: {
      field: 'name',
      message: 'This app already has a version with this name in this project.',
    },
    versions_project_id_projects_id_fk: { field: 'projectId', message: 'No such project.' },
    versions_app_id_apps_id_fk: { field: 'appId', message: 'No such app.' },
  },
  referencedBy: { requirements: 'requirements' },
};

function snapshot(row: VersionRecord) {
  const { id: _id, createdAt: _c, updatedAt: _u, ...shown } = row;
  return shown;
}

export class VersionsService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly projects: ProjectsService,
    private readonly apps: AppsService,
  ) {}

  async list(query: {
    page: number;
    perPage: number;
    q?: string;
    sortBy?: string;
    sortDesc: boolean;
    projectId?: string;
    appId?: string;
    status?: string;
  }) {
    const pattern = query.q ? containsPattern(query.q) : null;
    const where = and(
      pattern
        ? or(ilike(versions.name, pattern), ilike(versions.newRef, pattern), ilike(versions.baseRef, pattern))
        : undefined,
      query.projectId ? eq(versions.projectId, query.projectId) : undefined,
      query.appId ? eq(versions.appId, query.appId) : undefined,
      query.status ? eq(versions.status, query.status) : undefined,
    );
    const column = SORTABLE[query.sortBy ?? 'createdAt'] ?? versions.createdAt;
    const rows = await this.db
      .select()
      .from(versions)
      .where(where)
      .orderBy(query.sortDesc ? desc(column) : asc(column), asc(versions.id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage);
    const [total] = await this.db.select({ n: count() }).from(versions).where(where);
    return { items: await this.present(rows), total: total?.n ?? 0 };
  }

  async get(id: string) {
    const [row] = await this.present([await this.record(id)]);
    return row as NonNullable<typeof row>;
  }

  /** Which project a version belongs to; null when there is no such version. */
  async projectIdOf(id: string): Promise<string | null> {
    const [row] = await this.db.select({ projectId: versions.projectId }).from(versions).where(eq(versions.id, id));
    return row?.projectId ?? null;
  }

  async names(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: versions.id, name: versions.name })
      .from(versions)
      .where(inArray(versions.id, [...new Set(ids)]));
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async create(input: VersionInput, actor: Actor) {
    await this.refuseAppOutsideProject(input.projectId, input.appId);
    const id = await this.db
      .transaction(async (tx) => {
        const [row] = await tx
          .insert(versions)
          .values({ ...input, plannedRelease: input.plannedRelease ?? null, status: input.status ?? 'planned' })
          .returning();
        if (!row) throw new Error('insert returned no row');
        const changes = changedFields({}, snapshot(row));
        await this.audit.record(tx, actor, { entity: 'version', entityId: row.id, action: 'create', changes });
        return row.id;
      })
      .catch((e: unknown) => {
        throw asApiError(e, RULES);
      });
    return this.get(id);
  }

  async update(id: string, input: VersionUpdate, actor: Actor) {
    const before = await this.record(id);
    const merged = { ...snapshot(before), ...input };
    if (merged.newRef === merged.baseRef) {
      const message = 'The base ref must differ from the new ref.';
      throw new ApiError(400, 'validation-failed', message, { baseRef: message });
    }
    if (input.projectId || input.appId) await this.refuseAppOutsideProject(merged.projectId, merged.appId);
    await this.audit.updateAudited({
      entity: 'version',
      id,
      actor,
      notFound: 'No such version.',
      rules: RULES,
      current: (tx) => firstRow(tx.select().from(versions).where(eq(versions.id, id)).for('update')),
      update: (tx) =>
        firstRow(
          tx
            .update(versions)
            .set({ ...input, updatedAt: new Date() })
            .where(eq(versions.id, id))
            .returning(),
        ),
      snapshot,
    });
    return this.get(id);
  }

  async remove(id: string, actor: Actor) {
    await this.audit.removeAudited({
      entity: 'version',
      id,
      actor,
      notFound: 'No such version.',
      rules: RULES,
      snapshot: async (tx) => {
        const [current] = await tx.select().from(versions).where(eq(versions.id, id));
        return current && snapshot(current);
      },
      remove: (tx) => tx.delete(versions).where(eq(versions.id, id)),
    });
  }

  private async refuseAppOutsideProject(projectId: string, appId: string) {
    const appIds = await this.projects.appIdsOf(projectId);
    if (appIds === null) {
      throw new ApiError(400, 'validation-failed', 'No such project.', { projectId: 'No such project.' });
    }
    if (!appIds.includes(appId)) {
      const message = 'This app is not part of the project.';
      throw new ApiError(400, 'validation-failed', message, { appId: message });
    }
  }

  private async record(id: string): Promise<VersionRecord> {
    const [row] = await this.db.select().from(versions).where(eq(versions.id, id));
    if (!row) throw new ApiError(404, 'not-found', 'No such version.');
    return row;
  }

  private async present(rows: VersionRecord[]) {
    const [projectNames, appNames] = await Promise.all([
      this.projects.names(rows.map((r) => r.projectId)),
      this.apps.names(rows.map((r) => r.appId)),
    ]);
    return rows.map((r) => ({
      ...r,
      projectName: projectNames.get(r.projectId) ?? '',
      appName: appNames.get(r.appId) ?? '',
      status: r.status as Status,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}
