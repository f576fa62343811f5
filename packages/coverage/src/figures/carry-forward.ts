import type { DiffHunk } from '../diff/unified.ts';
import type { Coverage, MethodCoverage } from '../model/coverage.ts';
import { lineColumns } from '../model/line-buffer.ts';
import type { DiffCoverage, RevisionChanges } from './diff-coverage.ts';

/**
 * Coverage carried across builds (issue 38, DESIGN §4.5): what a run on an older commit covered,
 * kept at the new commit only where the code did not change in between. Lines are mapped through
 * the diff; a method counts as unchanged when git shows no change inside it and none of its
 * lines was removed (the same test as a changed method of an incremental report).
 */
export interface CarriedFile {
  /** Repository path at the new commit. */
  path: string;
  /** New-commit line numbers the older run covered, ascending. */
  lines: number[];
  /** `name\0signature` of the methods the older run covered, unchanged since. */
  methods: Set<string>;
}

export interface CarriedCoverage {
  /** The older commit the coverage was collected on. */
  from: string;
  /** The commit it is carried to. */
  to: string;
  files: Map<string, CarriedFile>;
}

/** How a carried method is matched: file, then name and signature (JVM descriptor where known). */
export const carriedMethodKey = (m: { name: string; signature: string | null }) =>
  `${m.name}\u0000${m.signature ?? ''}`;

/**
 * Where an old-side line is at the new side of `git diff --unified=0` hunks (ascending), or null
 * when a hunk removed or rewrote it.
 */
export function lineAfterHunks(line: number, hunks: readonly DiffHunk[]): number | null {
  let shift = 0;
  for (const hunk of hunks) {
    // With no old lines, the hunk inserts after line `oldStart`.
    const firstOld = hunk.oldCount === 0 ? hunk.oldStart + 1 : hunk.oldStart;
    if (line < firstOld) break;
    if (line < hunk.oldStart + hunk.oldCount) return null;
    shift += hunk.newCount - hunk.oldCount;
  }
  return line + shift;
}

function methodCovered(method: MethodCoverage, coveredLines: (from: number, to: number) => boolean): boolean {
  const counter = method.counters.method ?? method.counters.line ?? method.counters.instruction;
  if (counter) return counter.covered > 0;
  return method.startLine !== null && coveredLines(method.startLine, method.endLine ?? method.startLine);
}

/**
 * The older run's coverage (`old`, paths at `changes.base`) carried to `changes.head`. Files
 * deleted since, and files whose methods could not be read, carry nothing; in a changed file no
 * line inside a changed or new method is carried, nor a method of the same name and signature.
 */
export function carryForward(old: Coverage, changes: RevisionChanges): CarriedCoverage {
  const changedByOldPath = new Map(changes.changed.map((file) => [file.oldPath ?? file.path, file]));
  const unparsed = new Set(changes.unparsedFiles ?? []);
  const changedMethodsOf = new Map<string, { startLine: number; endLine: number; key: string }[]>();
  for (const method of changes.changedMethods) {
    const list = changedMethodsOf.get(method.file) ?? [];
    list.push({ startLine: method.startLine, endLine: method.endLine, key: carriedMethodKey(method) });
    changedMethodsOf.set(method.file, list);
  }
  const files = new Map<string, CarriedFile>();
  for (const file of old.files) {
    const change = changedByOldPath.get(file.path);
    if (change && (change.status === 'deleted' || change.binary)) continue;
    const path = change?.path ?? file.path;
    if (unparsed.has(path)) continue;
    const changed = changedMethodsOf.get(path) ?? [];
    const changedKeys = new Set(changed.map((m) => m.key));
    const inChangedMethod = (line: number) => changed.some((m) => line >= m.startLine && line <= m.endLine);

    const columns = lineColumns(file);
    const covered: number[] = [];
    const oldCovered = new Set<number>();
    for (let i = 0; i < columns.length; i++) {
      if (columns.hits(i) <= 0) continue;
      oldCovered.add(columns.line(i));
      const line = change ? lineAfterHunks(columns.line(i), change.hunks) : columns.line(i);
      if (line !== null && !inChangedMethod(line)) covered.push(line);
    }
    const coveredLines = (from: number, to: number) => {
      for (let line = from; line <= to; line++) if (oldCovered.has(line)) return true;
      return false;
    };
    const methods = new Set<string>();
    for (const cls of file.classes) {
      for (const method of cls.methods) {
        const key = carriedMethodKey(method);
        if (!changedKeys.has(key) && methodCovered(method, coveredLines)) methods.add(key);
      }
    }
    if (covered.length > 0 || methods.size > 0) {
      files.set(path, { path, lines: covered.sort((a, b) => a - b), methods });
    }
  }
  return { from: changes.base, to: changes.head, files };
}

/** What carried coverage adds to a report; the fresh figures stay as they are beside it. */
export interface CarriedFigures {
  /** The report's line counter's covered with the carried lines added; null where it has none. */
  lineCovered: number | null;
  /** The report's method counter's covered with the carried methods added; null where it has none. */
  methodCovered: number | null;
  /** Changed coverable lines covered with the carried ones (incremental reports); else null. */
  diffLineCovered: number | null;
  /** Per file: coverable lines the fresh runs left uncovered that carried coverage covers, ascending. */
  lines: Map<string, number[]>;
  /** `path\0name\0signature` of methods the fresh runs left uncovered -> the commit that covered them. */
  methods: Map<string, string>;
  /** Per older commit, newest first, what it carried. */
  sources: { commit: string; lines: number; methods: number }[];
}

type FreshMethod = { path: string; method: MethodCoverage };

/**
 * Adds carried coverage (newest source first: a line or method is credited to the newest commit
 * that covered it) to the fresh coverage of a report. Only lines the fresh coverage knows as
 * coverable and leaves uncovered count, so the fresh figure plus the carried lines is never above
 * the total. Full report: over every file; incremental (`diff`, `changes`): over changed methods
 * and changed lines only, as the report's own figures.
 */
export function carriedFigures(
  fresh: Coverage,
  carried: readonly CarriedCoverage[],
  incremental: { diff: DiffCoverage; changes: RevisionChanges } | null,
): CarriedFigures {
  const lines = new Map<string, number[]>();
  const lineSource = new Map<string, string[]>();
  const freshMethods: FreshMethod[] = [];
  for (const file of fresh.files) {
    const columns = lineColumns(file);
    const uncovered = new Map<number, true>();
    const hit = new Set<number>();
    for (let i = 0; i < columns.length; i++) {
      if (columns.hits(i) > 0) hit.add(columns.line(i));
      else uncovered.set(columns.line(i), true);
    }
    const found: number[] = [];
    const from: string[] = [];
    for (const source of carried) {
      for (const line of source.files.get(file.path)?.lines ?? []) {
        if (uncovered.delete(line)) {
          found.push(line);
          from.push(source.from);
        }
      }
    }
    if (found.length > 0) {
      const order = found.map((_, i) => i).sort((a, b) => (found[a] as number) - (found[b] as number));
      lines.set(
        file.path,
        order.map((i) => found[i] as number),
      );
      lineSource.set(
        file.path,
        order.map((i) => from[i] as string),
      );
    }
    for (const cls of file.classes) {
      for (const method of cls.methods) {
        const coveredLines = (a: number, b: number) => {
          for (let line = a; line <= b; line++) if (hit.has(line)) return true;
          return false;
        };
        if (!methodCovered(method, coveredLines)) freshMethods.push({ path: file.path, method });
      }
    }
  }

  const methods = new Map<string, string>();
  for (const { path, method } of freshMethods) {
    const key = carriedMethodKey(method);
    const source = carried.find((c) => c.files.get(path)?.methods.has(key));
    if (source) methods.set(`${path}\u0000${key}`, source.from);
  }

  const countLines = (keep: (path: string, line: number) => boolean) => {
    let count = 0;
    for (const [path, found] of lines) for (const line of found) if (keep(path, line)) count++;
    return count;
  };
  const sources = carried.map((c) => ({
    commit: c.from,
    lines: [...lineSource.values()].reduce((n, from) => n + from.filter((f) => f === c.from).length, 0),
    methods: [...methods.values()].filter((f) => f === c.from).length,
  }));

  if (!incremental) {
    const line = fresh.counters.line;
    const method = fresh.counters.method;
    return {
      lineCovered: line ? line.covered + countLines(() => true) : null,
      methodCovered: method ? method.covered + methods.size : null,
      diffLineCovered: null,
      lines,
      methods,
      sources,
    };
  }

  const { diff, changes } = incremental;
  const ranges = new Map<string, { startLine: number; endLine: number }[]>();
  let carriedChangedMethods = 0;
  for (const m of diff.incremental.methods) {
    ranges.set(m.file, [...(ranges.get(m.file) ?? []), m]);
    if (!m.covered && methods.has(`${m.file}\u0000${carriedMethodKey(m)}`)) carriedChangedMethods++;
  }
  const changedLines = new Map(changes.changed.map((f) => [f.path, new Set(f.lines)]));
  const line = diff.incremental.totals.line;
  const method = diff.incremental.totals.method;
  return {
    lineCovered: line
      ? line.covered + countLines((path, n) => (ranges.get(path) ?? []).some((r) => n >= r.startLine && n <= r.endLine))
      : null,
    methodCovered: method ? method.covered + carriedChangedMethods : null,
    diffLineCovered: diff.lines.covered + countLines((path, n) => changedLines.get(path)?.has(n) ?? false),
    lines,
    methods,
    sources,
  };
}
