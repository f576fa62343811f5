// Spans for the trace search bench, generated inside PostgreSQL (generate_series), one day partition
// at a time, so 10,000,000 rows load in minutes instead of crossing the wire as OTLP exports.
import type pg from 'pg';

export type SpanRowsShape = {
  /** Days of spans, ending with the day that holds `endMs`. */
  days: number;
  spansPerDay: number;
  spansPerTrace: number;
  /** Apps: app 1 holds half of the traces (the busy app searches are slow on), the rest share the other half. */
  apps: number;
  endMs: number;
};

export const FULL_SPAN_SHAPE: Omit<SpanRowsShape, 'endMs'> = {
  days: 10,
  spansPerDay: 1_000_000,
  spansPerTrace: 8,
  apps: 20,
};

/** App n's id, as the bench addresses it. */
export const benchAppId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** The partition day (`YYYYMMDD`) and its UTC midnight for day `d` days before `endMs`'s. */
function dayAt(endMs: number, d: number): { name: string; startMs: number } {
  const midnight = Math.floor(endMs / 86_400_000) * 86_400_000 - d * 86_400_000;
  return { name: new Date(midnight).toISOString().slice(0, 10).replaceAll('-', ''), startMs: midnight };
}

/**
 * Each trace: a SERVER root span carrying an HTTP interface (one of 50 routes), then children on four
 * services, one of them a client call with its own interface; 2 % of traces end in an error span
 * (with an exception), 10 % carry a test case (one of 500), every span a few attributes
 * (`user.id` one of 1,000). Durations: roots 1 ms to 2 s (skewed towards short), children shorter.
 * Traces are spread evenly over each day, their spans 1 ms apart.
 */
export async function loadSpanRows(pool: pg.Pool, shape: SpanRowsShape): Promise<number> {
  let total = 0;
  const tracesPerDay = Math.floor(shape.spansPerDay / shape.spansPerTrace);
  const k = shape.spansPerTrace;
  for (let d = shape.days - 1; d >= 0; d--) {
    const day = dayAt(shape.endMs, d);
    const to = new Date(day.startMs + 86_400_000).toISOString();
    await pool.query(`create table if not exists spans_p${day.name} partition of spans
      for values from ('${new Date(day.startMs).toISOString()}') to ('${to}')`);
    // t: the trace within the day, i: the span within the trace; the µs offset spreads traces over the day.
    const result = await pool.query(`
      insert into spans (app_id, trace_id, span_id, parent_span_id, name, kind, service, app_version,
        start_time, start_ns, duration_ns, status_code, status_message, interface, exception_type,
        exception_message, test_case, attributes, resource, events, links)
      select
        ('00000000-0000-4000-8000-' || lpad(to_hex(case when t % 2 = 0 then 1 else 2 + (t / 2) % ${shape.apps - 1} end), 12, '0'))::uuid,
        md5('${day.name}:' || t),
        substr(md5('${day.name}:' || t || ':' || i), 1, 16),
        case when i = 0 then null else substr(md5('${day.name}:' || t || ':' || (i - 1) / 2), 1, 16) end,
        case when i = 0 then 'GET /api/r' || (t % 50) when i = 3 then 'POST /stock' else 'work-' || i end,
        case when i = 0 then 2 when i = 3 then 3 else 1 end,
        case when i = 0 then 'gateway' else 'svc-' || (i % 4) end,
        '1.' || (${d} % 3),
        start_us_time, start_us * 1000,
        case when i = 0 then (1 + power(abs(hashint4(t)) % 1000, 3)::bigint / 500000) * 1000000
          else (1 + abs(hashint4(t * ${k} + i)) % 50) * 100000 end,
        case when i = ${k - 1} and t % 50 = 0 then 2 else 0 end,
        '',
        case when i = 0 then 'GET /api/r' || (t % 50) when i = 3 then 'POST /stock' end,
        case when i = ${k - 1} and t % 50 = 0 then 'java.lang.IllegalStateException' end,
        case when i = ${k - 1} and t % 50 = 0 then 'stock ran out' end,
        case when t % 10 = 0 then 'CASE-' || (t / 10) % 500 end,
        jsonb_build_object('user.id', 'u' || (t % 1000), 'span.index', i,
          'http.route', case when i = 0 then '/api/r' || (t % 50) end),
        jsonb_build_object('service.name', case when i = 0 then 'gateway' else 'svc-' || (i % 4) end),
        '[]'::jsonb, '[]'::jsonb
      from generate_series(0, ${tracesPerDay * k - 1}) g,
        lateral (select g / ${k} as t, g % ${k} as i) ti,
        lateral (select ${day.startMs * 1000}::bigint + (t * (86400000000 / ${tracesPerDay}))::bigint + i * 1000 as start_us) su,
        lateral (select timestamptz 'epoch' + start_us * interval '1 microsecond' as start_us_time) st`);
    total += result.rowCount ?? 0;
    console.log(`  day ${day.name}: ${result.rowCount} spans`);
  }
  await pool.query('analyze spans');
  return total;
}
