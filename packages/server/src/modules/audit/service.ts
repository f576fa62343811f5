import type { AuditAction, AuditedEntity } from '@sextant/api';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import type { AuditedStore, Executor } from '../../lib/table-repository.ts';
import { Accounts } from '../users/accounts.ts';
import { asApiError } from './constraint-errors.ts';
import { AuditRepository } from './repository.ts';

export type { Executor } from '../../lib/table-repository.ts';
export type Changes = Record<string, { from: unknown; to: unknown }>;
export type Actor = { id: string };
/** What an audited change of one row says: which row, who, what a missing row is called, how its state is shown. */
type RowChange<State> = {
  entity: AuditedEntity;
  id: string;
  actor: Actor;
  notFound: string;
  rules: Parameters<typeof asApiError>[1];
  snapshot: (state: State) => Record<string, unknown>;
};
export type AuditEntry = { entity: AuditedEntity; entityId: string; action: AuditAction; changes: Changes };

/** Fields whose value differs between two snapshots (secrets are passed in already redacted). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): Changes {
  const changes: Changes = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from, to };
  }
  return changes;
}

/** The first row a query returns, if any (for `updateAudited`'s `current` and `update`). */
export async function firstRow<Row>(query: PromiseLike<Row[]>): Promise<Row | undefined> {
  const [row] = await query;
  return row;
}

export class AuditService {
  private readonly rows: AuditRepository;

  constructor(readonly db: Db) {
    this.rows = new AuditRepository(db);
  }

  /** Written in the same transaction as the change it describes, so neither exists without the other. */
  async record(tx: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
    await this.recordMany(tx, actor, [entry]);
  }

  /**
   * Entries of a change no user made (the report pipeline's status transitions): no actor id, and
   * `actorName` saying what made it.
   */
  async recordBySystem(tx: Executor, actorName: string, entries: AuditEntry[]): Promise<void> {
    await this.rows.append(
      tx,
      entries.map((entry) => ({ ...entry, actorId: null, actorName })),
    );
  }

  /**
   * Runs a change and writes the entry it returns in one transaction, so neither exists without
   * the other: a failed audit write undoes the change. `change` must use only `tx`.
   */
  async audited<T>(actor: Actor, change: (tx: Executor) => Promise<{ result: T; entry: AuditEntry }>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const { result, entry } = await change(tx);
      await this.record(tx, actor, entry);
      return result;
    });
  }

  /**
   * Several entries at once (an import), in one statement. Each keeps its actor's username as it is
   * now, read in the same transaction, so the log still names someone whose account is gone.
   */
  async recordMany(tx: Executor, actor: Actor, entries: AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const actorName = (await new Accounts(tx).usernameOf(actor.id)) ?? '';
    await this.rows.append(
      tx,
      entries.map((entry) => ({ ...entry, actorId: actor.id, actorName })),
    );
  }

  /** Entries of the server's own work (a scheduled job), under a name and no account. */
  async recordByServer(tx: Executor, actorName: string, entries: AuditEntry[]): Promise<void> {
    await this.rows.append(
      tx,
      entries.map((entry) => ({ ...entry, actorId: null, actorName })),
    );
  }

  /**
   * Deletes one row and records what it held, in one transaction; a row others still refer to is
   * refused with the module's own 409 (`rules`), and nothing is written.
   */
  async removeAudited(input: {
    entity: AuditedEntity;
    id: string;
    actor: Actor;
    notFound: string;
    rules: Parameters<typeof asApiError>[1];
    snapshot: (tx: Executor) => Promise<Record<string, unknown> | undefined>;
    remove: (tx: Executor) => Promise<unknown>;
  }): Promise<void> {
    await this.db
      .transaction(async (tx) => {
        const before = await input.snapshot(tx);
        if (!before) throw new ApiError(404, 'not-found', input.notFound);
        await input.remove(tx);
        const changes = changedFields(before, {});
        await this.record(tx, input.actor, { entity: input.entity, entityId: input.id, action: 'delete', changes });
      })
      .catch((e: unknown) => {
        throw asApiError(e, input.rules);
      });
  }

  /**
   * Changes one row and records what changed, in one transaction: `current` reads (and locks) what
   * the row holds now, `update` writes the change and returns what it holds after; an entry is
   * written only when their snapshots differ. Without `rules` database errors pass through as they are.
   */
  async updateAudited<State>(input: {
    entity: AuditedEntity;
    id: string;
    actor: Actor;
    notFound: string;
    rules?: Parameters<typeof asApiError>[1];
    current: (tx: Executor) => Promise<State | undefined>;
    update: (tx: Executor, current: State) => Promise<State | undefined>;
    snapshot: (state: State) => Record<string, unknown>;
  }): Promise<State> {
    const { rules } = input;
    return this.db
      .transaction(async (tx) => {
        const current = await input.current(tx);
        if (!current) throw new ApiError(404, 'not-found', input.notFound);
        const updated = await input.update(tx, current);
        if (!updated) throw new Error('update returned no row');
        const changes = changedFields(input.snapshot(current), input.snapshot(updated));
        if (Object.keys(changes).length > 0) {
          await this.record(tx, input.actor, { entity: input.entity, entityId: input.id, action: 'update', changes });
        }
        return updated;
      })
      .catch((e: unknown) => {
        throw rules ? asApiError(e, rules) : e;
      });
  }

  /** Inserts one row (with what it links to) and records what it holds, in one transaction; the row's id. */
  async createRow<State, Insert>(
    store: AuditedStore<State, Insert, unknown>,
    input: Omit<RowChange<State>, 'id' | 'notFound'> & { values: Insert },
  ): Promise<string> {
    return this.db
      .transaction(async (tx) => {
        const state = await store.insert(tx, input.values);
        const changes = changedFields({}, input.snapshot(state));
        const id = store.idOf(state);
        await this.record(tx, input.actor, { entity: input.entity, entityId: id, action: 'create', changes });
        return id;
      })
      .catch((e: unknown) => {
        throw asApiError(e, input.rules);
      });
  }

  /**
   * `updateAudited` for one row: locked, checked (`check` throws to refuse, seeing what the row
   * holds now), changed by `values`, the difference recorded.
   */
  async updateRow<State, Change>(
    store: AuditedStore<State, unknown, Change>,
    input: RowChange<State> & { values: Change; check?: (current: State) => void },
  ): Promise<void> {
    const { values, check, ...audit } = input;
    await this.updateAudited({
      ...audit,
      current: (tx) => store.lock(tx, input.id),
      update: (tx, current) => {
        check?.(current);
        return store.update(tx, input.id, values, current);
      },
    });
  }

  /** `removeAudited` for one row (and what it links to). */
  async removeRow<State>(store: AuditedStore<State, unknown, unknown>, input: RowChange<State>): Promise<void> {
    const { snapshot, ...audit } = input;
    await this.removeAudited({
      ...audit,
      snapshot: async (tx) => {
        const current = await store.find(input.id, tx);
        return current && snapshot(current);
      },
      remove: (tx) => store.delete(tx, input.id),
    });
  }

  async list(query: {
    page: number;
    perPage: number;
    entity?: string;
    entityId?: string;
    userId?: string;
    sortDesc: boolean;
  }) {
    const { rows, total } = await this.rows.listPage(query);
    return { items: rows.map((r) => ({ ...r, at: r.at.toISOString() })), total };
  }
}
