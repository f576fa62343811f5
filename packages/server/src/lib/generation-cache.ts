/**
 * An answer cache keyed by a data generation (issues 34 and 35): the home screen's risk lists
 * (modules/risks) and the analytics read models (modules/analytics) are asked the same questions by
 * many users, and between two writes of their data their answers do not change. An answer is kept
 * under its key (the caller's visible scope and the normalised query, built by the module) together
 * with the generation it was read at (a number every write of the data bumps in its commit, by a
 * deferred trigger: risk_generation, migration 0027; analytics_generation, migration 0031), and given
 * again only while the generation is still that number: a write made by any server process on the
 * database is never hidden by a kept answer.
 *
 * Each request reads the generation anew, by a read sent after the request arrived (so it sees every
 * write committed before), but concurrent requests share one read: while one is on its way, those
 * arriving wait together for the next. Under 50 connections that is one small read per round trip,
 * not one per request.
 *
 * Answers are also kept at most `ttlMs`: some figures move with the clock alone ("new this week",
 * overdue, agents alive now) or with writes that do not bump the generation. With `refreshStale`, an
 * answer past `ttlMs` at an unchanged generation is still given while one read replaces it (so the
 * requests arriving meanwhile do not all wait for a slow read); a changed generation is never served.
 */
export class GenerationCache {
  private readonly kept = new Map<
    string,
    { generation: number; at: number; value: Promise<unknown>; refreshing?: boolean }
  >();
  /** The generation read waiting to be sent, which requests arriving now join. */
  private waiting: { promise: Promise<number>; resolve: (n: number) => void; reject: (e: unknown) => void } | null =
    null;
  private reading = false;

  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly refreshStale: boolean;

  constructor(
    private readonly readGeneration: () => Promise<number>,
    options: { ttlMs?: number; maxEntries?: number; refreshStale?: boolean } = {},
  ) {
    this.ttlMs = options.ttlMs ?? 5000;
    this.maxEntries = options.maxEntries ?? 2000;
    this.refreshStale = options.refreshStale ?? false;
  }

  /**
   * The answer kept under `key` at the current generation, or `read()`'s (kept for the next caller).
   * `at`: a generation the caller already read for this request (several answers of one request).
   */
  async get<T>(key: string, read: () => Promise<T>, at?: number): Promise<T> {
    const generation = at ?? (await this.generation());
    const now = Date.now();
    const hit = this.kept.get(key);
    if (hit && hit.generation === generation) {
      if (now - hit.at < this.ttlMs) return hit.value as Promise<T>;
      if (this.refreshStale) {
        if (!hit.refreshing) this.refresh(key, hit, read);
        return hit.value as Promise<T>;
      }
    }
    return this.keep(key, generation, now, read());
  }

  /** Read after the generation: a write committed in between bumps it, and the answer is not given again. */
  private keep<T>(key: string, generation: number, at: number, value: Promise<T>): Promise<T> {
    if (this.kept.size >= this.maxEntries) this.kept.clear();
    this.kept.set(key, { generation, at, value });
    value.catch(() => {
      if (this.kept.get(key)?.value === value) this.kept.delete(key);
    });
    return value;
  }

  /** A stale answer's replacement, kept once read (and only while no newer answer took its place). */
  private refresh(key: string, hit: { generation: number; refreshing?: boolean }, read: () => Promise<unknown>) {
    hit.refreshing = true;
    const at = Date.now();
    read().then(
      (value) => {
        if (this.kept.get(key) === hit) this.keep(key, hit.generation, at, Promise.resolve(value));
      },
      () => {
        hit.refreshing = false;
      },
    );
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
