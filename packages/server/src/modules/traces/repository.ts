import { finished } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyPool, type Db } from '../../db/client.ts';
import type { SpanFacts } from './normalise.ts';
import { copyBody, SPAN_COPY_COLUMNS } from './span-copy.ts';

/** One span as stored (db/schema/traces.ts); `day` names its partition. */
export type SpanRow = {
  appId: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  service: string;
  appVersion: string | null;
  startNs: bigint;
  durationNs: bigint;
  statusCode: number;
  statusMessage: string;
  attributes: string;
  resource: string;
  events: string;
  links: string;
} & SpanFacts;

const DAY_NS = 86_400_000_000_000n;

/** `YYYYMMDD` of a UTC day, as partitions are named. */
export function dayOf(ns: bigint): string {
  return new Date(Number(ns / 1_000_000n)).toISOString().slice(0, 10).replaceAll('-', '');
}

/** The days the rows start on (one division a row; the day's name once a day). */
function daysOf(rows: readonly SpanRow[]): string[] {
  const days = new Set<bigint>();
  for (const r of rows) days.add(r.startNs / DAY_NS);
  return [...days].map((day) => dayOf(day * DAY_NS));
}

/** PostgreSQL's error code; drizzle wraps the driver's error in its own, with the original as `cause`. */
function pgCode(error: unknown): string {
  const e = error as { code?: string; cause?: { code?: string } };
  return e.code ?? e.cause?.code ?? '';
}

const PARTITION = /^spans_p(\d{8})$/;
const isoDay = (day: string) => `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`;

/** Column, its array type for unnest, and how a row gives it. */
const COLUMNS: [string, string, (r: SpanRow) => unknown][] = [
  ['app_id', 'uuid', (r) => r.appId],
  ['trace_id', 'text', (r) => r.traceId],
  ['span_id', 'text', (r) => r.spanId],
  ['parent_span_id', 'text', (r) => r.parentSpanId],
  ['name', 'text', (r) => r.name],
  ['kind', 'smallint', (r) => r.kind],
  ['service', 'text', (r) => r.service],
  ['app_version', 'text', (r) => r.appVersion],
  ['start_ns', 'bigint', (r) => r.startNs.toString()],
  ['duration_ns', 'bigint', (r) => r.durationNs.toString()],
  ['status_code', 'smallint', (r) => r.statusCode],
  ['status_message', 'text', (r) => r.statusMessage],
  ['interface', 'text', (r) => r.interface],
  ['exception_type', 'text', (r) => r.exceptionType],
  ['exception_message', 'text', (r) => r.exceptionMessage],
  ['exception_stack', 'text', (r) => r.exceptionStack],
  ['code_function', 'text', (r) => r.codeFunction],
  ['code_namespace', 'text', (r) => r.codeNamespace],
  ['code_file', 'text', (r) => r.codeFile],
  ['code_line', 'integer', (r) => r.codeLine],
  ['test_case', 'text', (r) => r.testCase],
  ['attributes', 'jsonb', (r) => r.attributes],
  ['resource', 'jsonb', (r) => r.resource],
  ['events', 'jsonb', (r) => r.events],
  ['links', 'jsonb', (r) => r.links],
];

const NAMES = COLUMNS.map(([c]) => c).join(', ');
const INSERT_HEAD = `insert into spans (${NAMES}, start_time)
  select u.*, timestamptz 'epoch' + (u.start_ns / 1000) * interval '1 microsecond' from unnest(`;
const INSERT_TAIL = `) as u(${NAMES}) on conflict do nothing`;

const COPY_STATEMENT = `copy spans (${SPAN_COPY_COLUMNS.join(', ')}) from stdin`;

/** `$1::uuid[], $2::text[], ...`: one array parameter per column. */
function unnestArgs(arrays: ReturnType<typeof sql.param>[]) {
  return arrays.map(
    (array, i) => sql`${i > 0 ? sql.raw(', ') : sql.raw('')}${array}${sql.raw(`::${COLUMNS[i]?.[1]}[]`)}`,
  );
}

/** The only SQL of the traces module, on its own table `spans` and its day partitions. */
export class TracesRepository {
  private readonly knownDays = new Set<string>();

  constructor(
    private readonly db: Db,
    /** The pool COPY is sent on (PostgreSQL), or null to write with the unnest insert; tests pass null to cover both. */
    private readonly copy = copyPool(db),
  ) {}

  /** Creates the day's partition unless it exists (another process may be creating it at the same time). */
  async ensureDay(day: string): Promise<void> {
    if (this.knownDays.has(day)) return;
    if (!/^\d{8}$/.test(day)) throw new Error(`not a day: ${day}`);
    const from = new Date(`${isoDay(day)}T00:00:00Z`);
    const to = new Date(from.getTime() + 86_400_000);
    try {
      // `day` is eight digits (checked above), so the names and bounds written here are plain text.
      await this.db.execute(
        sql.raw(`create table if not exists spans_p${day} partition of spans
         for values from ('${from.toISOString()}') to ('${to.toISOString()}')`),
      );
    } catch (error) {
      // Lost a race with another creator: the partition exists now, which is what was wanted.
      if (!['42P07', '23505'].includes(pgCode(error))) throw error;
    }
    this.knownDays.add(day);
  }

  /**
   * Writes a batch in one statement after making its days' partitions; a span already stored is
   * kept once. Returns how many rows were new. On PostgreSQL the statement is a COPY (issue 36:
   * ~2× the rows/s of the unnest insert, bench/otlp-ingest.ts); COPY has no ON CONFLICT, so a batch
   * holding a span stored before (an exporter's retry) is written again by the unnest insert, which
   * skips it. PGlite's socket carries no COPY FROM STDIN: there the unnest insert is the write.
   */
  async insertSpans(rows: SpanRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const days = daysOf(rows);
    const write = async () => {
      for (const day of days) await this.ensureDay(day);
      if (!this.copy) return this.insertSkippingStored(rows);
      try {
        return await this.copySpans(this.copy, rows);
      } catch (error) {
        // 23505: a span of the batch is stored already (or twice in it).
        if (pgCode(error) !== '23505') throw error;
        return this.insertSkippingStored(rows);
      }
    };
    try {
      return await write();
    } catch (error) {
      // 23514: no partition for a row — another process's retention dropped a day this one knew.
      if (pgCode(error) !== '23514') throw error;
      this.knownDays.clear();
      return write();
    }
  }

  /** One unnest insert (an array parameter per column) that skips spans stored already. */
  private async insertSkippingStored(rows: SpanRow[]): Promise<number> {
    const arrays = COLUMNS.map(([, , value]) => sql.param(rows.map(value)));
    const result = await this.db.execute(sql.join([sql.raw(INSERT_HEAD), ...unnestArgs(arrays), sql.raw(INSERT_TAIL)]));
    return result.rowCount ?? 0;
  }

  /** One COPY FROM STDIN of the rows in text format (span-copy.ts), on a connection of its own. */
  private async copySpans(pool: pg.Pool, rows: SpanRow[]): Promise<number> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      const stream = client.query(copyFrom(COPY_STATEMENT));
      stream.end(copyBody(rows));
      await finished(stream);
      return stream.rowCount;
    } catch (error) {
      // The server refused the rows (an ErrorResponse): the connection is fine. Anything else may have cut it mid-COPY.
      if (!pgCode(error)) broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** The days that have a partition, oldest first. */
  async days(): Promise<string[]> {
    const result = await this.db.execute<{ name: string }>(
      sql`select c.relname as name from pg_inherits i
       join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
       where p.relname = 'spans' order by c.relname`,
    );
    return result.rows.flatMap((r) => PARTITION.exec(r.name)?.[1] ?? []);
  }

  /** Drops the partitions of the days before `day` (retention): a day is dropped whole, not row by row. */
  async dropDaysBefore(day: string): Promise<string[]> {
    const dropped: string[] = [];
    for (const d of await this.days()) {
      if (d >= day) continue;
      await this.db.execute(sql.raw(`drop table if exists spans_p${d}`));
      this.knownDays.delete(d);
      dropped.push(d);
    }
    return dropped;
  }
}
