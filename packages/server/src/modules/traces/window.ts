import { ApiError } from '../../errors.ts';

export const DAY_MS = 86_400_000;
/** The widest window: past it a query would scan every day partition at once. */
export const MAX_RANGE_DAYS = 31;

/** A query's time window: `to` defaults to now, `from` to a day before `to`; checked like the search's. */
export function windowOf(query: { from?: string; to?: string }, nowMs: number): { from: Date; to: Date } {
  const to = query.to ? new Date(query.to) : new Date(nowMs);
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - DAY_MS);
  if (from >= to)
    throw new ApiError(400, 'validation-failed', 'The search is invalid.', {
      from: 'The start of the range must be before its end.',
    });
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS)
    throw new ApiError(400, 'validation-failed', 'The search is invalid.', {
      from: `Search at most ${MAX_RANGE_DAYS} days at once.`,
    });
  return { from, to };
}

/** Nanoseconds since the epoch (decimal text) as an ISO time with microseconds. */
export function isoOfNs(ns: string): string {
  return new Date(Number(BigInt(ns) / 1_000_000n)).toISOString();
}

export const msOfNs = (ns: string | number | null) => (ns === null ? 0 : Number(ns) / 1e6);
