import type { RequirementInput, RequirementUpdate } from '@sextant/api';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import { timestamps } from '../../lib/presented.ts';
import type { Executor, PageQuery } from '../../lib/table-repository.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { ProjectsService } from '../projects/service.ts';
import { ownersOf } from '../users/accounts.ts';
import type { VersionsService } from '../versions/service.ts';
import type { RequirementInsert, RequirementRecord, RequirementsRepository } from './repository.ts';

export type { RequirementRecord } from './repository.ts';

type Status = NonNullable<RequirementInput['status']>;

const NOT_FOUND = 'No such requirement.';
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

export function requirementSnapshot(row: RequirementRecord) {
  const { id: _id, createdAt: _c, updatedAt: _u, ...shown } = row;
  return shown;
}

export class RequirementsService {
  constructor(
    private readonly db: Db,
    private readonly rows: RequirementsRepository,
    private readonly audit: AuditService,
    private readonly projects: ProjectsService,
    private readonly versions: VersionsService,
  ) {}

  async list(query: PageQuery & { projectId?: string; versionId?: string; ownerId?: string; status?: string }) {
    const { rows, total } = await this.rows.listPage(query);
    return { items: await this.present(rows), total };
  }

  async get(id: string) {
    const [row] = await this.present([await this.record(id)]);
    return row as NonNullable<typeof row>;
  }

  /** Requirement ids by key, for imports that name requirements by their key. */
  idsByKey(keys: string[]): Promise<Map<string, string>> {
    return this.rows.idsByKey(keys);
  }

  keys(ids: string[]): Promise<Map<string, string>> {
    return this.rows.keys(ids);
  }

  /** For an import's one transaction (its caller writes the audit entries): rows by key, locked. */
  lockByKeys(tx: Executor, keys: string[]): Promise<RequirementRecord[]> {
    return this.rows.byKeys(tx, keys);
  }

  /** For an import's one transaction: a new row as given (the import checked it). */
  insertImported(tx: Executor, values: RequirementInsert): Promise<RequirementRecord> {
    return this.rows.insert(tx, values);
  }

  /** For an import's one transaction: a row changed as given. */
  async updateImported(tx: Executor, id: string, values: Partial<RequirementInsert>): Promise<RequirementRecord> {
    const row = await this.rows.update(tx, id, { ...values, updatedAt: new Date() });
    if (!row) throw new ApiError(404, 'not-found', NOT_FOUND);
    return row;
  }

  async create(input: RequirementInput, actor: Actor) {
    await this.refuseVersionOutsideProject(input.projectId, input.versionId ?? null);
    const values = {
      ...input,
      versionId: input.versionId ?? null,
      ownerId: input.ownerId ?? null,
      status: input.status ?? 'open',
    };
    const id = await this.audit.createRow(this.rows, {
      entity: 'requirement',
      actor,
      rules: RULES,
      values,
      snapshot: requirementSnapshot,
    });
    return this.get(id);
  }

  async update(id: string, input: RequirementUpdate, actor: Actor) {
    const before = await this.record(id);
    if (input.projectId !== undefined || input.versionId !== undefined) {
      const versionId = input.versionId === undefined ? before.versionId : input.versionId;
      await this.refuseVersionOutsideProject(input.projectId ?? before.projectId, versionId);
    }
    const values = { ...input, updatedAt: new Date() };
    const audited = {
      entity: 'requirement',
      id,
      actor,
      notFound: NOT_FOUND,
      rules: RULES,
      snapshot: requirementSnapshot,
    } as const;
    await this.audit.updateRow(this.rows, { ...audited, values });
    return this.get(id);
  }

  async remove(id: string, actor: Actor) {
    await this.audit.removeRow(this.rows, {
      entity: 'requirement',
      id,
      actor,
      notFound: NOT_FOUND,
      rules: RULES,
      snapshot: requirementSnapshot,
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
    const row = await this.rows.find(id);
    if (!row) throw new ApiError(404, 'not-found', NOT_FOUND);
    return row;
  }

  private async present(rows: RequirementRecord[]) {
    const [projectNames, versionNames, ownerOf] = await Promise.all([
      this.projects.names(rows.map((r) => r.projectId)),
      this.versions.names(rows.flatMap((r) => (r.versionId ? [r.versionId] : []))),
      ownersOf(this.db, rows),
    ]);
    return rows.map((r) => ({
      id: r.id,
      key: r.key,
      title: r.title,
      projectId: r.projectId,
      projectName: projectNames.get(r.projectId) ?? '',
      versionId: r.versionId,
      versionName: r.versionId ? (versionNames.get(r.versionId) ?? '') : null,
      owner: ownerOf(r.ownerId),
      status: r.status as Status,
      ...timestamps(r),
    }));
  }
}
