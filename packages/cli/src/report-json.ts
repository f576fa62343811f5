import {
  type Bounded,
  COUNTER_KINDS,
  type CounterKind,
  type DiffCoverage,
  figuresByPackage,
  rangedKinds,
} from '@sextant/coverage';
import type { LoadedReport } from '@sextant/coverage/node';

/**
 * `coveredAtMost` only on a range: merged JaCoCo XML keeps per-line sums, not probes, so runs that
 * covered different parts of one line leave `covered` a lower bound (issue 38).
 */
type JsonCounter = { covered: number; total: number; coveredAtMost?: number } | null;
type JsonCounters = Record<CounterKind, JsonCounter>;

function toJsonCounter(item: Bounded, kind: CounterKind): JsonCounter {
  const c = item.counters[kind];
  if (!c) return null;
  const most = item.bounds?.[kind]?.coveredAtMost;
  return { covered: c.covered, total: c.covered + c.missed, ...(most !== undefined && { coveredAtMost: most }) };
}

export function toJsonCounters(item: Bounded): JsonCounters {
  return Object.fromEntries(COUNTER_KINDS.map((kind) => [kind, toJsonCounter(item, kind)])) as JsonCounters;
}

/** The counters the report has that are exact (the others carry `coveredAtMost`). */
export function exactCounters(item: Bounded): CounterKind[] {
  const ranged = rangedKinds(item);
  return COUNTER_KINDS.filter((kind) => item.counters[kind] !== null && !ranged.includes(kind));
}

/**
 * The `--json` document: the stable contract of `sextant coverage` (issue 3). `linesOnly`
 * (`--lines-only`): no changed methods were looked for, so `diff.totals` and `diff.methods` are null.
 */
export function coverageJson(report: LoadedReport, diff: DiffCoverage | null, linesOnly = false) {
  return {
    format: report.coverage.format,
    totals: toJsonCounters(report.coverage),
    exactCounters: exactCounters(report.coverage),
    files: report.coverage.files.length,
    unmappedFiles: report.unmappedFiles,
    // Unmapped because their suffix names several repository files: never one of them silently.
    ambiguousFiles: report.ambiguousFiles ?? [],
    // A monorepo's packages with their share of the figures (empty outside one).
    packages: report.packages?.length ? figuresByPackage(report.packages, report.coverage, diff) : [],
    ...(diff && {
      diff: {
        base: diff.base,
        head: diff.head,
        lines: { covered: diff.lines.covered, total: diff.lines.total },
        totals: linesOnly
          ? null
          : toJsonCounters({ counters: diff.incremental.totals, bounds: diff.incremental.bounds }),
        methods: linesOnly
          ? null
          : diff.incremental.methods.map((m, i) => ({
              file: m.file,
              class: m.class,
              name: m.name,
              signature: m.signature,
              startLine: m.startLine,
              endLine: m.endLine,
              author: diff.authors[i] ?? null,
              status: m.status,
              counters: toJsonCounters(m),
              covered: m.covered,
              measured: m.measured,
              changedLines: m.changedLines,
              bodyHash: m.bodyHash,
            })),
        files: diff.files.map((f) => ({ path: f.path, status: f.status, covered: f.covered, total: f.total })),
        // Changed files whose methods are unknown: tree-sitter gave up on their source.
        unparsedFiles: linesOnly ? null : diff.unparsedFiles,
      },
    }),
  };
}
