import { CoverageError } from '../errors.ts';
import { branchCounter, counter, lineCounter, sumCounters } from '../formats/shared.ts';
import {
  type ClassCoverage,
  type Counter,
  type CounterKind,
  type Counters,
  type Coverage,
  emptyCounters,
  type FileCoverage,
  type LineCoverage,
  type MethodCoverage,
} from '../model/coverage.ts';

/**
 * Merges reports of the same code (shards, repeated runs, several agents). Exactly:
 * - files are matched by path; lines by number: hits add (capped at 2^53-1), so a line is
 *   covered when any run covered it;
 * - branches per line: total = the largest total any run reported, covered = the largest covered
 *   count any run reported, capped at that total (exact when one run covers a superset of the
 *   others' branches, an under-estimate otherwise: per-branch identity is not in the model);
 * - JaCoCo instructions per line: covered = max over runs, capped at the line's total
 *   (exact for a line covered entirely by one run; an under-estimate when runs covered
 *   different instructions of the same line);
 * - file line, branch and (JaCoCo) instruction counters are recomputed from the merged lines, so
 *   they are exact to the extent the line merge is;
 * - methods are matched by class, name, signature and start line; a method is covered when any
 *   run covered it; its other counters (and complexity) are those of the run with the most
 *   covered of that kind — an approximation, since the model keeps no per-instruction identity;
 * - class counters are the sums over the merged methods; a class is covered when a method is;
 *   file method/class counters are the sums over the merged classes.
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
  const files = paths.map((path) => mergeFiles(byPath.get(path) as FileCoverage[]));
  const counters = emptyCounters();
  for (const kind of Object.keys(counters) as CounterKind[])
    counters[kind] = sumCounters(files.map((f) => f.counters[kind]));
  const merged: Coverage = { format: first.format, files, counters };
  const roots = [...new Set(reports.flatMap((r) => r.sourceRoots ?? []))].sort();
  if (roots.length > 0) merged.sourceRoots = roots;
  return merged;
}

function mergeLine(into: LineCoverage, from: LineCoverage): LineCoverage {
  const branchesTotal = Math.max(into.branchesTotal, from.branchesTotal);
  const total =
    into.instructionsCovered === null || from.instructionsCovered === null
      ? null
      : Math.max(
          into.instructionsCovered + (into.instructionsMissed ?? 0),
          from.instructionsCovered + (from.instructionsMissed ?? 0),
        );
  const covered =
    total === null ? null : Math.min(total, Math.max(into.instructionsCovered ?? 0, from.instructionsCovered ?? 0));
  return {
    line: into.line,
    hits: Math.min(Number.MAX_SAFE_INTEGER, into.hits + from.hits),
    branchesTotal,
    branchesCovered: Math.min(branchesTotal, Math.max(into.branchesCovered, from.branchesCovered)),
    instructionsCovered: covered,
    instructionsMissed: total === null || covered === null ? null : total - covered,
  };
}

function mergeFiles(files: FileCoverage[]): FileCoverage {
  const first = files[0] as FileCoverage;
  if (files.length === 1) return first;
  const byLine = new Map<number, LineCoverage>();
  for (const file of files) {
    for (const line of file.lines) {
      const existing = byLine.get(line.line);
      byLine.set(line.line, existing ? mergeLine(existing, line) : { ...line });
    }
  }
  const lines = [...byLine.values()].sort((a, b) => a.line - b.line);
  const classes = mergeClasses(files.flatMap((f) => f.classes));
  const counters = mergeCountersBy(files.map((f) => f.counters));
  if (counters.line) counters.line = lineCounter(lines);
  if (counters.branch) counters.branch = branchCounter(lines);
  if (counters.instruction && lines.every((l) => l.instructionsCovered !== null) && lines.length > 0) {
    counters.instruction = instructionCounter(lines);
  }
  if (counters.method) counters.method = sumCounters(classes.map((c) => c.counters.method)) ?? counters.method;
  if (counters.class && classes.every((c) => c.counters.class))
    counters.class = sumCounters(classes.map((c) => c.counters.class));
  return { path: first.path, language: first.language, lines, classes, counters };
}

function instructionCounter(lines: readonly LineCoverage[]): Counter {
  let covered = 0;
  let missed = 0;
  for (const l of lines) {
    covered += l.instructionsCovered ?? 0;
    missed += l.instructionsMissed ?? 0;
  }
  return counter(covered, missed);
}

/** Per kind: the counter of the run with the most covered (null only when every run lacks it). */
function mergeCountersBy(list: readonly Counters[]): Counters {
  const result = emptyCounters();
  for (const kind of Object.keys(result) as CounterKind[]) {
    for (const c of list) {
      const value = c[kind];
      if (!value) continue;
      const best = result[kind];
      if (!best || value.covered > best.covered || (value.covered === best.covered && value.missed > best.missed)) {
        result[kind] = { ...value };
      }
    }
  }
  return result;
}

function mergeClasses(classes: readonly ClassCoverage[]): ClassCoverage[] {
  const byName = new Map<string, ClassCoverage[]>();
  for (const c of classes) {
    const list = byName.get(c.name);
    if (list) list.push(c);
    else byName.set(c.name, [c]);
  }
  return [...byName.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, group]) => {
      if (group.length === 1) return group[0] as ClassCoverage;
      const methods = mergeMethods(group.flatMap((c) => c.methods));
      const counters = mergeCountersBy(group.map((c) => c.counters));
      const methodsOf = (kind: CounterKind) => sumCounters(methods.map((m) => m.counters[kind]));
      for (const kind of ['instruction', 'branch', 'line', 'complexity', 'method'] as const) {
        if (counters[kind] && methods.length > 0 && methods.every((m) => m.counters[kind]))
          counters[kind] = methodsOf(kind);
      }
      if (counters.class && counters.method) {
        const hit = (counters.method.covered ?? 0) > 0;
        counters.class = counter(hit ? 1 : 0, hit ? 0 : 1);
      }
      return { name, methods, counters };
    });
}

function mergeMethods(methods: readonly MethodCoverage[]): MethodCoverage[] {
  const byKey = new Map<string, MethodCoverage[]>();
  for (const m of methods) {
    const key = `${m.name}\u0000${m.signature ?? ''}\u0000${m.startLine ?? ''}`;
    const list = byKey.get(key);
    if (list) list.push(m);
    else byKey.set(key, [m]);
  }
  const keys = [...byKey.keys()].sort();
  return keys.map((key) => {
    const group = byKey.get(key) as MethodCoverage[];
    const base = group[0] as MethodCoverage;
    if (group.length === 1) return base;
    const counters = mergeCountersBy(group.map((m) => m.counters));
    const anyCovered = group.some((m) => (m.counters.method?.covered ?? 0) > 0);
    if (counters.method) counters.method = counter(anyCovered ? 1 : 0, anyCovered ? 0 : 1);
    return { ...base, endLine: group.find((m) => m.endLine !== null)?.endLine ?? null, counters };
  });
}
