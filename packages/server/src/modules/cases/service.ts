import type { CaseInput, CaseUpdate } from '@sextant/api';
import { type AnyColumn, and, arrayContains, asc, count, desc, eq, ilike, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cases } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import type { AppsService } from '../apps/service.ts';
import { asApiError, containsPattern } from '../audit/constraint-errors.ts';
import { type Actor, type AuditService, changedFields, firstRow } from '../audit/service.ts';
import type { RequirementsService } from '../requirements/service.ts';
import { userRefs } from '../teams/people.ts';

export type CaseRecord = typeof cases.$inferSelect;
type CaseType = NonNullable<CaseInput['type']>;

const SORTABLE: Record<string, AnyColumn> = {
  key: cases.key,
  title: cases.title,
  type: cases.type,
  createdAt: cases.createdAt,
};
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
    private readonly audit: AuditService,
    private readonly apps: AppsService,
    private readonly requirements: RequirementsService,
  ) {}

  async list(query: {
    page: number;
    perPage: number;
    q?: string;
    sortBy?: string;
    sortDesc: boolean;
    appId?: string;
    requirementId?: string;
    ownerId?: string;
    type?: string;
    tag?: string;
  }) {
    const pattern = query.q ? containsPattern(query.q) : null;
    const where = and(
      pattern ? or(ilike(cases.key, pattern), ilike(cases.title, pattern)) : undefined,
      query.appId ? eq(cases.appId, query.appId) : undefined,
      query.requirementId ? eq(cases.requirementId, query.requirementId) : undefined,
      query.ownerId ? eq(cases.ownerId, query.ownerId) : undefined,
      query.type ? eq(cases.type, query.type) : undefined,
      query.tag ? arrayContains(cases.tags, [query.tag]) : undefined,
    );
    const column = SORTABLE[query.sortBy ?? 'key'] ?? cases.key;
    const rows = await this.db
      .select()
      .from(cases)
      .where(where)
      .orderBy(query.sortDesc ? desc(column) : asc(column), asc(cases.id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage);
    const [total] = await this.db.select({ n: count() }).from(cases).where(where);
    return { items: await this.present(rows), total: total?.n ?? 0 };
  }

  async get(id: string) {
    const [row] = await this.present([await this.record(id)]);
    return row as NonNullable<typeof row>;
  }

  /** Which of these keys the app already uses. */
  async existingKeys(appId: string, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db
      .select({ key: cases.key })
      .from(cases)
      .where(and(eq(cases.appId, appId), inArray(cases.key, keys)));
    return new Set(rows.map((r) => r.key));
  }

  async create(input: CaseInput, actor: Actor) {
    const id = await this.db
      .transaction(async (tx) => {
        const [row] = await tx
          .insert(cases)
          .values({
            ...input,
            requirementId: input.requirementId ?? null,
            ownerId: input.ownerId ?? null,
            type: input.type ?? 'manual',
            tags: [...new Set(input.tags ?? [])],
          })
          .returning();
        if (!row) throw new Error('insert returned no row');
        const changes = changedFields({}, caseSnapshot(row));
        await this.audit.record(tx, actor, { entity: 'case', entityId: row.id, action: 'create', changes });
        return row.id;
      })
      .catch((e: unknown) => {
        throw asApiError(e, CASE_RULES);
      });
    return this.get(id);
  }

  async update(id: string, input: CaseUpdate, actor: Actor) {
    const tags = input.tags ? { tags: [...new Set(input.tags)] } : {};
    await this.audit.updateAudited({
      entity: 'case',
      id,
      actor,
      notFound: 'No such test case.',
      rules: CASE_RULES,
      current: (tx) => firstRow(tx.select().from(cases).where(eq(cases.id, id)).for('update')),
      update: (tx) =>
        firstRow(
          tx
            .update(cases)
            .set({ ...input, ...tags, updatedAt: new Date() })
            .where(eq(cases.id, id))
            .returning(),
        ),
      snapshot: caseSnapshot,
    });
    return this.get(id);
  }

  async remove(id: string, actor: Actor) {
    await this.audit.removeAudited({
      entity: 'case',
      id,
      actor,
      notFound: 'No such test case.',
      rules: CASE_RULES,
      snapshot: async (tx) => {
        const [current] = await tx.select().from(cases).where(eq(cases.id, id));
        return current && caseSnapshot(current);
      },
      remove: (tx) => tx.delete(cases).where(eq(cases.id, id)),
    });
  }

  private async record(id: string): Promise<CaseRecord> {
    const [row] = await this.db.select().from(cases).where(eq(cases.id, id));
    if (!row) throw new ApiError(404, 'not-found', 'No such test case.');
    return row;
  }

  private async present(rows: CaseRecord[]) {
    const [appNames, requirementKeys, owners] = await Promise.all([
      this.apps.names(rows.map((r) => r.appId)),
      this.requirements.keys(rows.flatMap((r) => (r.requirementId ? [r.requirementId] : []))),
      userRefs(
        this.db,
        rows.map((r) => r.ownerId),
      ),
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
      owner: (r.ownerId && owners.get(r.ownerId)) || null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}
