import type { BranchRefresh } from '@sextant/api';
import { type AnyColumn, and, asc, count, desc, eq, ilike } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { branches } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import { RemoteError } from '../apps/git-remote.ts';
import type { AppsService } from '../apps/service.ts';
import { containsPattern } from '../audit/constraint-errors.ts';
import { type Actor, type AuditService, changedFields, firstRow } from '../audit/service.ts';

const SORTABLE: Record<string, AnyColumn> = {
  name: branches.name,
  tracked: branches.tracked,
  refreshedAt: branches.refreshedAt,
};
const HEAD_PREFIX = 'refs/heads/';

function present(row: typeof branches.$inferSelect) {
  return { ...row, refreshedAt: row.refreshedAt.toISOString() };
}

export class BranchesService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly apps: AppsService,
  ) {}

  async list(query: {
    page: number;
    perPage: number;
    q?: string;
    sortBy?: string;
    sortDesc: boolean;
    appId?: string;
    tracked?: boolean;
  }) {
    const where = and(
      query.q ? ilike(branches.name, containsPattern(query.q)) : undefined,
      query.appId ? eq(branches.appId, query.appId) : undefined,
      query.tracked === undefined ? undefined : eq(branches.tracked, query.tracked),
    );
    const column = SORTABLE[query.sortBy ?? 'name'] ?? branches.name;
    const rows = await this.db
      .select()
      .from(branches)
      .where(where)
      .orderBy(query.sortDesc ? desc(column) : asc(column), asc(branches.id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage);
    const [total] = await this.db.select({ n: count() }).from(branches).where(where);
    return { items: rows.map(present), total: total?.n ?? 0 };
  }

  async setTracked(id: string, tracked: boolean, actor: Actor) {
    const row = await this.audit.updateAudited({
      entity: 'branch',
      id,
      actor,
      notFound: 'No such branch.',
      current: (tx) => firstRow(tx.select().from(branches).where(eq(branches.id, id)).for('update')),
      update: (tx) => firstRow(tx.update(branches).set({ tracked }).where(eq(branches.id, id)).returning()),
      snapshot: (branch) => ({ tracked: branch.tracked }),
    });
    return present(row);
  }

  /** Reads the repository's heads; branches no longer there stay listed (a tracked one must not vanish silently). */
  async refresh(appId: string, actor: Actor): Promise<BranchRefresh> {
    let heads: { commit: string; name: string }[];
    try {
      heads = (await this.apps.remoteRefs(appId, { heads: true }))
        .filter((ref) => ref.name.startsWith(HEAD_PREFIX))
        .map((ref) => ({ commit: ref.commit, name: ref.name.slice(HEAD_PREFIX.length) }));
    } catch (e) {
      if (e instanceof RemoteError) throw new ApiError(400, 'bad-request', `Could not list branches: ${e.message}`);
      throw e;
    }
    return this.db.transaction(async (tx) => {
      const known = await tx.select().from(branches).where(eq(branches.appId, appId)).for('update');
      const byName = new Map(known.map((b) => [b.name, b]));
      const seen = new Set(heads.map((h) => h.name));
      const result: BranchRefresh = { added: [], moved: [], gone: [], total: heads.length };
      const now = new Date();
      for (const head of heads) {
        const old = byName.get(head.name);
        if (!old) result.added.push(head.name);
        else if (old.commit !== head.commit) result.moved.push(head.name);
        await tx
          .insert(branches)
          .values({ appId, name: head.name, commit: head.commit, refreshedAt: now })
          .onConflictDoUpdate({
            target: [branches.appId, branches.name],
            set: { commit: head.commit, present: true, refreshedAt: now },
          });
      }
      for (const old of known) {
        if (seen.has(old.name) || !old.present) continue;
        result.gone.push(old.name);
        await tx.update(branches).set({ present: false, refreshedAt: now }).where(eq(branches.id, old.id));
      }
      // One entry per refresh, filed under the app's id: the refresh concerns the app's whole branch list.
      await this.audit.record(tx, actor, {
        entity: 'branch',
        entityId: appId,
        action: 'refresh',
        changes: changedFields({}, { added: result.added, moved: result.moved, gone: result.gone }),
      });
      return result;
    });
  }
}
