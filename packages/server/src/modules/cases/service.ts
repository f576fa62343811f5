import type { CaseInput, CaseUpdate } from '@sextant/api';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import { timestamps } from '../../lib/presented.ts';
import type { Executor, PageQuery } from '../../lib/table-repository.ts';
import type { AppsService } from '../apps/service.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { RequirementsService } from '../requirements/service.ts';
import { ownersOf } from '../users/accounts.ts';
import type { CaseInsert, CaseRecord, CasesRepository } from './repository.ts';

export type { CaseRecord } from './repository.ts';

type CaseType = NonNullable<CaseInput['type']>;

const NOT_FOUND = 'No such test case.';
export const CASE_RULES = {
  entity: 'test case',
  meanings: {
    cases_app_key_unique: { field: 'key', message: 'This app already has a case with this key.' },
    cases_app_id_apps_id_fk: { field: 'appId', message: 'No such app.' },
    cases_requirement_id_requirements_id_fk: { field: 'requirementId', message: 'No such requirement.' },
    cases_owner_id_users_id_fk: { field: 'ownerId', message: 'No such user.' },
  },
};

export function caseSnapshot(row: CaseRecord) {
  const { id: _id, createdAt: _c, updatedAt: _u, ...shown } = row;
  return shown;
}

export class CasesService {
  constructor(
    private readonly db: Db,
    private readonly rows: CasesRepository,
    private readonly audit: AuditService,
    private readonly apps: AppsService,
    private readonly requirements: RequirementsService,
  ) {}

  async list(
    query: PageQuery & { appId?: string; requirementId?: string; ownerId?: string; type?: string; tag?: string },
  ) {
    const { rows, total } = await this.rows.listPage(query);
    return { items: await this.present(rows), total };
  }

  async get(id: string) {
    const row = await this.rows.find(id);
    if (!row) throw new ApiError(404, 'not-found', NOT_FOUND);
    const [presented] = await this.present([row]);
    return presented as NonNullable<typeof presented>;
  }

  /** Which of these keys the app already uses. */
  existingKeys(appId: string, keys: string[]): Promise<Set<string>> {
    return this.rows.existingKeys(appId, keys);
  }

  /** For an import's one transaction (its caller writes the audit entries): these apps' cases by key, locked. */
  lockByKeys(tx: Executor, appIds: string[], keys: string[]): Promise<CaseRecord[]> {
    return this.rows.byKeys(tx, appIds, keys);
  }

  /** For an import's one transaction: a new row as given (the import checked it). */
  async insertImported(tx: Executor, values: CaseInsert): Promise<CaseRecord> {
    const [row] = await this.rows.insertMany(tx, [values]);
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** For an import's one transaction: a row changed as given. */
  async updateImported(tx: Executor, id: string, values: Partial<CaseInsert>): Promise<CaseRecord> {
    const row = await this.rows.update(tx, id, { ...values, updatedAt: new Date() });
    if (!row) throw new ApiError(404, 'not-found', NOT_FOUND);
    return row;
  }

  async create(input: CaseInput, actor: Actor) {
    const values = {
      ...input,
      requirementId: input.requirementId ?? null,
      ownerId: input.ownerId ?? null,
      type: input.type ?? 'manual',
      tags: [...new Set(input.tags ?? [])],
    };
    const snapshot = caseSnapshot;
    const id = await this.audit.createRow(this.rows, { entity: 'case', actor, rules: CASE_RULES, values, snapshot });
    return this.get(id);
  }

  async update(id: string, input: CaseUpdate, actor: Actor) {
    const tags = input.tags ? { tags: [...new Set(input.tags)] } : {};
    const values = { ...input, ...tags, updatedAt: new Date() };
    await this.audit.updateRow(this.rows, { ...this.audited(id, actor), values });
    return this.get(id);
  }

  async remove(id: string, actor: Actor) {
    await this.audit.removeRow(this.rows, this.audited(id, actor));
  }

  private audited(id: string, actor: Actor) {
    return { entity: 'case', id, actor, notFound: NOT_FOUND, rules: CASE_RULES, snapshot: caseSnapshot } as const;
  }

  private async present(rows: CaseRecord[]) {
    const [appNames, requirementKeys, ownerOf] = await Promise.all([
      this.apps.names(rows.map((r) => r.appId)),
      this.requirements.keys(rows.flatMap((r) => (r.requirementId ? [r.requirementId] : []))),
      ownersOf(this.db, rows),
    ]);
    return rows.map((r) => ({
      id: r.id,
      key: r.key,
      title: r.title,
      appId: r.appId,
      appName: appNames.get(r.appId) ?? '',
      requirementId: r.requirementId,
      requirementKey: r.requirementId ? (requirementKeys.get(r.requirementId) ?? '') : null,
      type: r.type as CaseType,
      tags: r.tags,
      owner: ownerOf(r.ownerId),
      ...timestamps(r),
    }));
  }
}
