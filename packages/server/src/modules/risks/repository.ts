import type { IdentityKeys, RiskListQuery } from '@sextant/api';
import { and, asc, count, desc, eq, getTableColumns, inArray, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { riskItemCounts, riskItemHistory, riskItems } from '../../db/schema/index.ts';
import { authorIsSql } from '../../lib/git-authors.ts';
import type { Executor } from '../audit/service.ts';
import { TraceRiskStore } from './trace-risk-store.ts';

export type RiskRow = typeof riskItems.$inferSelect & { severity: number; overdue: boolean };
export type RiskFilter = Omit<RiskListQuery, 'page' | 'perPage' | 'sortBy' | 'sortDesc'> & {
  /** null: every app (an administrator without an app, team or project filter). */
  appIds: readonly string[] | null;
  /** The caller's own items (`mine`): authors that are their e-mail or git identities. */
  authorIdentities?: IdentityKeys;
  assigneeId?: string;
};

/** `riskSeverity` of packages/api/src/risks.ts, stored by a trigger on every write (migration 0010). */
export const SEVERITY = riskItems.severity;

export const OVERDUE = sql<boolean>`(${riskItems.state} = 'judged' and ${riskItems.judgment} = 'needs-test'
  and ${riskItems.dueDate} < current_date)`;

const OPEN = or(
  inArray(riskItems.state, ['observing', 'pending']),
  and(eq(riskItems.state, 'judged'), eq(riskItems.judgment, 'needs-test')),
);

const NO_ID = '00000000-0000-0000-0000-000000000000';

const SORTS = {
  severity: SEVERITY,
  createdAt: riskItems.createdAt,
  dueDate: riskItems.dueDate,
  changedLines: riskItems.changedLines,
  // The expression of the index risk_items_ratio_idx, word for word.
  lineCoverage: sql`(case when ${riskItems.lineTotal} > 0 then ${riskItems.lineCovered}::float8 / ${riskItems.lineTotal} else 0 end)`,
  app: riskItems.appId,
} as const;

function where(f: RiskFilter): SQL | undefined {
  return and(
    f.appIds === null ? undefined : inArray(riskItems.appId, f.appIds.length > 0 ? [...f.appIds] : [NO_ID]),
    f.version ? eq(riskItems.version, f.version) : undefined,
    f.testType ? eq(riskItems.testType, f.testType) : undefined,
    f.author ? sql`${riskItems.author} ilike ${`%${f.author.replace(/[\\%_]/g, '\\$&')}%`}` : undefined,
    f.authorIdentities ? authorIsSql(riskItems.author, f.authorIdentities) : undefined,
    f.assigneeId ? eq(riskItems.assigneeId, f.assigneeId) : undefined,
    f.kind ? eq(riskItems.kind, f.kind) : undefined,
    f.state && f.state.length > 0 ? inArray(riskItems.state, f.state) : undefined,
    f.ids ? inArray(riskItems.id, f.ids.length > 0 ? f.ids : [NO_ID]) : undefined,
  );
}

/** Filters risk_item_counts answers: apps, kind and state only. */
const countable = (f: RiskFilter) =>
  !f.version && !f.testType && !f.author && !f.authorIdentities && !f.assigneeId && !f.ids;

function countsWhere(f: RiskFilter): SQL | undefined {
  return and(
    f.appIds === null ? undefined : inArray(riskItemCounts.appId, f.appIds.length > 0 ? [...f.appIds] : [NO_ID]),
    f.kind ? eq(riskItemCounts.kind, f.kind) : undefined,
    f.state && f.state.length > 0 ? inArray(riskItemCounts.state, f.state) : undefined,
  );
}

const COUNTED_OPEN = sql`(${riskItemCounts.state} in ('observing', 'pending')
  or (${riskItemCounts.state} = 'judged' and ${riskItemCounts.judgment} = 'needs-test'))`;

export type Headline = {
  open: number;
  newThisWeek: number;
  resolvedThisWeek: number;
  oldestOpenAt: string | null;
  pending: number;
  overdue: number;
};

const withScore = { ...getTableColumns(riskItems), severity: SEVERITY, overdue: OVERDUE };

export class RisksRepository {
  /** The exception and performance items' writes (trace-risk-store.ts). */
  readonly traceRisks: TraceRiskStore;

  constructor(private readonly db: Db) {
    this.traceRisks = new TraceRiskStore(db);
  }

  /**
   * One page, overdue "needs test" items first (issue 34), then the chosen order: two index-backed
   * queries (the overdue few, then the rest in the order of the sort's index), never a sort of every
   * matching row.
   */
  async list(f: RiskFilter, page: { page: number; perPage: number; sortBy: keyof typeof SORTS; sortDesc: boolean }) {
    const column = SORTS[page.sortBy];
    // Each sort's index is (column, id): forward ascending, backward descending.
    const order = page.sortDesc
      ? [sql`${column} desc nulls first`, desc(riskItems.id)]
      : [sql`${column} asc nulls last`, asc(riskItems.id)];
    const offset = (page.page - 1) * page.perPage;
    const page1 = (condition: SQL | undefined, skip: number, take: number) =>
      this.db
        .select(withScore)
        .from(riskItems)
        .where(and(where(f), condition))
        .orderBy(...order)
        .limit(take)
        .offset(skip);
    // Only judged items are overdue: a filter without that state needs no first query.
    const mayBeOverdue = !f.state || f.state.length === 0 || f.state.includes('judged');
    const overdue = mayBeOverdue ? ((await page1(OVERDUE, 0, offset + page.perPage)) as RiskRow[]) : [];
    const first = overdue.slice(offset, offset + page.perPage);
    const rest =
      first.length < page.perPage
        ? ((await page1(
            sql`${OVERDUE} is not true`,
            Math.max(0, offset - overdue.length),
            page.perPage - first.length,
          )) as RiskRow[])
        : [];
    return { rows: [...first, ...rest], total: await this.total(f) };
  }

  /** Exact for narrow filters; for apps, kind and state alone the sum of risk_item_counts (migration 0010). */
  private async total(f: RiskFilter): Promise<number> {
    if (!countable(f)) {
      const [row] = await this.db.select({ n: count() }).from(riskItems).where(where(f));
      return row?.n ?? 0;
    }
    const [row] = await this.db
      .select({ n: sql<number>`coalesce(sum(${riskItemCounts.n}), 0)::int` })
      .from(riskItemCounts)
      .where(countsWhere(f));
    return row?.n ?? 0;
  }

  async headline(f: RiskFilter): Promise<Headline> {
    if (!countable(f)) return this.exactHeadline(f);
    const weekAgo = sql`now() - interval '7 days'`;
    const scalar = (q: SQLWrapper) => sql`(${q})`;
    const counted = this.db
      .select({
        open: sql`coalesce(sum(${riskItemCounts.n}) filter (where ${COUNTED_OPEN}), 0)::int`.as('open'),
        pending: sql`coalesce(sum(${riskItemCounts.n}) filter (where ${riskItemCounts.state} = 'pending'), 0)::int`.as(
          'pending',
        ),
      })
      .from(riskItemCounts)
      .where(countsWhere(f));
    const counting = (condition: SQL) =>
      scalar(
        this.db
          .select({ n: count() })
          .from(riskItems)
          .where(and(where(f), condition)),
      );
    // The oldest open item: one index probe (state, created_at) per open state, not a scan of the open ones.
    const firstOf = (condition: SQL) =>
      scalar(
        this.db
          .select({ at: riskItems.createdAt })
          .from(riskItems)
          .where(and(where(f), condition))
          .orderBy(asc(riskItems.createdAt))
          .limit(1),
      );
    const oldest = sql`least(${firstOf(eq(riskItems.state, 'observing'))}, ${firstOf(eq(riskItems.state, 'pending'))},
      ${firstOf(and(eq(riskItems.state, 'judged'), eq(riskItems.judgment, 'needs-test')) as SQL)})`;
    const { rows } = await this.db.execute<Record<keyof Headline, unknown>>(sql`select c.open, c.pending,
      ${counting(sql`${riskItems.createdAt} >= ${weekAgo}`)}::int as "newThisWeek",
      ${counting(sql`${riskItems.resolvedAt} >= ${weekAgo}`)}::int as "resolvedThisWeek",
      ${counting(OVERDUE)}::int as overdue,
      ${oldest} as "oldestOpenAt"
      from (${counted}) c`);
    const row = rows[0] as Record<keyof Headline, unknown>;
    const at = row.oldestOpenAt;
    return {
      open: Number(row.open),
      pending: Number(row.pending),
      newThisWeek: Number(row.newThisWeek),
      resolvedThisWeek: Number(row.resolvedThisWeek),
      overdue: Number(row.overdue),
      oldestOpenAt: at === null || at === undefined ? null : new Date(at as string).toISOString(),
    };
  }

  private async exactHeadline(f: RiskFilter): Promise<Headline> {
    const weekAgo = sql`now() - interval '7 days'`;
    const [row] = await this.db
      .select({
        open: sql<number>`count(*) filter (where ${OPEN})::int`,
        newThisWeek: sql<number>`count(*) filter (where ${riskItems.createdAt} >= ${weekAgo})::int`,
        resolvedThisWeek: sql<number>`count(*) filter (where ${riskItems.resolvedAt} >= ${weekAgo})::int`,
        oldestOpenAt: sql<string | null>`min(${riskItems.createdAt}) filter (where ${OPEN})`,
        pending: sql<number>`count(*) filter (where ${riskItems.state} = 'pending')::int`,
        overdue: sql<number>`count(*) filter (where ${OVERDUE})::int`,
      })
      .from(riskItems)
      .where(where(f));
    const at = row?.oldestOpenAt ?? null;
    return {
      ...(row ?? { open: 0, newThisWeek: 0, resolvedThisWeek: 0, pending: 0, overdue: 0 }),
      oldestOpenAt: at === null ? null : new Date(at).toISOString(),
    };
  }

  async byIds(ids: readonly string[], tx: Executor = this.db): Promise<RiskRow[]> {
    if (ids.length === 0) return [];
    return (await tx
      .select(withScore)
      .from(riskItems)
      .where(inArray(riskItems.id, [...ids]))) as RiskRow[];
  }

  async history(id: string) {
    return this.db
      .select()
      .from(riskItemHistory)
      .where(eq(riskItemHistory.riskItemId, id))
      .orderBy(asc(riskItemHistory.at), asc(riskItemHistory.id));
  }

  async update(tx: Executor, id: string, values: Partial<typeof riskItems.$inferInsert>): Promise<void> {
    await tx
      .update(riskItems)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(riskItems.id, id));
  }

  async addHistory(tx: Executor, entry: typeof riskItemHistory.$inferInsert): Promise<void> {
    await tx.insert(riskItemHistory).values(entry);
  }

  /** The age part of the stored severity grows for four weeks: rewritten daily, the trigger recomputes it. */
  async refreshSeverity(): Promise<void> {
    await this.db.execute(sql`update ${riskItems} set severity = severity
      where ${riskItems.resolvedAt} is null and ${riskItems.createdAt} > now() - interval '29 days'`);
  }

  /** Items of this report still open (observing or pending), as a report shows them. */
  async openOfReport(reportId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(riskItems)
      .where(and(eq(riskItems.reportId, reportId), inArray(riskItems.state, ['observing', 'pending'])));
    return row?.n ?? 0;
  }
}
