import { type AnyColumn, and, asc, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';

/** The database or an open transaction: a repository's writes take the caller's transaction. */
export type Executor = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** What every admin list accepts (packages/api's list queries). */
export type PageQuery = { page: number; perPage: number; q?: string; sortBy?: string; sortDesc: boolean };

/**
 * What an audited create, update or remove needs of a module's repository (AuditService.createRow,
 * updateRow, removeRow): a row's state (the row, or the row with the ids it links to) read, locked,
 * inserted, changed and deleted in the caller's transaction.
 */
export interface AuditedStore<State, Insert, Change> {
  idOf(state: State): string;
  find(id: string, executor?: Executor): Promise<State | undefined>;
  lock(tx: Executor, id: string): Promise<State | undefined>;
  insert(tx: Executor, values: Insert): Promise<State>;
  update(tx: Executor, id: string, change: Change, current: State): Promise<State | undefined>;
  delete(tx: Executor, id: string): Promise<void>;
}

export type TableWithId = PgTable & { id: PgColumn };

/** `q` as an ILIKE pattern that matches it anywhere, its wildcards taken literally. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The SQL every admin table needs, on the one table a module hands in (this file owns no table):
 * the paged list (page, perPage, sort, the q filter, total) and the row by id read, locked, changed,
 * inserted and deleted, each in the caller's transaction where one is given. A module's repository
 * builds one for each of its tables and adds its own queries beside it.
 */
export class TableRepository<Table extends TableWithId>
  implements AuditedStore<Table['$inferSelect'], Table['$inferInsert'], Partial<Table['$inferInsert']>>
{
  constructor(
    protected readonly db: Executor,
    readonly table: Table,
    private readonly list: {
      /** Columns the list may be sorted by, by the name the API uses. */
      sortable: Record<string, AnyColumn>;
      defaultSort: string;
      /** Columns `q` is looked for in (any of them). */
      searched: AnyColumn[];
    },
  ) {}

  /** One page in the asked order (ties broken by id, so pages never overlap) and the count of all that match. */
  async page(
    query: PageQuery,
    filters: (SQL | undefined)[],
  ): Promise<{ rows: Table['$inferSelect'][]; total: number }> {
    const pattern = query.q ? containsPattern(query.q) : null;
    const where = and(pattern ? or(...this.list.searched.map((c) => ilike(c, pattern))) : undefined, ...filters);
    const sortable = this.list.sortable;
    const column = sortable[query.sortBy ?? this.list.defaultSort] ?? (sortable[this.list.defaultSort] as AnyColumn);
    const rows = await this.db
      .select()
      .from(this.anyTable)
      .where(where)
      .orderBy(query.sortDesc ? desc(column) : asc(column), asc(this.table.id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage);
    const [total] = await this.db.select({ n: count() }).from(this.anyTable).where(where);
    return { rows: rows as Table['$inferSelect'][], total: total?.n ?? 0 };
  }

  idOf(row: Table['$inferSelect']): string {
    return row.id as string;
  }

  async find(id: string, executor: Executor = this.db): Promise<Table['$inferSelect'] | undefined> {
    const [row] = await executor.select().from(this.anyTable).where(eq(this.table.id, id));
    return row as Table['$inferSelect'] | undefined;
  }

  /** The row, locked until the transaction ends (the read before an audited change). */
  async lock(tx: Executor, id: string): Promise<Table['$inferSelect'] | undefined> {
    const [row] = await tx.select().from(this.anyTable).where(eq(this.table.id, id)).for('update');
    return row as Table['$inferSelect'] | undefined;
  }

  async insert(tx: Executor, values: Table['$inferInsert']): Promise<Table['$inferSelect']> {
    const [row] = await tx.insert(this.table).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row as Table['$inferSelect'];
  }

  async update(
    tx: Executor,
    id: string,
    values: Partial<Table['$inferInsert']>,
  ): Promise<Table['$inferSelect'] | undefined> {
    const [row] = await tx.update(this.anyTable).set(values).where(eq(this.table.id, id)).returning();
    return row as Table['$inferSelect'] | undefined;
  }

  async delete(tx: Executor, id: string): Promise<void> {
    await tx.delete(this.table).where(eq(this.table.id, id));
  }

  /** One text column of the rows with these ids, by id (names shown beside another module's rows). */
  async labels(ids: string[], column: PgColumn): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: this.table.id, label: column })
      .from(this.anyTable)
      .where(inArray(this.table.id, [...new Set(ids)]));
    return new Map(rows.map((r) => [r.id as string, r.label as string]));
  }

  /** Drizzle's builders do not follow a generic table's columns; the rows are typed back on the way out. */
  private get anyTable(): PgTable {
    return this.table;
  }
}
