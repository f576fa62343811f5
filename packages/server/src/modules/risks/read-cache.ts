/**
 * The home screen's answer cache (issue 34): every user landing on `/dashboard/observingRiskyItems`
 * asks for the same few lists and headlines, and between two risk writes their answers do not change.
 * An answer is kept under its key (the visible apps and the query, see `RisksService`) together with
 * the risk data's generation it was read at (`risk_generation.n`, bumped in the commit of every write
 * of risk_items, migration 0027), and given again only while the generation is still that number: a
 * write made by any server process on the database is never hidden by a kept answer.
 *
 * Each request reads the generation anew, by a read sent after the request arrived (so it sees every
 * write committed before), but concurrent requests share one read: while one is on its way, those
 * arriving wait together for the next. Under 50 connections that is one small read per round trip,
 * not one per request.
 *
 * Answers are also kept at most `ttlMs`: some figures move with the clock alone ("new this week",
 * overdue from the day's date), and an app renamed or moved to another team (not a risk write) shows
 * within that time.
 */
export class RiskReadCache {
  private readonly kept = new Map<string, { generation: number; at: number; value: Promise<unknown> }>();
  /** The generation read waiting to be sent, which requests arriving now join. */
  private waiting: { promise: Promise<number>; resolve: (n: number) => void; reject: (e: unknown) => void } | null =
    null;
  private reading = false;

  constructor(
    private readonly readGeneration: () => Promise<number>,
    private readonly ttlMs = 5000,
    private readonly maxEntries = 2000,
  ) {}

  /** The answer kept under `key` at the current generation, or `read()`'s (kept for the next caller). */
  async get<T>(key: string, read: () => Promise<T>): Promise<T> {
    const generation = await this.generation();
    const now = Date.now();
    const hit = this.kept.get(key);
    if (hit && hit.generation === generation && now - hit.at < this.ttlMs) return hit.value as Promise<T>;
    // Read after the generation: a write committed in between bumps it, and the answer is not given again.
    const value = read();
    if (this.kept.size >= this.maxEntries) this.kept.clear();
    this.kept.set(key, { generation, at: now, value });
    value.catch(() => {
      if (this.kept.get(key)?.value === value) this.kept.delete(key);
    });
    return value;
  }

  /** The generation as a read sent after this call sees it (shared with the calls made meanwhile). */
  generation(): Promise<number> {
    if (this.waiting) return this.waiting.promise;
    let resolve: (n: number) => void = () => {};
    let reject: (e: unknown) => void = () => {};
    const promise = new Promise<number>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.waiting = { promise, resolve, reject };
    if (!this.reading) this.send();
    return promise;
  }

  private send(): void {
    const batch = this.waiting;
    if (!batch) return;
    this.waiting = null;
    this.reading = true;
    this.readGeneration()
      .then(batch.resolve, batch.reject)
      .finally(() => {
        this.reading = false;
        this.send();
      });
  }
}
