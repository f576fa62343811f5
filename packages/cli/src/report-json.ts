import { type Counter, type CounterKind, type Counters, type DiffCoverage, figuresByPackage } from '@sextant/coverage';
import type { LoadedReport } from '@sextant/coverage/node';

type JsonCounter = { covered: number; total: number } | null;
type JsonCounters = Record<CounterKind, JsonCounter>;

const toJsonCounter = (c: Counter | null): JsonCounter =>
  c ? { covered: c.covered, total: c.covered + c.missed } : null;

export function toJsonCounters(counters: Counters): JsonCounters {
  return {
    instruction: toJsonCounter(counters.instruction),
    branch: toJsonCounter(counters.branch),
    line: toJsonCounter(counters.line),
    complexity: toJsonCounter(counters.complexity),
    method: toJsonCounter(counters.method),
    class: toJsonCounter(counters.class),
  };
}

/**
 * The `--json` document: the stable contract of `sextant coverage` (issue 3). `linesOnly`
 * (`--lines-only`): no changed methods were looked for, so `diff.totals` and `diff.methods` are null.
 */
export function coverageJson(report: LoadedReport, diff: DiffCoverage | null, linesOnly = false) {
  return {
    format: report.coverage.format,
    totals: toJsonCounters(report.coverage.counters),
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
        totals: linesOnly ? null : toJsonCounters(diff.incremental.totals),
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
              counters: toJsonCounters(m.counters),
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
