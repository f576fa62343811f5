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

/** How far a trace's other spans may lie outside the searched range (a long trace crossing its edge). */
const TRACE_SLACK = sql`interval '1 hour'`;

/** The read models of trace search and the trace detail, on the module's own `spans` table. */
export class TraceReads {
  constructor(private readonly db: Db) {}

  /**
   * Traces with at least one span matching every filter, most recent first; the duration range
   * applies to the whole trace (first start to last end), as a trace list shows it.
   */
  async search(q: Omit<TraceSearchQuery, 'from' | 'to'> & { from: Date; to: Date }): Promise<TraceSummaryRow[]> {
    const where: SQL[] = [sql`app_id = ${q.appId}`, sql`start_time >= ${q.from}`, sql`start_time < ${q.to}`];
    if (q.service) where.push(sql`service = ${q.service}`);
    if (q.interface) where.push(sql`interface = ${q.interface}`);
    if (q.status === 'error') where.push(sql`status_code = 2`);
    if (q.testCase) where.push(sql`test_case = ${q.testCase}`);
    if (q.attribute) {
      const at = q.attribute.indexOf('=');
      where.push(sql`attributes ->> ${q.attribute.slice(0, at)} = ${q.attribute.slice(at + 1)}`);
    }
    const having: SQL[] = [sql`true`];
    if (q.status === 'ok') having.push(sql`count(*) filter (where s.status_code = 2) = 0`);
    if (q.minDurationMs !== undefined)
      having.push(sql`max(s.start_ns + s.duration_ns) - min(s.start_ns) >= ${Math.round(q.minDurationMs * 1e6)}`);
    if (q.maxDurationMs !== undefined)
      having.push(sql`max(s.start_ns + s.duration_ns) - min(s.start_ns) <= ${Math.round(q.maxDurationMs * 1e6)}`);
    // The root first: a span without a parent, then the earliest.
    const rootOrder = sql`order by s.parent_span_id is not null, s.start_ns`;
    const result = await this.db.execute<TraceSummaryRow>(sql`
      with matched as (
        select trace_id, max(start_time) as last_seen from spans
        where ${sql.join(where, sql` and `)}
        group by trace_id order by last_seen desc limit ${q.limit * 5}
      )
      select s.trace_id,
        (array_agg(s.name ${rootOrder}))[1] as root_name,
        (array_agg(s.service ${rootOrder}))[1] as root_service,
        (array_agg(s.interface ${rootOrder}))[1] as interface,
        min(s.start_ns)::text as start_ns,
        (max(s.start_ns + s.duration_ns) - min(s.start_ns))::text as duration_ns,
        count(*)::text as span_count,
        count(*) filter (where s.status_code = 2)::text as error_count,
        max(s.test_case) as test_case,
        max(s.app_version) as app_version
      from spans s join matched m on m.trace_id = s.trace_id
      where s.app_id = ${q.appId}
        and s.start_time >= ${q.from}::timestamptz - ${TRACE_SLACK}
        and s.start_time < ${q.to}::timestamptz + ${TRACE_SLACK}
      group by s.trace_id
      having ${sql.join(having, sql` and `)}
      order by min(s.start_ns) desc
      limit ${q.limit}`);
    return result.rows;
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
