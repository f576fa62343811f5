import type { ClassCoverage, CounterKind, Counters, MethodCoverage } from '../model/coverage.ts';
import { type CounterRanges, type Range, rangeOf, toCounters, unionOf } from './ranges.ts';

/** A method as merged from several runs, while its ranges may still narrow. */
export type MethodDraft = { runs: MethodCoverage[]; ranges: CounterRanges };
export type ClassDraft = { name: string; runs: ClassCoverage[]; methods: MethodDraft[]; ranges: CounterRanges };

/** The ranges of each run's counter of a kind, for the runs that have it. */
export function runRanges(
  items: readonly { counters: Counters; bounds?: MethodCoverage['bounds'] }[],
  kind: CounterKind,
) {
  const ranges: Range[] = [];
  for (const item of items) {
    const c = item.counters[kind];
    if (c) ranges.push(rangeOf(c, item.bounds, kind));
  }
  return ranges;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Which methods of several runs are one: by name, signature and start line. */
export const methodIdentity = (m: MethodCoverage) => `${m.name}\u0000${m.signature ?? ''}\u0000${m.startLine ?? ''}`;

/**
 * Classes matched by name, methods by `identity`. Every kind starts as the union of the runs'
 * figures; a method is covered when any run covered it (exact).
 */
export function classDrafts(
  classes: readonly ClassCoverage[],
  identity: (m: MethodCoverage) => string = methodIdentity,
): ClassDraft[] {
  return groupBy(classes, (c) => c.name).map(([name, runs]) => ({
    name,
    runs,
    methods: groupBy(
      runs.flatMap((c) => c.methods),
      identity,
    ).map(([, methods]) => methodDraft(methods)),
    ranges: unionRanges(runs),
  }));
}

function methodDraft(runs: MethodCoverage[]): MethodDraft {
  const ranges = unionRanges(runs);
  const method = ranges.method;
  if (method) {
    const hit = runs.some((m) => (m.counters.method?.covered ?? 0) > 0);
    ranges.method = { lo: hit ? method.total : 0, hi: hit ? method.total : 0, total: method.total };
  }
  return { runs, ranges };
}

export function unionRanges(
  items: readonly { counters: Counters; bounds?: MethodCoverage['bounds'] }[],
): CounterRanges {
  const ranges: CounterRanges = {};
  for (const kind of ['instruction', 'branch', 'line', 'complexity', 'method', 'class'] as const) {
    const union = unionOf(runRanges(items, kind));
    if (union) ranges[kind] = union;
  }
  return ranges;
}

export function finishMethod(draft: MethodDraft): MethodCoverage {
  const base = draft.runs[0] as MethodCoverage;
  const { counters, bounds } = toCounters(draft.ranges);
  const endLine = draft.runs.find((m) => m.endLine !== null)?.endLine ?? null;
  const method: MethodCoverage = {
    name: base.name,
    signature: base.signature,
    // The first run's line, or the first run that names one (an LCOV FNDA may come without its FN).
    startLine: base.startLine ?? draft.runs.find((m) => m.startLine !== null)?.startLine ?? null,
    endLine,
    counters,
  };
  if (bounds) method.bounds = bounds;
  return method;
}

export function finishClass(draft: ClassDraft): ClassCoverage {
  const { counters, bounds } = toCounters(draft.ranges);
  const merged: ClassCoverage = { name: draft.name, methods: draft.methods.map(finishMethod), counters };
  if (bounds) merged.bounds = bounds;
  return merged;
}
