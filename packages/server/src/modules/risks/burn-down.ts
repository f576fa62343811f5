import type { RiskBurnDown } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** Which risk items a burn-down counts: their apps, and optionally test type and version. */
export type BurnDownScope = {
  appIds: readonly string[];
  testType?: 1 | 2;
  version?: string;
  /** Days (YYYY-MM-DD, UTC), inclusive; without them the last `days` days up to today. */
  from?: string;
  to?: string;
};

/** Longest range drawn per day; longer ones are drawn per ISO week (Monday). */
const DAILY_UP_TO = 92;
const DAY_MS = 86_400_000;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const mondayOf = (ms: number) => ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS;

/**
 * Open risks over time from `risk_item_history` (issue 35): a transition opens an item when it leaves
 * it open (observing, pending, or judged "needs test") after a closed state or none, and closes it the
 * other way (resolved, or judged an accepted risk or a false positive). Each bucket's open figure adds
 * every earlier bucket's openings minus closings, from the first transition on, so it is the number of
 * items open at the bucket's end, not only those opened inside the range.
 */
export async function riskBurnDown(db: Db, scope: BurnDownScope, days = 30): Promise<RiskBurnDown> {
  const today = Date.parse(dayOf(Date.now()));
  const to = scope.to ? Date.parse(scope.to) : today;
  const from = scope.from ? Date.parse(scope.from) : to - (days - 1) * DAY_MS;
  const bucket = (to - from) / DAY_MS + 1 > DAILY_UP_TO ? 'week' : 'day';
  if (scope.appIds.length === 0 || from > to) return { bucket, points: [] };
  const filters: SQL[] = [sql`i.app_id = any(${`{${scope.appIds.join(',')}}`}::uuid[])`];
  if (scope.testType) filters.push(sql`i.test_type = ${scope.testType}`);
  if (scope.version) filters.push(sql`i.version = ${scope.version}`);
  const result = await db.execute(sql`with h as (
      select h.risk_item_id, h.at, h.id,
        (h.to_state in ('observing', 'pending') or (h.to_state = 'judged' and h.judgment = 'needs-test')) as is_open
      from risk_item_history h join risk_items i on i.id = h.risk_item_id
      where ${sql.join(filters, sql` and `)}),
    t as (select (h.at at time zone 'UTC')::date as d, is_open,
        coalesce(lag(is_open) over (partition by risk_item_id order by at, id), false) as was_open from h)
    select to_char(d, 'YYYY-MM-DD') as d,
      count(*) filter (where is_open and not was_open)::int as opened,
      count(*) filter (where was_open and not is_open)::int as closed
    from t where d <= ${dayOf(to)}::date group by d order by d`);
  const start = bucket === 'week' ? mondayOf(from) : from;
  const step = bucket === 'week' ? 7 * DAY_MS : DAY_MS;
  const points: RiskBurnDown['points'] = [];
  for (let at = start; at <= to; at += step) points.push({ day: dayOf(at), opened: 0, closed: 0, open: 0 });
  let before = 0;
  for (const row of result.rows) {
    const at = Date.parse(String(row.d));
    const opened = Number(row.opened);
    const closed = Number(row.closed);
    if (at < start) {
      before += opened - closed;
      continue;
    }
    const point = points[Math.floor((at - start) / step)];
    if (!point) continue;
    point.opened += opened;
    point.closed += closed;
  }
  for (const point of points) {
    before += point.opened - point.closed;
    point.open = before;
  }
  return { bucket, points };
}
