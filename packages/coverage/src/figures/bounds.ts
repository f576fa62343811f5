import { COUNTER_KINDS, type CounterBounds, type CounterKind, type Counters } from '../model/coverage.ts';

/** Something with counters and, after an inexact merge, their upper bounds (a report, file, class, method). */
export type Bounded = { counters: Counters; bounds?: CounterBounds };

/**
 * The most a counter may cover: its bound where a merge left a range, else its covered count
 * (exact); null where the format lacks the counter.
 */
export function coveredAtMost(item: Bounded, kind: CounterKind): number | null {
  const counter = item.counters[kind];
  if (!counter) return null;
  return item.bounds?.[kind]?.coveredAtMost ?? counter.covered;
}

/** The counter kinds whose figure is a range (lower bound in `covered`), in COUNTER_KINDS order. */
export function rangedKinds(item: Bounded): CounterKind[] {
  return COUNTER_KINDS.filter((kind) => {
    const most = item.bounds?.[kind]?.coveredAtMost;
    return most !== undefined && most > (item.counters[kind]?.covered ?? most);
  });
}

/**
 * Bounds of counters that are sums of `parts` (a changed method's report methods, the changed
 * methods' totals): each sum's upper bound is the sum of the parts' upper bounds. Kinds `total`
 * lacks, or whose parts are all exact, get none.
 */
export function summedBounds(parts: readonly Bounded[], total: Counters): CounterBounds | undefined {
  let bounds: CounterBounds | undefined;
  for (const kind of COUNTER_KINDS) {
    const counter = total[kind];
    if (!counter || !parts.some((part) => part.bounds?.[kind])) continue;
    let most = 0;
    for (const part of parts) most += coveredAtMost(part, kind) ?? 0;
    most = Math.min(most, counter.covered + counter.missed);
    if (most > counter.covered) {
      bounds ??= {};
      bounds[kind] = { coveredAtMost: most };
    }
  }
  return bounds;
}
