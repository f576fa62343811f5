import { eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AuditedStore, Executor, TableRepository, TableWithId } from './table-repository.ts';

/** A row and the ids its link table holds for it, sorted (a team's members, a project's apps). */
export type Linked<Row> = { row: Row; ids: string[] };

type Link = {
  table: PgTable;
  /** The link column naming the row, and the one naming what it links to. */
  owner: PgColumn;
  target: PgColumn;
  /** A link table row, in the table's own field names. */
  value: (ownerId: string, targetId: string) => Record<string, string>;
};

/**
 * A table's rows read and written with their links, so an audited change of a team or a project
 * records and restores the list of ids with the row (this file owns no table: the module hands in both).
 */
export class LinkedRows<Table extends TableWithId>
  implements
    AuditedStore<
      Linked<Table['$inferSelect']>,
      { values: Table['$inferInsert']; ids: string[] },
      { values: Partial<Table['$inferInsert']>; ids?: string[] }
    >
{
  constructor(
    private readonly db: Executor,
    private readonly rows: TableRepository<Table>,
    private readonly link: Link,
  ) {}

  idOf(state: Linked<Table['$inferSelect']>): string {
    return this.rows.idOf(state.row);
  }

  async find(id: string, executor: Executor = this.db) {
    const row = await this.rows.find(id, executor);
    return row && { row, ids: await this.idsOf(id, executor) };
  }

  async lock(tx: Executor, id: string) {
    const row = await this.rows.lock(tx, id);
    return row && { row, ids: await this.idsOf(id, tx) };
  }

  async insert(tx: Executor, input: { values: Table['$inferInsert']; ids: string[] }) {
    const row = await this.rows.insert(tx, input.values);
    const ids = unique(input.ids);
    await this.setLinks(tx, this.rows.idOf(row), ids, false);
    return { row, ids };
  }

  /** Changes the row; replaces its links when `ids` is given, keeps them otherwise. */
  async update(
    tx: Executor,
    id: string,
    change: { values: Partial<Table['$inferInsert']>; ids?: string[] },
    current: Linked<Table['$inferSelect']>,
  ) {
    const row = await this.rows.update(tx, id, change.values);
    if (!row) return undefined;
    if (!change.ids) return { row, ids: current.ids };
    const ids = unique(change.ids);
    await this.setLinks(tx, id, ids, true);
    return { row, ids };
  }

  /** The row goes; its links go with it (the link table's foreign key cascades). */
  delete(tx: Executor, id: string): Promise<void> {
    return this.rows.delete(tx, id);
  }

  async idsOf(ownerId: string, executor: Executor = this.db): Promise<string[]> {
    const rows = await executor
      .select({ id: this.link.target })
      .from(this.link.table)
      .where(eq(this.link.owner, ownerId));
    return rows.map((r) => r.id as string).sort();
  }

  /** Every link of these rows, as (owner, target) pairs. */
  async linksOf(ownerIds: string[]): Promise<{ ownerId: string; targetId: string }[]> {
    if (ownerIds.length === 0) return [];
    const rows = await this.db
      .select({ ownerId: this.link.owner, targetId: this.link.target })
      .from(this.link.table)
      .where(inArray(this.link.owner, ownerIds));
    return rows as { ownerId: string; targetId: string }[];
  }

  private async setLinks(tx: Executor, ownerId: string, ids: string[], replace: boolean) {
    if (replace) await tx.delete(this.link.table).where(eq(this.link.owner, ownerId));
    if (ids.length === 0) return;
    await tx.insert(this.link.table).values(ids.map((id) => this.link.value(ownerId, id)));
  }
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)].sort();
}
