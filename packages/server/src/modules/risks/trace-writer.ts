import type { ExceptionGroup, SlowInterface } from '../traces/index.ts';

/** One exception or performance risk as the latest traces show it (issue 34). */
export type TraceRiskCandidate = {
  kind: 'exception' | 'performance';
  appId: string;
  version: string;
  /** The interface (`className` and `filePath` of the item). */
  interface: string;
  /** The exception type, or `p95` for a performance risk (`methodName` of the item). */
  what: string;
  occurrences: number;
  firstSeen: Date;
  lastSeen: Date;
  sampleTraceId: string;
  p95Ms: number | null;
};

/** How far back the writer looks: an exception not seen for a week is resolved. */
export const TRACE_RISK_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The trace risks to hold (issue 34): one exception item per app, interface and exception type among
 * the window's spans, and one performance item per interface whose p95 duration passes the stored
 * warning threshold (`trace_consuming_time_warn_threshold`, seconds × 1000).
 */
export function traceRiskCandidates(exceptions: ExceptionGroup[], slow: SlowInterface[]): TraceRiskCandidate[] {
  return [
    ...exceptions.map((g) => ({
      kind: 'exception' as const,
      appId: g.appId,
      version: g.appVersion ?? '',
      interface: g.interface,
      what: g.exceptionType,
      occurrences: g.count,
      firstSeen: g.firstSeen,
      lastSeen: g.lastSeen,
      sampleTraceId: g.sampleTraceId,
      p95Ms: null,
    })),
    ...slow.map((s) => ({
      kind: 'performance' as const,
      appId: s.appId,
      version: s.appVersion ?? '',
      interface: s.interface,
      what: 'p95',
      occurrences: s.count,
      firstSeen: s.firstSeen,
      lastSeen: s.lastSeen,
      sampleTraceId: s.sampleTraceId,
      p95Ms: Math.round(s.p95Ms * 10) / 10,
    })),
  ];
}

export const traceRiskKey = (appId: string, kind: string, iface: string, what: string) =>
  `${appId}\u0000${kind}\u0000${iface}\u0000${what}`;
