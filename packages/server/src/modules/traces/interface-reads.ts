import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export type Window = { appId: string; from: Date; to: Date };

type Percentiles = { p50_ns: number | null; p95_ns: number | null; p99_ns: number | null };
export type InterfaceAggregateRow = Percentiles & {
  interface: string;
  calls: string;
  errors: string;
  last_seen: string;
};
export type BucketRow = Percentiles & { at: string; calls: string; errors: string };
export type HistogramRow = { bucket: number; lo: string; hi: string; calls: string };
export type CallRow = {
  trace_id: string;
  start_ns: string;
  duration_ns: string;
  status_code: number;
  test_case: string | null;
  app_version: string | null;
};
export type CaseRow = { test_case: string; calls: string; last_seen: string };
export type MethodRow = {
  code_function: string;
  code_namespace: string | null;
  code_file: string | null;
  calls: string;
};

/** The calls of an interface are its entry spans: server spans, or roots when the kind was not set. */
const entry = sql`interface is not null and (kind = 2 or parent_span_id is null)`;
const percentiles = sql`
  percentile_cont(0.5) within group (order by duration_ns) as p50_ns,
  percentile_cont(0.95) within group (order by duration_ns) as p95_ns,
  percentile_cont(0.99) within group (order by duration_ns) as p99_ns`;
const inWindow = (w: Window) => sql`app_id = ${w.appId} and start_time >= ${w.from} and start_time < ${w.to}`;

/** Interface analytics (`/otel/interfaceAnalytic`, issue 36): one read per question, on `spans`. */
export class InterfaceReads {
  constructor(private readonly db: Db) {}

  private async rows<T extends Record<string, unknown>>(query: SQL): Promise<T[]> {
    return (await this.db.execute<T>(query)).rows as T[];
  }

  /** Each interface's calls, errors and percentiles; `only` narrows to one interface. */
  interfaces(w: Window, only?: string): Promise<InterfaceAggregateRow[]> {
    const one = only === undefined ? sql`` : sql`and interface = ${only}`;
    return this.rows(sql`
      select interface, count(*)::text as calls, count(*) filter (where status_code = 2)::text as errors,
        ${percentiles}, max(start_time)::text as last_seen
      from spans where ${inWindow(w)} and ${entry} ${one}
      group by interface order by count(*) desc limit 500`);
  }

  /** Calls, errors and percentiles per bucket of `bucketSeconds`. */
  series(w: Window, iface: string, bucketSeconds: number): Promise<BucketRow[]> {
    const at = sql`to_timestamp(floor(extract(epoch from start_time) / ${bucketSeconds}) * ${bucketSeconds})`;
    return this.rows(sql`
      select ${at}::text as at, count(*)::text as calls, count(*) filter (where status_code = 2)::text as errors,
        ${percentiles}
      from spans where ${inWindow(w)} and ${entry} and interface = ${iface}
      group by 1 order by 1`);
  }

  /** Equal-width duration buckets between the fastest and slowest call. */
  histogram(w: Window, iface: string, buckets: number): Promise<HistogramRow[]> {
    return this.rows(sql`
      with calls as (select duration_ns from spans where ${inWindow(w)} and ${entry} and interface = ${iface}),
        bounds as (select min(duration_ns) as lo, max(duration_ns) + 1 as hi from calls)
      select least(width_bucket(c.duration_ns, b.lo, b.hi, ${buckets}), ${buckets}) as bucket,
        b.lo::text as lo, b.hi::text as hi, count(*)::text as calls
      from calls c cross join bounds b group by 1, 2, 3 order by 1`);
  }

  /** The slowest calls, or the failing ones (most recent first). */
  calls(w: Window, iface: string, kind: 'slowest' | 'failing', limit: number): Promise<CallRow[]> {
    const filter = kind === 'failing' ? sql`and status_code = 2` : sql``;
    // Ordered by the table's bigint columns (s.), not the text the select names alike.
    const order = kind === 'failing' ? sql`s.start_ns desc` : sql`s.duration_ns desc`;
    return this.rows(sql`
      select trace_id, start_ns::text as start_ns, duration_ns::text as duration_ns, status_code, test_case, app_version
      from spans s where ${inWindow(w)} and ${entry} and interface = ${iface} ${filter}
      order by ${order} limit ${limit}`);
  }

  /** The test cases whose traces reached the interface. */
  testCases(w: Window, iface: string): Promise<CaseRow[]> {
    return this.rows(sql`
      select test_case, count(*)::text as calls, max(start_time)::text as last_seen
      from spans where ${inWindow(w)} and ${entry} and interface = ${iface} and test_case is not null
      group by test_case order by count(*) desc limit 200`);
  }

  /** The code methods seen in the traces of the interface's calls. */
  methods(w: Window, iface: string): Promise<MethodRow[]> {
    return this.rows(sql`
      with traces as (
        select distinct trace_id from spans where ${inWindow(w)} and ${entry} and interface = ${iface})
      select s.code_function, s.code_namespace, s.code_file, count(*)::text as calls
      from spans s join traces t on t.trace_id = s.trace_id
      where s.app_id = ${w.appId} and s.start_time >= ${w.from}::timestamptz - interval '1 hour'
        and s.start_time < ${w.to}::timestamptz + interval '1 hour' and s.code_function is not null
      group by 1, 2, 3 order by count(*) desc limit 200`);
  }
}
