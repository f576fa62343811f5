import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';

/** The stored spans of an app, oldest first, with the columns the tests compare. */
export async function storedSpans(db: Db, appId?: string) {
  const result = await db.execute<{
    app_id: string;
    trace_id: string;
    span_id: string;
    parent_span_id: string | null;
    name: string;
    kind: number;
    service: string;
    app_version: string | null;
    start_ns: string;
    duration_ns: string;
    status_code: number;
    interface: string | null;
    exception_type: string | null;
    exception_message: string | null;
    exception_stack: string | null;
    code_function: string | null;
    code_file: string | null;
    code_line: number | null;
    test_case: string | null;
    attributes: Record<string, unknown>;
    events: { name: string }[];
  }>(
    appId
      ? sql`select * from spans where app_id = ${appId} order by start_ns, span_id`
      : sql`select * from spans order by start_ns, span_id`,
  );
  return result.rows;
}

export const spanCount = async (db: Db) =>
  Number((await db.execute<{ n: string }>(sql`select count(*) as n from spans`)).rows[0]?.n);

/** Nanoseconds since the epoch of an SDK HrTime. */
export const nsOf = ([seconds, nanos]: [number, number]) =>
  (BigInt(seconds) * 1_000_000_000n + BigInt(nanos)).toString();
