import type { TraceSearchQuery } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export type TraceSummaryRow = {
  trace_id: string;
  root_name: string;
  root_service: string;
  interface: string | null;
  start_ns: string;
  duration_ns: string;
  span_count: string;
  error_count: string;
  test_case: string | null;
  app_version: string | null;
};

export type SpanDetailRow = {
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: number;
  service: string;
  app_version: string | null;
  start_ns: string;
  duration_ns: string;
  status_code: number;
  status_message: string;
  interface: string | null;
  exception_type: string | null;
  exception_message: string | null;
  exception_stack: string | null;
  code_function: string | null;
  code_namespace: string | null;
  code_file: string | null;
  code_line: number | null;
  test_case: string | null;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
  events: { timeNs: string; name: string; attributes: Record<string, unknown> }[];
  links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
};

/** How far a trace's other spans may lie from its matched ones (also outside the searched range). */
const TRACE_SLACK = sql`interval '1 hour'`;

/**
 * How many of the newest matching spans a search reads: enough for its candidate traces (five per
 * result, the rest left for the duration and status filters) at twenty spans a trace, capped.
 */
export const scanLimit = (limit: number) => Math.min(50_000, limit * 5 * 20);

/**
 * How many spans of the searched window, newest first, a search with a filter no index serves
 * (service, longest duration) examines at most: over a long window such a search would otherwise read
 * every span of it (a rare service over 7 days at 10M spans). Past it, a search that has not filled
 * its page is refused with a request to narrow the window (`SearchTooWide`).
 */
export const UNINDEXED_SCAN_CAP = 500_000;

/** A search with an unindexed filter examined `cap` spans of its window without filling its page. */
export class SearchTooWide extends Error {
  constructor(readonly cap: number) {
    super(`examined ${cap} spans`);
  }
}

/** Whether a text is one JSON value (a number, boolean, array, object...), as `::jsonb` reads it. */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * `key=value`: the attribute's text (`->>`, a number or boolean as written) is the value. The
 * containment tests before it find the candidates through the GIN index on attributes (migration
 * 0025): a string attribute equal to the value, or, when the value is JSON text, an attribute of
 * that JSON value (`200`, `true`); together they hold every span the exact test keeps.
 */
function attributeMatch(attribute: string): SQL {
  const at = attribute.indexOf('=');
  const key = attribute.slice(0, at);
  const value = attribute.slice(at + 1);
  const asText = sql`attributes @> ${JSON.stringify({ [key]: value })}::jsonb`;
  // `value` parses as JSON, so this text is one JSON object; PostgreSQL reads its numbers exactly.
  const asJson = sql`attributes @> ${`{${JSON.stringify(key)}:${value}}`}::jsonb`;
  return sql`(${isJson(value) ? sql`(${asText} or ${asJson})` : asText} and attributes ->> ${key} = ${value})`;
}

/** The read models of trace search and the trace detail, on the module's own `spans` table. */
export class TraceReads {
  constructor(
    private readonly db: Db,
    private readonly unindexedScanCap = UNINDEXED_SCAN_CAP,
  ) {}

  /**
   * Traces with at least one span matching every filter, most recent first; the duration range
   * applies to the whole trace (first start to last end), as a trace list shows it.
   *
   * Bounded for 10M stored spans (bench/trace-search.ts): the matching spans are read newest first
   * through an index on start time (per partition, merged) and the read stops after
   * `scanLimit(limit)` of them, rather than grouping every matching span of the range; the traces
   * are those of the newest matching spans. No span is longer than its trace, so a longest duration
   * also bounds each matching span. A trace's spans are those within TRACE_SLACK of its matched ones.
   */
  async search(q: Omit<TraceSearchQuery, 'from' | 'to'> & { from: Date; to: Date }): Promise<TraceSummaryRow[]> {
    // Filters an index of migration 0025 serves, and those none does (read from the examined spans).
    const where: SQL[] = [sql`app_id = ${q.appId}`, sql`start_time >= ${q.from}`, sql`start_time < ${q.to}`];
    if (q.interface) where.push(sql`interface = ${q.interface}`);
    if (q.status === 'error') where.push(sql`status_code = 2`);
    if (q.testCase) where.push(sql`test_case = ${q.testCase}`);
    if (q.attribute) where.push(attributeMatch(q.attribute));
    const unindexed: SQL[] = [];
    if (q.service) unindexed.push(sql`service = ${q.service}`);
    if (q.maxDurationMs !== undefined) unindexed.push(sql`duration_ns <= ${Math.round(q.maxDurationMs * 1e6)}`);
    const kept: SQL[] = [sql`true`];
    if (q.status === 'ok') kept.push(sql`t.error_count = 0`);
    if (q.minDurationMs !== undefined) kept.push(sql`t.duration_ns >= ${Math.round(q.minDurationMs * 1e6)}`);
    if (q.maxDurationMs !== undefined) kept.push(sql`t.duration_ns <= ${Math.round(q.maxDurationMs * 1e6)}`);
    // Each candidate trace is summarised from all its spans (the costly part: 5,000 of them took 1.1 s
    // of a 1,000-result search at 10M spans); five per result only when trace filters may drop some.
    const candidates = kept.length > 1 ? q.limit * 5 : q.limit;
    // The root first: a span without a parent, then the earliest.
    const rootOrder = sql`order by s.parent_span_id is not null, s.start_ns`;
    // Each candidate's spans are read by its own key (lateral: per trace, only the day partitions
    // around its matched spans), not by joining every span of the range.
    // With an unindexed filter, the spans the indexes find are examined newest first, at most the cap
    // (and one more, to tell a window of exactly the cap from a larger one), and counted.
    const examined =
      unindexed.length === 0
        ? sql`examined as (select 0 as n)`
        : sql`candidates as (
            select trace_id, start_time, service, duration_ns from spans
            where ${sql.join(where, sql` and `)}
            order by start_time desc limit ${this.unindexedScanCap + 1}
          ), examined as (select count(*)::int as n from candidates)`;
    const recent =
      unindexed.length === 0
        ? sql`select trace_id, start_time from spans where ${sql.join(where, sql` and `)}`
        : sql`select trace_id, start_time from candidates where ${sql.join(unindexed, sql` and `)}`;
    const result = await this.db.execute<TraceSummaryRow & { examined: number }>(sql`
      with ${examined}, recent as (
        ${recent}
        order by start_time desc limit ${scanLimit(q.limit)}
      ), matched as (
        select trace_id, min(start_time) as first_seen, max(start_time) as last_seen from recent
        group by trace_id order by last_seen desc limit ${candidates}
      )
      select e.n as examined, f.* from examined e left join lateral (
      select m.trace_id, t.root_name, t.root_service, t.interface, t.start_ns::text, t.duration_ns::text,
        t.span_count::text, t.error_count::text, t.test_case, t.app_version
      from matched m cross join lateral (
        select
          (array_agg(s.name ${rootOrder}))[1] as root_name,
          (array_agg(s.service ${rootOrder}))[1] as root_service,
          (array_agg(s.interface ${rootOrder}))[1] as interface,
          min(s.start_ns) as start_ns,
          max(s.start_ns + s.duration_ns) - min(s.start_ns) as duration_ns,
          count(*) as span_count,
          count(*) filter (where s.status_code = 2) as error_count,
          max(s.test_case) as test_case,
          max(s.app_version) as app_version
        from spans s
        where s.app_id = ${q.appId} and s.trace_id = m.trace_id
          and s.start_time >= m.first_seen - ${TRACE_SLACK} and s.start_time < m.last_seen + ${TRACE_SLACK}
      ) t
      where ${sql.join(kept, sql` and `)}
      order by t.start_ns desc
      limit ${q.limit}
      ) f on true`);
    const rows = result.rows.filter((r) => r.trace_id !== null);
    if (rows.length < q.limit && (result.rows[0]?.examined ?? 0) > this.unindexedScanCap)
      throw new SearchTooWide(this.unindexedScanCap);
    return rows.map(({ examined: _, ...row }) => row);
  }

  async spansOf(appId: string, traceId: string): Promise<SpanDetailRow[]> {
    const result = await this.db.execute<SpanDetailRow>(sql`
      select span_id, parent_span_id, name, kind, service, app_version, start_ns::text, duration_ns::text,
        status_code, status_message, interface, exception_type, exception_message, exception_stack,
        code_function, code_namespace, code_file, code_line, test_case, attributes, resource, events, links
      from spans where app_id = ${appId} and trace_id = ${traceId}
      order by start_ns, span_id`);
    return result.rows;
  }
}
