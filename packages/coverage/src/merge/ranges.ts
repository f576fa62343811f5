import type { Counter, CounterBounds, CounterKind, Counters } from '../model/coverage.ts';

/**
 * What a merge knows about one counter: the covered count lies in [lo, hi] out of `total`.
 * lo === hi is an exact figure.
 */
export type Range = { lo: number; hi: number; total: number };

export function exact(covered: number, total: number): Range {
  return { lo: covered, hi: covered, total };
}

/** A counter as a range, reading its upper bound back when it comes from an earlier merge. */
export function rangeOf(counter: Counter, bounds: CounterBounds | undefined, kind: CounterKind): Range {
  const total = counter.covered + counter.missed;
  return { lo: counter.covered, hi: Math.min(total, bounds?.[kind]?.coveredAtMost ?? counter.covered), total };
}

/**
 * The covered items of several runs over the same items are the union of each run's covered set:
 * at least the largest run, at most the sum (and never more than the total).
 */
export function unionOf(ranges: readonly Range[]): Range | null {
  if (ranges.length === 0) return null;
  let total = 0;
  let lo = 0;
  let hi = 0;
  for (const r of ranges) {
    total = Math.max(total, r.total);
    lo = Math.max(lo, r.lo);
    hi += r.hi;
  }
  return { lo: Math.min(lo, total), hi: Math.min(hi, total), total };
}

export function sumRanges(ranges: readonly Range[]): Range {
  const sum = { lo: 0, hi: 0, total: 0 };
  for (const r of ranges) {
    sum.lo += r.lo;
    sum.hi += r.hi;
    sum.total += r.total;
  }
  return sum;
}

/**
 * Narrows a parent and its children when the children partition the parent's items (their totals
 * add up to the parent's): the parent lies within the children's sum, and each child within what
 * the parent leaves once the others are at their extremes. Returns whether anything narrowed.
 */
export function narrowPartition(parent: Range, children: readonly Range[]): boolean {
  const sum = sumRanges(children);
  if (sum.total !== parent.total) return false;
  let changed = narrow(parent, sum.lo, sum.hi);
  for (const child of children) {
    changed = narrow(child, parent.lo - (sum.hi - child.hi), parent.hi - (sum.lo - child.lo)) || changed;
  }
  return changed;
}

/** Intersects range with [lo, hi]; data of consistent runs never makes it empty, so lo is kept if it would. */
export function narrow(range: Range, lo: number, hi: number): boolean {
  const newLo = Math.max(range.lo, Math.min(lo, range.hi));
  const newHi = Math.max(newLo, Math.min(range.hi, hi));
  const changed = newLo !== range.lo || newHi !== range.hi;
  range.lo = newLo;
  range.hi = newHi;
  return changed;
}

export type CounterRanges = Partial<Record<CounterKind, Range>>;

/** Counters (lower bounds) and, for inexact ones, their upper bounds. Kinds without a range stay null. */
export function toCounters(ranges: CounterRanges): { counters: Counters; bounds?: CounterBounds } {
  const counters: Counters = {
    instruction: null,
    branch: null,
    line: null,
    complexity: null,
    method: null,
    class: null,
  };
  let bounds: CounterBounds | undefined;
  for (const kind of Object.keys(counters) as CounterKind[]) {
    const r = ranges[kind];
    if (!r) continue;
    counters[kind] = { covered: r.lo, missed: r.total - r.lo };
    if (r.hi > r.lo) {
      bounds ??= {};
      bounds[kind] = { coveredAtMost: r.hi };
    }
  }
  return bounds ? { counters, bounds } : { counters };
}
