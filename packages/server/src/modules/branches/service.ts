import type { BranchRefresh } from '@sextant/api';
import { ApiError } from '../../errors.ts';
import type { PageQuery } from '../../lib/table-repository.ts';
import { RemoteError } from '../apps/git-remote.ts';
import type { AppsService } from '../apps/service.ts';
import { type Actor, type AuditService, changedFields } from '../audit/service.ts';
import type { BranchesRepository, BranchRecord } from './repository.ts';

const HEAD_PREFIX = 'refs/heads/';

function present(row: BranchRecord) {
  return { ...row, refreshedAt: row.refreshedAt.toISOString() };
}

export class BranchesService {
  constructor(
    private readonly rows: BranchesRepository,
    private readonly audit: AuditService,
    private readonly apps: AppsService,
  ) {}

  async list(query: PageQuery & { appId?: string; tracked?: boolean }) {
    const { rows, total } = await this.rows.listPage(query);
    return { items: rows.map(present), total };
  }

  async setTracked(id: string, tracked: boolean, actor: Actor) {
    const row = await this.audit.updateAudited({
      entity: 'branch',
      id,
      actor,
      notFound: 'No such branch.',
      current: (tx) => this.rows.lock(tx, id),
      update: (tx) => this.rows.update(tx, id, { tracked }),
      snapshot: (branch) => ({ tracked: branch.tracked }),
    });
    return present(row);
  }

  /**
   * Reads the repository's heads; branches no longer there stay listed (a tracked one must not vanish
   * silently). A user's refresh is audited; the server's own (a new app, the schedule) has no actor.
   */
  async refresh(appId: string, actor: Actor | null): Promise<BranchRefresh> {
    let heads: { commit: string; name: string }[];
    try {
      heads = (await this.apps.remoteRefs(appId, { heads: true }))
        .filter((ref) => ref.name.startsWith(HEAD_PREFIX))
        .map((ref) => ({ commit: ref.commit, name: ref.name.slice(HEAD_PREFIX.length) }));
    } catch (e) {
      if (e instanceof RemoteError) throw new ApiError(400, 'bad-request', `Could not list branches: ${e.message}`);
      throw e;
    }
    return this.rows.transaction(async (tx) => {
      const known = await this.rows.lockOfApp(tx, appId);
      const byName = new Map(known.map((b) => [b.name, b]));
      const seen = new Set(heads.map((h) => h.name));
      const result: BranchRefresh = { added: [], moved: [], gone: [], total: heads.length };
      const now = new Date();
      for (const head of heads) {
        const old = byName.get(head.name);
        if (!old) result.added.push(head.name);
        else if (old.commit !== head.commit) result.moved.push(head.name);
        await this.rows.upsertHead(tx, appId, head, now);
      }
      for (const old of known) {
        if (seen.has(old.name) || !old.present) continue;
        result.gone.push(old.name);
        await this.rows.update(tx, old.id, { present: false, refreshedAt: now });
      }
      // One entry per refresh, filed under the app's id: the refresh concerns the app's whole branch list.
      if (!actor) return result;
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
