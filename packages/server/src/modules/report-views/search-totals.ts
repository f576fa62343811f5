import type { SearchReports } from '@sextant/api';

/** How long a search's total may be reused; the page itself is always read fresh. */
export const TOTAL_TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

/**
 * Totals of report searches, reused for a few seconds per filter. Counting 50,000 reports of a test type
 * costs tens of milliseconds, the page beside it (an index walk) well under one, and every page turn of
 * the list asks for the same total again. Writes through this instance's report and app routes clear it
 * at once; writes elsewhere (another instance) show within TOTAL_TTL_MS.
 */
export class SearchTotals {
  private readonly entries = new Map<string, { at: number; total: Promise<number> }>();

  constructor(private readonly ttlMs = TOTAL_TTL_MS) {}

  get(query: SearchReports, count: () => Promise<number>): Promise<number> {
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
