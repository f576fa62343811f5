import type { InterfaceDetail, InterfaceDetailQuery, InterfaceRow, TraceWindowQuery } from '@sextant/api';
import { ApiError } from '../../errors.ts';
import type { CallRow, InterfaceAggregateRow, InterfaceReads } from './interface-reads.ts';
import { isoOfNs, msOfNs, windowOf } from './window.ts';

const HISTOGRAM_BUCKETS = 20;
/** About this many points on the over-time charts, whatever the window. */
const SERIES_POINTS = 48;

function rowOf(r: InterfaceAggregateRow): InterfaceRow {
  const calls = Number(r.calls);
  const errors = Number(r.errors);
  return {
    interface: r.interface,
    calls,
    errors,
    errorRate: calls > 0 ? errors / calls : 0,
    p50Ms: msOfNs(r.p50_ns),
    p95Ms: msOfNs(r.p95_ns),
    p99Ms: msOfNs(r.p99_ns),
    lastSeen: new Date(r.last_seen).toISOString(),
  };
}

const callOf = (r: CallRow) => ({
  traceId: r.trace_id,
  start: isoOfNs(r.start_ns),
  durationMs: msOfNs(r.duration_ns),
  failed: r.status_code === 2,
  testCase: r.test_case,
  appVersion: r.app_version,
});

/** Interface analytics (issue 36): per interface volume, errors, latency, the cases and methods behind it. */
export class InterfaceService {
  constructor(
    private readonly reads: InterfaceReads,
    private readonly now: () => number = Date.now,
  ) {}

  async list(query: TraceWindowQuery): Promise<InterfaceRow[]> {
    const w = { appId: query.appId, ...windowOf(query, this.now()) };
    return (await this.reads.interfaces(w)).map(rowOf);
  }

  async detail(query: InterfaceDetailQuery): Promise<InterfaceDetail> {
    const w = { appId: query.appId, ...windowOf(query, this.now()) };
    const iface = query.interface;
    const [summary] = await this.reads.interfaces(w, iface);
    if (!summary) throw new ApiError(404, 'not-found', 'No calls of this interface in the window.');
    const bucketSeconds = Math.max(60, Math.ceil((w.to.getTime() - w.from.getTime()) / 1000 / SERIES_POINTS));
    const [series, histogram, slowest, failing, testCases, methods] = await Promise.all([
      this.reads.series(w, iface, bucketSeconds),
      this.reads.histogram(w, iface, HISTOGRAM_BUCKETS),
      this.reads.calls(w, iface, 'slowest', 10),
      this.reads.calls(w, iface, 'failing', 10),
      this.reads.testCases(w, iface),
      this.reads.methods(w, iface),
    ]);
    return {
      interface: iface,
      summary: rowOf(summary),
      series: series.map((b) => ({
        at: new Date(b.at).toISOString(),
        calls: Number(b.calls),
        errors: Number(b.errors),
        p50Ms: msOfNs(b.p50_ns),
        p95Ms: msOfNs(b.p95_ns),
        p99Ms: msOfNs(b.p99_ns),
      })),
      histogram: histogram.map((h) => {
        const lo = Number(h.lo);
        const width = (Number(h.hi) - lo) / HISTOGRAM_BUCKETS;
        return {
          fromMs: (lo + (h.bucket - 1) * width) / 1e6,
          toMs: (lo + h.bucket * width) / 1e6,
          calls: Number(h.calls),
        };
      }),
      slowest: slowest.map(callOf),
      failing: failing.map(callOf),
      testCases: testCases.map((c) => ({
        testCase: c.test_case,
        calls: Number(c.calls),
        lastSeen: new Date(c.last_seen).toISOString(),
      })),
      methods: methods.map((m) => ({
        function: m.code_function,
        namespace: m.code_namespace,
        file: m.code_file,
        calls: Number(m.calls),
      })),
    };
  }
}
