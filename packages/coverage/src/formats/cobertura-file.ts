import { branchCounter, counter, lineCounter } from '../figures/counters.ts';
import {
  type ClassCoverage,
  type Counter,
  emptyCounters,
  type FileCoverage,
  type LineCoverage,
} from '../model/coverage.ts';
import { type LineArena, LineBuffer, withLazyLines } from '../model/line-buffer.ts';
import type { MethodTable } from '../model/method-table.ts';
import { languageOf, newLine } from './shared.ts';

/** Bound once: under a CommonJS transform (tsx) each use of an imported name is a getter call. */
const makeLine = newLine;

/**
 * A file's lines in the order read, packed until a line arrives out of order or again (several
 * classes of one file; tools write each class's lines ascending), then as objects with an index
 * by number.
 */
export type FileState = {
  path: string;
  packed: LineBuffer;
  lines: LineCoverage[] | null;
  byNumber: Map<number, LineCoverage> | null;
  classes: ClassCoverage[];
  /** Where each class's rows of the method table begin and end, two numbers per class. */
  methodRows: number[];
  /** Tallies of the lines while they arrive in order (no index): the counters without a pass at the end. */
  hitLines: number;
  branchesCovered: number;
  branchesTotal: number;
};

export function newFileState(path: string, arena: LineArena): FileState {
  return {
    path,
    packed: new LineBuffer(arena),
    lines: null,
    byNumber: null,
    classes: [],
    methodRows: [],
    hitLines: 0,
    branchesCovered: 0,
    branchesTotal: 0,
  };
}

/**
 * A line of one of the file's classes. One listed again (by another class of the file) counts
 * once, with the highest hits and the most branches.
 */
export function addFileLine(state: FileState, line: number, hits: number, covered: number, total: number): void {
  if (state.byNumber === null) {
    const packed = state.packed;
    if (line > packed.lastLine()) {
      packed.push(line, hits, covered, total);
      if (hits > 0) state.hitLines++;
      state.branchesCovered += covered;
      state.branchesTotal += total;
      return;
    }
    state.lines = packed.lines();
    state.byNumber = new Map(state.lines.map((l) => [l.line, l]));
  }
  const existing = state.byNumber.get(line);
  if (existing) {
    existing.hits = Math.max(existing.hits, hits);
    if (total > existing.branchesTotal || (total === existing.branchesTotal && covered > existing.branchesCovered)) {
      existing.branchesTotal = total;
      existing.branchesCovered = covered;
    }
    return;
  }
  const entry = makeLine(line, hits);
  entry.branchesCovered = covered;
  entry.branchesTotal = total;
  (state.lines as LineCoverage[]).push(entry);
  state.byNumber.set(line, entry);
}

/** The file read: its line and branch counters, and (when the report lists methods) its classes' method counters. */
export function finishFile(state: FileState, methods: MethodTable | null): FileCoverage {
  const lines = state.lines?.sort((a, b) => a.line - b.line) ?? null;
  const counters = emptyCounters();
  if (lines === null) {
    counters.line = counter(state.hitLines, state.packed.length - state.hitLines);
    counters.branch = counter(state.branchesCovered, state.branchesTotal - state.branchesCovered);
  } else {
    counters.line = lineCounter(lines);
    counters.branch = branchCounter(lines);
  }
  if (methods !== null) counters.method = methodCounters(state, methods);
  const path = state.path;
  const language = languageOf(path);
  const classes = state.classes;
  return lines === null
    ? withLazyLines({ path, language, classes, counters }, state.packed)
    : { path, language, lines, classes, counters };
}

/** Each class's method counter (covered when any of its lines ran), and the file's sum of them. */
function methodCounters(state: FileState, methods: MethodTable): Counter {
  let covered = 0;
  let all = 0;
  state.classes.forEach((c, i) => {
    const first = state.methodRows[i * 2] as number;
    const end = state.methodRows[i * 2 + 1] as number;
    const ran = methods.covered(first, end);
    c.counters.method = counter(ran, end - first - ran);
    covered += ran;
    all += end - first;
  });
  return counter(covered, all - covered);
}
