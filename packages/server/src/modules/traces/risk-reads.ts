import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** Spans ending in one exception type at one interface of an app (issue 34's exception risks). */
export type ExceptionGroup = {
  appId: string;
  interface: string;
  exceptionType: string;
  appVersion: string | null;
  count: number;
  firstSeen: Date;
  lastSeen: Date;
  /** The trace of the latest such span (the trace viewer opens it). */
  sampleTraceId: string;
};

/** An interface whose p95 span duration passes a threshold (issue 34's performance risks). */
export type SlowInterface = {
  appId: string;
  interface: string;
  appVersion: string | null;
  count: number;
  p95Ms: number;
  firstSeen: Date;
  lastSeen: Date;
  sampleTraceId: string;
};

/**
 * The grouped span reads the risks module turns into exception and performance risks (issue 34).
 * Owned by the risks engineer, on the traces module's `spans` table (the day partitions since `since`).
 */
export class TraceRiskReads {
  constructor(private readonly db: Db) {}

  async exceptionGroups(since: Date): Promise<ExceptionGroup[]> {
    const { rows } = await this.db.execute(sql`
      select app_id, coalesce(interface, name) as interface, exception_type, count(*)::int as n,
             min(start_time) as first_seen, max(start_time) as last_seen,
             (array_agg(trace_id order by start_time desc))[1] as sample,
             (array_agg(app_version order by start_time desc))[1] as app_version
      from spans
      where start_time >= ${since} and exception_type is not null
      group by app_id, coalesce(interface, name), exception_type`);
    return rows.map((r) => ({
      appId: String(r.app_id),
      interface: String(r.interface),
      exceptionType: String(r.exception_type),
      appVersion: r.app_version === null ? null : String(r.app_version),
      count: Number(r.n),
      firstSeen: new Date(r.first_seen as string),
      lastSeen: new Date(r.last_seen as string),
      sampleTraceId: String(r.sample),
    }));
  }

  /** Interfaces (spans with an interface) whose p95 duration is at least `thresholdMs`. */
  async slowInterfaces(since: Date, thresholdMs: number): Promise<SlowInterface[]> {
    const { rows } = await this.db.execute(sql`
      select app_id, interface, count(*)::int as n,
             percentile_cont(0.95) within group (order by duration_ns) / 1e6 as p95_ms,
             min(start_time) as first_seen, max(start_time) as last_seen,
             (array_agg(trace_id order by duration_ns desc))[1] as sample,
             (array_agg(app_version order by start_time desc))[1] as app_version
      from spans
      where start_time >= ${since} and interface is not null
      group by app_id, interface
      having percentile_cont(0.95) within group (order by duration_ns) >= ${thresholdMs * 1e6}`);
    return rows.map((r) => ({
      appId: String(r.app_id),
      interface: String(r.interface),
      appVersion: r.app_version === null ? null : String(r.app_version),
      count: Number(r.n),
      p95Ms: Number(r.p95_ms),
      firstSeen: new Date(r.first_seen as string),
      lastSeen: new Date(r.last_seen as string),
      sampleTraceId: String(r.sample),
    }));
  }
}
