import type { SearchReports } from '@sextant/api';

/** A search's total: exact, or the planner's estimate where counting would read too many rows. */
export type SearchTotal = { total: number; exact: boolean };

/** How long a search's total may be reused; the page itself is always read fresh. */
export const TOTAL_TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

/**
 * Totals of report searches, reused for a few seconds per filter. A broad filter's total is an estimate
 * (search-reports.ts), a narrow one's a count of at most SEARCH_EXACT_TOTAL_BELOW rows; either way every
 * page turn of the list asks for the same total again. Writes through this instance's report and app routes clear it
 * at once; writes elsewhere (another instance) show within TOTAL_TTL_MS.
 */
export class SearchTotals {
  private readonly entries = new Map<string, { at: number; total: Promise<SearchTotal> }>();

  constructor(private readonly ttlMs = TOTAL_TTL_MS) {}

  get(query: SearchReports, count: () => Promise<SearchTotal>): Promise<SearchTotal> {
    const key = JSON.stringify([
      query.testType,
      query.appName ?? null,
      query.newVersion ?? null,
      query.envType ?? null,
    ]);
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.total;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const total = count();
    this.entries.set(key, { at: now, total });
    total.catch(() => this.entries.delete(key));
    return total;
  }

  invalidate(): void {
    this.entries.clear();
  }
}
