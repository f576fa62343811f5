import type { RequirementInput, RequirementUpdate } from '@sextant/api';
import { type AnyColumn, and, asc, count, desc, eq, ilike, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { requirements } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import { asApiError, containsPattern } from '../audit/constraint-errors.ts';
import { type Actor, type AuditService, changedFields, firstRow } from '../audit/service.ts';
import type { ProjectsService } from '../projects/service.ts';
import { userRefs } from '../teams/people.ts';
import type { VersionsService } from '../versions/service.ts';

type RequirementRecord = typeof requirements.$inferSelect;
type Status = NonNullable<RequirementInput['status']>;

const SORTABLE: Record<string, AnyColumn> = {
  key: requirements.key,
  title: requirements.title,
  status: requirements.status,
  createdAt: requirements.createdAt,
};
const RULES = {
  entity: 'requirement',
  meanings: {
    requirements_key_unique: { field: 'key', message: 'A requirement with this key exists.' },
    requirements_project_id_projects_id_fk: { field: 'projectId', message: 'No such project.' },
    requirements_version_id_versions_id_fk: { field: 'versionId', message: 'No such version.' },
    requirements_owner_id_users_id_fk: { field: 'ownerId', message: 'No such user.' },
  },
  referencedBy: { cases: 'test cases' },
};

function snapshot(row: RequirementRecord) {
  const { id: _id, createdAt: _c, updatedAt: _u, ...shown } = row;
  return shown;
}

export class RequirementsService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly projects: ProjectsService,
    private readonly versions: VersionsService,
  ) {}

  async list(query: {
    page: number;
    perPage: number;
    q?: string;
    sortBy?: string;
    sortDesc: boolean;
    projectId?: string;
    versionId?: string;
    ownerId?: string;
    status?: string;
  }) {
    const pattern = query.q ? containsPattern(query.q) : null;
    const where = and(
      pattern ? or(ilike(requirements.key, pattern), ilike(requirements.title, pattern)) : undefined,
      query.projectId ? eq(requirements.projectId, query.projectId) : undefined,
      query.versionId ? eq(requirements.versionId, query.versionId) : undefined,
      query.ownerId ? eq(requirements.ownerId, query.ownerId) : undefined,
      query.status ? eq(requirements.status, query.status) : undefined,
    );
    const column = SORTABLE[query.sortBy ?? 'key'] ?? requirements.key;
    const rows = await this.db
      .select()
      .from(requirements)
      .where(where)
      .orderBy(query.sortDesc ? desc(column) : asc(column), asc(requirements.id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage);
    const [total] = await this.db.select({ n: count() }).from(requirements).where(where);
    return { items: await this.present(rows), total: total?.n ?? 0 };
  }

  async get(id: string) {
    const [row] = await this.present([await this.record(id)]);
    return row as NonNullable<typeof row>;
  }

  /** Requirement ids by key, for imports that name requirements by their key. */
  async idsByKey(keys: string[]): Promise<Map<string, string>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db
      .select({ id: requirements.id, key: requirements.key })
      .from(requirements)
      .where(inArray(requirements.key, [...new Set(keys)]));
    return new Map(rows.map((r) => [r.key, r.id]));
  }

  async keys(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: requirements.id, key: requirements.key })
      .from(requirements)
      .where(inArray(requirements.id, [...new Set(ids)]));
    return new Map(rows.map((r) => [r.id, r.key]));
  }

  async create(input: RequirementInput, actor: Actor) {
    await this.refuseVersionOutsideProject(input.projectId, input.versionId ?? null);
    const id = await this.db
      .transaction(async (tx) => {
        const [row] = await tx
          .insert(requirements)
          .values({
            ...input,
            versionId: input.versionId ?? null,
            ownerId: input.ownerId ?? null,
            status: input.status ?? 'open',
          })
          .returning();
        if (!row) throw new Error('insert returned no row');
        const changes = changedFields({}, snapshot(row));
        await this.audit.record(tx, actor, { entity: 'requirement', entityId: row.id, action: 'create', changes });
        return row.id;
      })
      .catch((e: unknown) => {
        throw asApiError(e, RULES);
      });
    return this.get(id);
  }

  async update(id: string, input: RequirementUpdate, actor: Actor) {
    const before = await this.record(id);
    if (input.projectId !== undefined || input.versionId !== undefined) {
      const versionId = input.versionId === undefined ? before.versionId : input.versionId;
      await this.refuseVersionOutsideProject(input.projectId ?? before.projectId, versionId);
    }
    await this.audit.updateAudited({
      entity: 'requirement',
      id,
      actor,
      notFound: 'No such requirement.',
      rules: RULES,
      current: (tx) => firstRow(tx.select().from(requirements).where(eq(requirements.id, id)).for('update')),
      update: (tx) =>
        firstRow(
          tx
            .update(requirements)
            .set({ ...input, updatedAt: new Date() })
            .where(eq(requirements.id, id))
            .returning(),
        ),
      snapshot,
    });
    return this.get(id);
  }

  async remove(id: string, actor: Actor) {
    await this.audit.removeAudited({
      entity: 'requirement',
      id,
      actor,
      notFound: 'No such requirement.',
      rules: RULES,
      snapshot: async (tx) => {
        const [current] = await tx.select().from(requirements).where(eq(requirements.id, id));
        return current && snapshot(current);
      },
      remove: (tx) => tx.delete(requirements).where(eq(requirements.id, id)),
    });
  }

  private async refuseVersionOutsideProject(projectId: string, versionId: string | null) {
    if (!versionId) return;
    const owner = await this.versions.projectIdOf(versionId);
    if (owner === null)
      throw new ApiError(400, 'validation-failed', 'No such version.', { versionId: 'No such version.' });
    if (owner !== projectId) {
      const message = 'This version is not part of the project.';
      throw new ApiError(400, 'validation-failed', message, { versionId: message });
    }
  }

  private async record(id: string): Promise<RequirementRecord> {
    const [row] = await this.db.select().from(requirements).where(eq(requirements.id, id));
    if (!row) throw new ApiError(404, 'not-found', 'No such requirement.');
    return row;
  }

  private async present(rows: RequirementRecord[]) {
    const [projectNames, versionNames, owners] = await Promise.all([
      this.projects.names(rows.map((r) => r.projectId)),
      this.versions.names(rows.flatMap((r) => (r.versionId ? [r.versionId] : []))),
      userRefs(
        this.db,
        rows.map((r) => r.ownerId),
      ),
    ]);
    return rows.map((r) => ({
      id: r.id,
      key: r.key,
      title: r.title,
      projectId: r.projectId,
      projectName: projectNames.get(r.projectId) ?? '',
      versionId: r.versionId,
      versionName: r.versionId ? (versionNames.get(r.versionId) ?? '') : null,
      owner: (r.ownerId && owners.get(r.ownerId)) || null,
      status: r.status as Status,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}
