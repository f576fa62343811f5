import type { IdentityKeys, RiskListQuery } from '@sextant/api';
import { and, asc, count, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { riskGeneration, riskItemHistory, riskItems } from '../../db/schema/index.ts';
import { preparedRows } from '../../lib/prepared-read.ts';
import type { Executor } from '../audit/service.ts';
import { headlineRows, OVERDUE, pagePart, type RiskPage } from './page-reads.ts';
import { TraceRiskStore } from './trace-risk-store.ts';

export type RiskRow = typeof riskItems.$inferSelect & {
  severity: number;
  overdue: boolean;
  /** The app's name and team (list pages; null: the app is gone). */
  appName?: string | null;
  teamId?: string;
};
export type RiskFilter = Omit<RiskListQuery, 'page' | 'perPage' | 'sortBy' | 'sortDesc'> & {
  /** null: every app (an administrator without an app, team or project filter). */
  appIds: readonly string[] | null;
  /** The caller's own items (`mine`): authors that are their e-mail or git identities. */
  authorIdentities?: IdentityKeys;
  assigneeId?: string;
};

/** `riskSeverity` of packages/api/src/risks.ts, stored by a trigger on every write (migration 0010). */
export const SEVERITY = riskItems.severity;

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
   * One page, overdue "needs test" items first (issue 34), then the chosen order: index-backed parts
   * (the overdue few, then the rest), never a sort of every matching row; the total rides on the first.
   */
  async list(f: RiskFilter, page: RiskPage): Promise<{ rows: RiskRow[]; total: number }> {
    const offset = (page.page - 1) * page.perPage;
    // Only judged items are overdue: a filter without that state needs no overdue part.
    if (f.state && f.state.length > 0 && !f.state.includes('judged')) {
      return pagePart(this.db, f, page, { items: 'all', offset, limit: page.perPage, withTotal: true });
    }
    const overdue = await pagePart(this.db, f, page, {
      items: 'overdue',
      offset: 0,
      limit: offset + page.perPage,
      withTotal: true,
    });
    const first = overdue.rows.slice(offset, offset + page.perPage);
    if (first.length === page.perPage) return { rows: first, total: overdue.total };
    const rest = await pagePart(this.db, f, page, {
      items: 'rest',
      offset: Math.max(0, offset - overdue.rows.length),
      limit: page.perPage - first.length,
      withTotal: false,
    });
    return { rows: [...first, ...rest.rows], total: overdue.total };
  }

  /**
   * The headline in one prepared statement: open and pending from risk_item_counts where apps, kind and
   * state alone filter; new and resolved this week by index ranges (created_at, resolved_at); overdue
   * from the partial index on "needs test" due dates; the oldest open item by one probe per open state.
   */
  async headline(f: RiskFilter): Promise<Headline> {
    const [row] = await headlineRows(this.db, f);
    const r = row as Record<keyof Headline, unknown>;
    const at = r.oldestOpenAt;
    return {
      open: Number(r.open),
      pending: Number(r.pending),
      newThisWeek: Number(r.newThisWeek),
      resolvedThisWeek: Number(r.resolvedThisWeek),
      overdue: Number(r.overdue),
      oldestOpenAt: at === null || at === undefined ? null : new Date(at as string).toISOString(),
    };
  }

  /** The risk data's generation (risk_generation.n, bumped in the commit of every risk write; read-cache.ts). */
  generation(): Promise<number> {
    return readRiskGeneration(this.db);
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

/** risk_generation.n: bumped in the commit of every risk write (migration 0027; lib/generation-cache.ts). */
export async function readRiskGeneration(db: Db): Promise<number> {
  const [row] = await preparedRows(
    db,
    sql`select ${riskGeneration.n} as n from ${riskGeneration} where ${riskGeneration.id} = 1`,
  );
  return Number(row?.n ?? 0);
}
