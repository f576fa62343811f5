import type { CounterKind, FileCoverage, MethodCoverage } from '../model/coverage.ts';
import { type ClassDraft, classDrafts, finishClass, type MethodDraft, runRanges, unionRanges } from './groups.ts';
import { finishLine, type LineDraft, mergeLineDrafts } from './lines.ts';
import { attributeMethodLines } from './method-lines.ts';
import { type CounterRanges, exact, narrow, narrowPartition, type Range, sumRanges, toCounters } from './ranges.ts';

/**
 * Merges one JaCoCo source file's reports from several runs of the same classes. JaCoCo itself
 * merges probe arrays; the XML keeps only per-line and per-method sums, so:
 * - line hits, the LINE counters of files and the METHOD and CLASS counters are exact;
 * - a line's instructions and branches are the union of the runs' covered sets: exact when one run
 *   covered all, or the others none; otherwise known only as a range;
 * - ranges narrow each other where items partition: a file's instructions and branches are the
 *   sum over its lines and over its classes; a class's over its methods; a class's lines over its
 *   methods', and a file's over its classes', when their line totals add up (no shared lines).
 *   So a method whose runs disagree is often determined by the exact rest of its file;
 * - a method's own lines, where method-lines.ts can tell them, make its LINE counter exact and
 *   tie its instructions and branches to those lines;
 * - COMPLEXITY (per branching instruction, max(0, covered branches - 1), plus 1 when the method
 *   ran) is exact when the method's merged branches are none or equal those of one run; else a
 *   range, since each branch added raises it by at most one.
 * Where a range stays open, `covered` is its lower bound and `bounds` holds the upper.
 */
export function mergeJacocoFiles(files: readonly FileCoverage[]): FileCoverage {
  const first = files[0] as FileCoverage;
  const lines = mergeLineDrafts(files);
  const classes = classDrafts(files.flatMap((f) => f.classes));
  const ranges = unionRanges(files);
  if (lines.length > 0) {
    // A source file's LINE, INSTRUCTION and BRANCH counters are those of its <line> rows.
    ranges.line = exact(lines.filter((l) => l.hits > 0).length, lines.length);
    ranges.instruction = fromLines(ranges.instruction, sumOf(lines.map((l) => l.instruction ?? undefined)));
    ranges.branch = fromLines(ranges.branch, sumRanges(lines.map((l) => l.branch)));
  }
  for (const c of classes) {
    if (c.methods.length > 0)
      c.ranges.method = sumOf(
        c.methods.map((m) => m.ranges.method),
        c.ranges.method,
      );
  }
  const methodLines = attributeMethodLines(files, lines, classes);
  for (const [method, own] of methodLines) {
    const line = method.ranges.line;
    if (line) narrow(line, own.filter((l) => l.hits > 0).length, own.filter((l) => l.hits > 0).length);
  }
  narrowUntilStable(ranges, lines, classes, methodLines);
  for (const c of classes) {
    for (const m of c.methods) m.ranges.complexity = methodComplexity(m);
    if (c.methods.length > 0)
      c.ranges.complexity = atLeastRuns(sumOf(c.methods.map((m) => m.ranges.complexity)), c.runs, 'complexity');
    c.ranges.class = classCounter(c);
  }
  for (const kind of ['complexity', 'method', 'class'] as const) {
    if (classes.length > 0) ranges[kind] = atLeastRuns(sumOf(classes.map((c) => c.ranges[kind])), files, kind);
  }
  const { counters, bounds } = toCounters(ranges);
  const merged: FileCoverage = {
    path: first.path,
    language: first.language,
    lines: lines.map(finishLine),
    classes: classes.map(finishClass),
    counters,
  };
  if (bounds) merged.bounds = bounds;
  return merged;
}

function fromLines(own: Range | undefined, lines: Range | undefined): Range | undefined {
  if (!lines) return own;
  if (own && own.total === lines.total) narrow(lines, own.lo, own.hi);
  return lines;
}

function sumOf(ranges: readonly (Range | undefined)[], fallback?: Range): Range | undefined {
  if (ranges.some((r) => !r)) return fallback;
  return sumRanges(ranges as Range[]);
}

/** Union is monotone: the merged figure is at least any single run's. */
function atLeastRuns(
  range: Range | undefined,
  runs: readonly { counters: MethodCoverage['counters']; bounds?: MethodCoverage['bounds'] }[],
  kind: CounterKind,
): Range | undefined {
  if (!range) return range;
  for (const r of runRanges(runs, kind)) narrow(range, r.lo, range.hi);
  return range;
}

function narrowUntilStable(
  file: CounterRanges,
  lines: readonly LineDraft[],
  classes: readonly ClassDraft[],
  methodLines: ReadonlyMap<MethodDraft, readonly LineDraft[]>,
): void {
  const lineInstructions = lines.every((l) => l.instruction) ? lines.map((l) => l.instruction as Range) : null;
  const lineBranches = lines.map((l) => l.branch);
  const of = (items: readonly { ranges: CounterRanges }[], kind: CounterKind) =>
    items.every((i) => i.ranges[kind]) ? items.map((i) => i.ranges[kind] as Range) : null;
  const partition = (parent: Range | undefined, children: Range[] | null) =>
    parent && children && children.length > 0 ? narrowPartition(parent, children) : false;
  // Each pass only narrows integer ranges, so this ends; the bound is a guard, not a tuning knob.
  for (let pass = 0; pass < 64; pass++) {
    let changed = false;
    if (lines.length > 0) {
      changed = partition(file.instruction, lineInstructions) || changed;
      changed = partition(file.branch, lineBranches) || changed;
    }
    for (const kind of ['instruction', 'branch', 'line'] as const) {
      changed = partition(file[kind], of(classes, kind)) || changed;
      for (const c of classes) changed = partition(c.ranges[kind], of(c.methods, kind)) || changed;
    }
    for (const [method, own] of methodLines) {
      changed =
        partition(
          method.ranges.branch,
          own.map((l) => l.branch),
        ) || changed;
      if (own.every((l) => l.instruction)) {
        changed =
          partition(
            method.ranges.instruction,
            own.map((l) => l.instruction as Range),
          ) || changed;
      }
    }
    if (!changed) return;
  }
}

function methodComplexity(m: MethodDraft): Range | undefined {
  const complexity = m.ranges.complexity;
  const branch = m.ranges.branch;
  if (!complexity || !branch) return complexity;
  const hit = (m.ranges.method?.lo ?? 0) > 0;
  const runs = m.runs.map((run) => ({
    complexity: runRanges([run], 'complexity')[0],
    branch: runRanges([run], 'branch')[0],
    hit: (run.counters.method?.covered ?? 0) > 0,
  }));
  if (branch.lo === branch.hi) {
    if (branch.lo === 0) return exact(hit ? Math.min(1, complexity.total) : 0, complexity.total);
    // A run with as many covered branches as the union covered exactly the union's branches. Such
    // runs agree in a report JaCoCo wrote; where they do not, a range over them, in any order.
    const same = runs.filter((r) => r.branch && r.branch.lo === branch.lo && r.branch.hi === branch.lo);
    const found = same.flatMap((r) => (r.complexity ? [r.complexity] : []));
    const [first] = found;
    if (first && found.every((c) => c.lo === first.lo && c.hi === first.hi && c.total === first.total)) {
      return { ...first };
    }
    if (first) {
      const lo = Math.min(complexity.total, ...found.map((c) => c.lo));
      return { lo, hi: Math.min(complexity.total, Math.max(lo, ...found.map((c) => c.hi))), total: complexity.total };
    }
  }
  let hi = complexity.total;
  for (const r of runs) {
    if (!r.complexity || !r.branch) continue;
    hi = Math.min(hi, r.complexity.hi + (branch.hi - r.branch.lo) + (hit && !r.hit ? 1 : 0));
  }
  return { lo: complexity.lo, hi: Math.max(complexity.lo, hi), total: complexity.total };
}

/** JaCoCo counts a class as covered when one of its methods ran; a class without code has 0/0. */
function classCounter(c: ClassDraft): Range | undefined {
  const range = c.ranges.class;
  if (!range || range.total === 0 || !c.ranges.method) return range;
  return exact(c.ranges.method.lo > 0 ? range.total : 0, range.total);
}
