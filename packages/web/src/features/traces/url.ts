import type { TraceSearchQuery } from '@sextant/api';

/** The trace search's filters as the URL keeps them (every view is a link). */
export type TraceSearch = Partial<Omit<TraceSearchQuery, 'limit'>>;

const TEXT_KEYS = ['appId', 'from', 'to', 'service', 'interface', 'attribute', 'testCase'] as const;
const NUMBER_KEYS = ['minDurationMs', 'maxDurationMs'] as const;

export function readTraceSearch(params: URLSearchParams): TraceSearch {
  const search: TraceSearch = {};
  for (const key of TEXT_KEYS) {
    const value = params.get(key)?.trim();
    if (value) search[key] = value;
  }
  for (const key of NUMBER_KEYS) {
    const value = Number(params.get(key) ?? Number.NaN);
    if (params.get(key) !== null && Number.isFinite(value) && value >= 0) search[key] = value;
  }
  const status = params.get('status');
  if (status === 'ok' || status === 'error') search.status = status;
  return search;
}

export function writeTraceSearch(search: TraceSearch): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  return params;
}

/** Point 9: stored warn/serious thresholds are seconds; below warn success, below serious warning, else danger. */
export type DurationTone = 'success' | 'warning' | 'danger';
export function durationTone(ms: number, warnSeconds: number, seriousSeconds: number): DurationTone {
  if (ms < warnSeconds * 1000) return 'success';
  if (ms < seriousSeconds * 1000) return 'warning';
  return 'danger';
}

/** A duration for people: milliseconds below a second, seconds above. */
export const formatMs = (ms: number) =>
  ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
