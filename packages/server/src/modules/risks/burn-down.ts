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

const OPEN = (t: string) =>
  sql.raw(`(${t}.state in ('observing', 'pending') or (${t}.state = 'judged' and ${t}.judgment = 'needs-test'))`);

/**
 * Open risks over time from `risk_item_history` (issue 35): a transition opens an item when it leaves
 * it open (observing, pending, or judged "needs test") after a closed state or none, and closes it the
 * other way (resolved, or judged an accepted risk or a false positive). The open figure at each
 * bucket's end is the items open now minus the openings and plus the closings after it, so only the
 * history from the range's start on is read (by its time index), however long the items' past. Over
 * apps alone (the cockpit, a team) those openings and closings come per app and day from
 * risk_open_days and the items open now from risk_item_counts, both kept by triggers as items change.
 */
export async function riskBurnDown(
  db: Db,
  scope: BurnDownScope,
  days = 30,
  /** 'history' reads the transitions even over apps alone (the tests compare both answers). */
  source: 'kept' | 'history' = 'kept',
): Promise<RiskBurnDown> {
  const today = Date.parse(dayOf(Date.now()));
  const to = scope.to ? Date.parse(scope.to) : today;
  const from = scope.from ? Date.parse(scope.from) : to - (days - 1) * DAY_MS;
  const bucket = (to - from) / DAY_MS + 1 > DAILY_UP_TO ? 'week' : 'day';
  if (scope.appIds.length === 0 || from > to) return { bucket, points: [] };
  const start = bucket === 'week' ? mondayOf(from) : from;
  const step = bucket === 'week' ? 7 * DAY_MS : DAY_MS;
  // The apps as a relation joined on (hashed), not `= any(array)`: that compares every row to each id.
  const scoped = sql`join unnest(${`{${scope.appIds.join(',')}}`}::uuid[]) as s(app_id) on s.app_id = i.app_id`;
  const filters: SQL[] = [sql`true`];
  if (scope.testType) filters.push(sql`i.test_type = ${scope.testType}`);
  if (scope.version) filters.push(sql`i.version = ${scope.version}`);
  const where = sql.join(filters, sql` and `);
  const isOpen = sql.raw(
    `(h.to_state in ('observing', 'pending') or (h.to_state = 'judged' and h.judgment = 'needs-test'))`,
  );
  // Before the transition: its from-state says it, but for "judged", whose judgment is the one before:
  // judged → resolved only ever leaves a "needs test" item (the others are closed), judged → observing
  // only an accepted or false-positive one; a judgment changed names the earlier one in its history.
  const wasOpen = sql`case when h.from_state in ('observing', 'pending') then true
      when h.from_state = 'judged' and h.to_state = 'resolved' then true
      when h.from_state = 'judged' and h.to_state = 'judged' then coalesce((select p.judgment = 'needs-test'
        from risk_item_history p where p.risk_item_id = h.risk_item_id and (p.at, p.id) < (h.at, h.id)
        order by p.at desc, p.id desc limit 1), false)
      else false end`;
  // Over apps alone, the per-day counts the history's trigger keeps and the items' counters answer
  // (days × apps rows); a test type or version (an item's, as it is now) needs the items themselves.
  const [changes, now] =
    source === 'kept' && !scope.testType && !scope.version
      ? await Promise.all([
          db.execute(sql`select to_char(d.day, 'YYYY-MM-DD') as d, sum(d.opened)::int as opened,
              sum(d.closed)::int as closed
            from risk_open_days d join unnest(${`{${scope.appIds.join(',')}}`}::uuid[]) as s(app_id) on s.app_id = d.app_id
            where d.day >= ${dayOf(start)}::date group by d.day order by d.day`),
          db.execute(sql`select coalesce(sum(c.n), 0)::int as n from risk_item_counts c
            join unnest(${`{${scope.appIds.join(',')}}`}::uuid[]) as s(app_id) on s.app_id = c.app_id
            where c.state in ('observing', 'pending') or (c.state = 'judged' and c.judgment = 'needs-test')`),
        ])
      : await Promise.all([
          db.execute(sql`select to_char(t.d, 'YYYY-MM-DD') as d,
              count(*) filter (where t.is_open and not t.was_open)::int as opened,
              count(*) filter (where t.was_open and not t.is_open)::int as closed
            from (select (h.at at time zone 'UTC')::date as d, ${isOpen} as is_open, ${wasOpen} as was_open
              from risk_item_history h join risk_items i on i.id = h.risk_item_id ${scoped}
              where ${where} and h.at >= ${dayOf(start)}::date) t
            group by t.d order by t.d`),
          db.execute(sql`select count(*)::int as n from risk_items i ${scoped} where ${where} and ${OPEN('i')}`),
        ]);
  const deltas = changes.rows.map((r) => ({
    at: Date.parse(String(r.d)),
    opened: Number(r.opened),
    closed: Number(r.closed),
  }));
  const openNow = Number(now.rows[0]?.n ?? 0);
  const points: RiskBurnDown['points'] = [];
  for (let at = start; at <= to; at += step) {
    const end = at + step - DAY_MS;
    let point = { day: dayOf(at), opened: 0, closed: 0, open: openNow };
    for (const d of deltas) {
      if (d.at > end) point = { ...point, open: point.open - d.opened + d.closed };
      else if (d.at >= at) point = { ...point, opened: point.opened + d.opened, closed: point.closed + d.closed };
    }
    points.push(point);
  }
  return { bucket, points };
}
