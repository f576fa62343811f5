import { CoverageError } from '../errors.ts';
import { branchCounter, lineCounter } from '../figures/counters.ts';
import {
  COUNTER_KINDS,
  type Counter,
  type Coverage,
  type FileCoverage,
  type LineCoverage,
  type MethodCoverage,
} from '../model/coverage.ts';
import { type ClassDraft, classDrafts, finishClass, methodIdentity, unionRanges } from './groups.ts';
import { mergeJacocoFiles } from './jacoco.ts';
import { applyBranches, finishLine, mergeBranches, mergeLineDrafts } from './lines.ts';
import { type CounterRanges, exact, narrowPartition, type Range, rangeOf, sumRanges, toCounters } from './ranges.ts';

/**
 * Merges reports of the same code (shards, repeated runs, several agents) as the tools do: files
 * by path, lines by number, hits add, a line is covered when any run covered it. A figure the
 * reports do not determine exactly (JaCoCo XML keeps sums, not probes) is reported as its lower
 * bound, with the upper bound in `bounds`. The rules per format are in the package README.
 * Reports of different formats cannot merge (their counters mean different things).
 */
export function mergeCoverage(reports: readonly Coverage[]): Coverage {
  const first = reports[0];
  if (!first) throw new CoverageError('empty-input', 'nothing to merge');
  for (const report of reports) {
    if (report.format !== first.format) {
      throw new CoverageError('format-mismatch', `cannot merge ${report.format} with ${first.format}`, {
        format: report.format,
      });
    }
  }
  const byPath = new Map<string, FileCoverage[]>();
  for (const report of reports) {
    for (const file of report.files) {
      const list = byPath.get(file.path);
      if (list) list.push(file);
      else byPath.set(file.path, [file]);
    }
  }
  const paths = [...byPath.keys()].sort();
  const files = paths.map((path) => {
    const group = byPath.get(path) as FileCoverage[];
    if (group.length === 1) return group[0] as FileCoverage;
    if (first.format === 'jacoco') return mergeJacocoFiles(group);
    // lcov -a knows a file's functions by name alone, whatever line each run gives.
    return mergeFiles(group, first.format === 'lcov' ? (m) => m.name : methodIdentity);
  });
  // Files partition the report: its counters are the sums over them.
  const ranges: CounterRanges = {};
  for (const kind of COUNTER_KINDS) {
    const fileRanges: Range[] = [];
    for (const f of files) {
      const c = f.counters[kind];
      if (c) fileRanges.push(rangeOf(c, f.bounds, kind));
    }
    if (fileRanges.length > 0) ranges[kind] = sumRanges(fileRanges);
  }
  const { counters, bounds } = toCounters(ranges);
  const merged: Coverage = { format: first.format, files, counters };
  const roots = [...new Set(reports.flatMap((r) => r.sourceRoots ?? []))].sort();
  if (roots.length > 0) merged.sourceRoots = roots;
  if (bounds) merged.bounds = bounds;
  return merged;
}

const sameCounter = (a: Counter | null, b: Counter | null) =>
  a !== null && b !== null && a.covered === b.covered && a.missed === b.missed;

/**
 * Every format but JaCoCo. Line and branch counters are recomputed from the merged lines (and
 * per-branch data where the format names branches) when each run's counter is derived from its
 * lines that way; any other counter is the union of the runs' figures: exact when one run covered
 * all or the others none, a range otherwise (statements of Istanbul, Go and Clover are not kept
 * per statement).
 */
function mergeFiles(files: readonly FileCoverage[], identity: (m: MethodCoverage) => string): FileCoverage {
  const first = files[0] as FileCoverage;
  const drafts = mergeLineDrafts(files);
  const branches = mergeBranches(files);
  if (branches) applyBranches(drafts, branches);
  const ranges = unionRanges(files);
  if (ranges.line && files.every((f) => sameCounter(f.counters.line, lineCounter(f.lines)))) {
    ranges.line = exact(drafts.filter((d) => d.hits > 0).length, drafts.length);
  }
  if (ranges.branch && branches && files.every((f) => sameCounter(f.counters.branch, branchesOf(f)))) {
    const covered = branches.filter((b) => b.hits > 0).length;
    ranges.branch = exact(covered, branches.length);
  } else if (ranges.branch && branches && missedAreListed(files)) {
    const total = totalOf(first.counters.branch as Counter);
    ranges.branch = exact(total - branches.filter((b) => b.hits === 0).length, total);
  } else if (ranges.branch && drafts.length > 0) {
    narrowPartition(
      ranges.branch,
      drafts.map((d) => d.branch),
    );
  }
  const classes = classDrafts(
    files.flatMap((f) => f.classes),
    identity,
  );
  for (const c of classes) mergeClassCounters(c, files, ranges);
  const methods = classes.flatMap((c) => c.methods);
  if (ranges.method && methods.length > 0 && methods.every((m) => m.ranges.method)) {
    const merged = methods.map((m) => m.ranges.method as Range);
    // Each run counting exactly its listed methods (LCOV FN/FNDA, Istanbul fnMap), the merged file
    // counts the merged ones: a function only one run lists is one more, as in `lcov -a`.
    if (files.every((f) => sameCounter(f.counters.method, listedMethods(f)))) ranges.method = sumRanges(merged);
    else narrowPartition(ranges.method, merged);
  }
  const { counters, bounds } = toCounters(ranges);
  const merged: FileCoverage = {
    path: first.path,
    language: first.language,
    lines: drafts.map(finishLine),
    classes: classes.map(finishClass),
    counters,
  };
  if (branches) merged.branches = branches;
  if (bounds) merged.bounds = bounds;
  return merged;
}

const totalOf = (c: Counter) => c.covered + c.missed;

/** The method counters of a file's classes' methods, added up. */
function listedMethods(file: FileCoverage): Counter {
  const sum = { covered: 0, missed: 0 };
  for (const c of file.classes) {
    for (const m of c.methods) {
      sum.covered += m.counters.method?.covered ?? 0;
      sum.missed += m.counters.method?.missed ?? 0;
    }
  }
  return sum;
}

/**
 * Each run counts the same branches and lists every one it missed, though it also lists taken
 * branches it does not count (coverage.py lists arcs its analysis did not predict, such as a
 * generator's self-arc, among the executed ones only): the merged missed are then the branches
 * no run took.
 */
function missedAreListed(files: readonly FileCoverage[]): boolean {
  const total = files[0]?.counters.branch;
  return files.every((f) => {
    const counter = f.counters.branch;
    if (!f.branches || !counter || !total || totalOf(counter) !== totalOf(total)) return false;
    return counter.missed === f.branches.filter((b) => b.hits === 0).length;
  });
}

function branchesOf(file: FileCoverage): Counter {
  if (!file.branches) return branchCounter(file.lines as LineCoverage[]);
  const covered = file.branches.filter((b) => b.hits > 0).length;
  return { covered, missed: file.branches.length - covered };
}

/**
 * A class standing for its whole file in every run (LCOV, Istanbul: one class per file carrying
 * the file's counters) takes the merged file's figures; a class's methods are the sum of its
 * merged methods; anything else stays the union of the runs' figures.
 */
function mergeClassCounters(c: ClassDraft, files: readonly FileCoverage[], fileRanges: CounterRanges): void {
  const wholeFile = c.runs.length === files.length && files.every((f) => f.classes.length === 1);
  for (const kind of COUNTER_KINDS) {
    const own = c.ranges[kind];
    if (!own) continue;
    const file = fileRanges[kind];
    const sameAsFile =
      wholeFile && files.every((f, i) => sameCounter(c.runs[i]?.counters[kind] ?? null, f.counters[kind]));
    if (kind === 'method' && c.methods.length > 0 && c.methods.every((m) => m.ranges.method)) {
      c.ranges.method = sumRanges(c.methods.map((m) => m.ranges.method as Range));
    } else if (file && sameAsFile) c.ranges[kind] = { ...file };
  }
}
