import type { RiskListQuery } from '@sextant/api';
import { and, asc, count, desc, eq, getTableColumns, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { riskItemHistory, riskItems } from '../../db/schema/index.ts';
import type { Executor } from '../audit/service.ts';

export type RiskRow = typeof riskItems.$inferSelect & { severity: number; overdue: boolean };
export type RiskFilter = Omit<RiskListQuery, 'page' | 'perPage' | 'sortBy' | 'sortDesc'> & {
  appIds: readonly string[];
  authorEmail?: string | null;
  assigneeId?: string;
};

const days = (from: SQL | typeof riskItems.createdAt) =>
  sql`greatest(0, extract(epoch from (coalesce(${riskItems.resolvedAt}, now()) - ${from})) / 86400)`;

/**
 * `riskSeverity` of packages/api/src/risks.ts in SQL, so the list sorts by the score it shows
 * (float8 throughout: numeric logarithms made the home list's sort of 60,000 open items take a second;
 * floor(x + 0.5) rounds as Math.round does).
 */
export const SEVERITY = sql<number>`(floor(1000
  * (case when ${riskItems.lineTotal} > 0 then 1 - ${riskItems.lineCovered}::float8 / ${riskItems.lineTotal} else 1 end)
  * least(1, ln(1 + greatest(1, ${riskItems.changedLines})::float8) / ln(2::float8) / 6)
  * (case when ${riskItems.fanIn} is null then 0.85
         else 0.7 + 0.3 * least(1, ln(1 + ${riskItems.fanIn}::float8) / ln(2::float8) / 4) end)
  * (0.75 + 0.25 * least(1, ${days(riskItems.createdAt)}::float8 / 28)) + 0.5) / 10)::float8`;

export const OVERDUE = sql<boolean>`(${riskItems.state} = 'judged' and ${riskItems.judgment} = 'needs-test'
  and ${riskItems.dueDate} < current_date)`;

const OPEN = or(
  inArray(riskItems.state, ['observing', 'pending']),
  and(eq(riskItems.state, 'judged'), eq(riskItems.judgment, 'needs-test')),
);

const SORTS = {
  severity: SEVERITY,
  createdAt: riskItems.createdAt,
  dueDate: riskItems.dueDate,
  changedLines: riskItems.changedLines,
  lineCoverage: sql`(case when ${riskItems.lineTotal} > 0 then ${riskItems.lineCovered}::float8 / ${riskItems.lineTotal} else 0 end)`,
  app: riskItems.appId,
} as const;

function where(f: RiskFilter): SQL | undefined {
  return and(
    inArray(riskItems.appId, f.appIds.length > 0 ? [...f.appIds] : ['00000000-0000-0000-0000-000000000000']),
    f.version ? eq(riskItems.version, f.version) : undefined,
    f.testType ? eq(riskItems.testType, f.testType) : undefined,
    f.author ? sql`${riskItems.author} ilike ${`%${f.author.replace(/[\\%_]/g, '\\$&')}%`}` : undefined,
    f.authorEmail !== undefined
      ? sql`lower(${riskItems.author}) like ${`%<${(f.authorEmail ?? '\u0000').replace(/[\\%_]/g, '\\$&')}>`}`
      : undefined,
    f.assigneeId ? eq(riskItems.assigneeId, f.assigneeId) : undefined,
    f.kind ? eq(riskItems.kind, f.kind) : undefined,
    f.state && f.state.length > 0 ? inArray(riskItems.state, f.state) : undefined,
    f.ids ? inArray(riskItems.id, f.ids.length > 0 ? f.ids : ['00000000-0000-0000-0000-000000000000']) : undefined,
  );
}

const withScore = { ...getTableColumns(riskItems), severity: SEVERITY, overdue: OVERDUE };

export class RisksRepository {
  constructor(private readonly db: Db) {}

  /** One page, overdue "needs test" items first (issue 34), then the chosen order. */
  async list(f: RiskFilter, page: { page: number; perPage: number; sortBy: keyof typeof SORTS; sortDesc: boolean }) {
    const column = SORTS[page.sortBy];
    const rows = await this.db
      .select(withScore)
      .from(riskItems)
      .where(where(f))
      .orderBy(
        desc(OVERDUE),
        page.sortDesc ? sql`${column} desc nulls last` : sql`${column} asc nulls last`,
        asc(riskItems.id),
      )
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage);
    const [total] = await this.db.select({ n: count() }).from(riskItems).where(where(f));
    return { rows: rows as RiskRow[], total: total?.n ?? 0 };
  }

  async headline(f: RiskFilter) {
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
    return row ?? { open: 0, newThisWeek: 0, resolvedThisWeek: 0, oldestOpenAt: null, pending: 0, overdue: 0 };
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

  /** Items of this report still open (observing or pending), as a report shows them. */
  async openOfReport(reportId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(riskItems)
      .where(and(eq(riskItems.reportId, reportId), inArray(riskItems.state, ['observing', 'pending'])));
    return row?.n ?? 0;
  }
}
