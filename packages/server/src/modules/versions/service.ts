import type { VersionInput, VersionUpdate } from '@sextant/api';
import { ApiError } from '../../errors.ts';
import { timestamps } from '../../lib/presented.ts';
import type { PageQuery } from '../../lib/table-repository.ts';
import type { AppsService } from '../apps/service.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { ProjectsService } from '../projects/service.ts';
import type { VersionRecord, VersionsRepository } from './repository.ts';

type Status = NonNullable<VersionInput['status']>;

const NOT_FOUND = 'No such version.';
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
    private readonly rows: VersionsRepository,
    private readonly audit: AuditService,
    private readonly projects: ProjectsService,
    private readonly apps: AppsService,
  ) {}

  async list(query: PageQuery & { projectId?: string; appId?: string; status?: string }) {
    const { rows, total } = await this.rows.listPage(query);
    return { items: await this.present(rows), total };
  }

  async get(id: string) {
    const [row] = await this.present([await this.record(id)]);
    return row as NonNullable<typeof row>;
  }

  /** Which project a version belongs to; null when there is no such version. */
  projectIdOf(id: string): Promise<string | null> {
    return this.rows.projectIdOf(id);
  }

  names(ids: string[]): Promise<Map<string, string>> {
    return this.rows.names(ids);
  }

  async create(input: VersionInput, actor: Actor) {
    await this.refuseAppOutsideProject(input.projectId, input.appId);
    const values = { ...input, plannedRelease: input.plannedRelease ?? null, status: input.status ?? 'planned' };
    const id = await this.audit.createRow(this.rows, { entity: 'version', actor, rules: RULES, values, snapshot });
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
    const values = { ...input, updatedAt: new Date() };
    await this.audit.updateRow(this.rows, {
      entity: 'version',
      id,
      actor,
      notFound: NOT_FOUND,
      rules: RULES,
      values,
      snapshot,
    });
    return this.get(id);
  }

  async remove(id: string, actor: Actor) {
    await this.audit.removeRow(this.rows, {
      entity: 'version',
      id,
      actor,
      notFound: NOT_FOUND,
      rules: RULES,
      snapshot,
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
    const row = await this.rows.find(id);
    if (!row) throw new ApiError(404, 'not-found', NOT_FOUND);
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
      ...timestamps(r),
    }));
  }
}
