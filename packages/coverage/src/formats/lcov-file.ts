import { counter } from '../figures/counters.ts';
import {
  type BranchCoverage,
  type ClassCoverage,
  type Counters,
  emptyCounters,
  type FileCoverage,
  type MethodCoverage,
} from '../model/coverage.ts';
import { unboxed } from '../model/lazy-property.ts';
import { type LineArena, LineBuffer, withLazyLines } from '../model/line-buffer.ts';
import type { BranchIds } from './lcov-branch-ids.ts';
import { languageOf, MAX_COUNT } from './shared.ts';

export type LcovFunction = { startLine: number | null; endLine: number | null; hits: number };

/** A file's covered DA lines and its distinct (covered) BRDA branches, counted as its model is built. */
type Figures = { covered: number; branchesTotal: number; branchesCovered: number };

/** A finished SF record: its model, and what a later record for the same path needs besides. */
export type LcovDone = { file: FileCoverage; functionIndex: Map<string, string> | null };

const addCapped = (a: number, b: number): number => Math.min(MAX_COUNT, a + b);

/**
 * An SF record's data. DA and BRDA go into typed arrays (12 and 32 bytes a record, no object each).
 * One instance, reused, reads every record of a path seen for the first time, and the record
 * becomes its model file at its end_of_record: only the model stays, never the whole tracefile's
 * raw data beside it. A path that comes again gets an instance of its own, which starts from the
 * path's finished file (that adds up the same as the raw data would: hits and branch counts are
 * sums, a function's figure only asks whether any hit it) and goes on collecting the path's later
 * records, to become its file once, at the end: each record is read once however many there are.
 */
export class LcovRecord {
  path = '';
  private lineNumbers: Int32Array;
  private lineHits: Float64Array;
  private lineCount = 0;
  private linesAscending = true;
  /** BRDA: line, block and branch ids (see BranchIds), taken. */
  private branches: Float64Array;
  private branchCount = 0;
  functions = new Map<string, LcovFunction>();
  /** LCOV 2 FNL/FNA index → "start,end" of the function. */
  functionIndex = new Map<string, string>();
  /**
   * This record's FN names as bytes, end to end, and their functions, in FN order: c8 and
   * istanbul write the FNDA records in that order too, so each finds its function by one compare.
   */
  private fnNames: Uint8Array<ArrayBuffer>;
  private fnNameEnds: Int32Array;
  private fnEntries: LcovFunction[] = [];
  private fnHitsSeen = 0;

  /** capacity: DA and BRDA records before the arrays first grow (at least 16). */
  constructor(capacity: number) {
    this.lineNumbers = new Int32Array(capacity);
    this.lineHits = new Float64Array(capacity);
    this.branches = new Float64Array(capacity * 4);
    this.fnNames = new Uint8Array(capacity * 4);
    this.fnNameEnds = new Int32Array(capacity / 4);
  }

  /** Starts the record for path, from the file an earlier record for it made, if any. */
  begin(path: string, previous: LcovDone | undefined, ids: BranchIds): this {
    this.path = path;
    this.lineCount = 0;
    this.linesAscending = true;
    this.branchCount = 0;
    this.functions = new Map();
    this.functionIndex = previous?.functionIndex ?? new Map();
    this.fnEntries = [];
    this.fnHitsSeen = 0;
    if (previous) {
      const { lines, branches, classes } = previous.file;
      for (const l of lines) this.addLine(l.line, l.hits);
      for (const b of branches ?? []) {
        const [block, branch] = ids.pair(b.id);
        this.addBranch(b.line, block, branch, b.hits);
      }
      for (const m of classes[0]?.methods ?? []) {
        this.functions.set(m.name, {
          startLine: m.startLine,
          endLine: m.endLine,
          hits: m.counters.method?.covered ?? 0,
        });
      }
    }
    return this;
  }

  /** Goes on with the path's next record: only the FN order is the record's own. */
  resume(): this {
    this.fnEntries = [];
    this.fnHitsSeen = 0;
    return this;
  }

  addLine(line: number, hits: number): void {
    const n = this.lineCount;
    if (n === this.lineNumbers.length) {
      this.lineNumbers = grown(this.lineNumbers, new Int32Array(n * 2));
      this.lineHits = grown(this.lineHits, new Float64Array(n * 2));
    }
    if (n > 0 && line <= (this.lineNumbers[n - 1] as number)) this.linesAscending = false;
    this.lineNumbers[n] = line;
    this.lineHits[n] = hits;
    this.lineCount = n + 1;
  }

  /** Notes the bytes b[from, to) of an FN record's name, whose function is fn. */
  namedFunction(fn: LcovFunction, b: Uint8Array, from: number, to: number): void {
    const k = this.fnEntries.length;
    const start = k === 0 ? 0 : this.fnNameEnds[k - 1]!;
    const end = start + (to - from);
    if (end > this.fnNames.length) this.fnNames = grownBytes(this.fnNames, end);
    if (k === this.fnNameEnds.length) this.fnNameEnds = grown(this.fnNameEnds, new Int32Array(k * 2));
    const names = this.fnNames;
    for (let i = from; i < to; i++) names[start + i - from] = b[i]!;
    this.fnNameEnds[k] = end;
    this.fnEntries.push(fn);
  }

  /**
   * The next FNDA record's hits, when its name (b[from, to)) is that of the FN record in the same
   * place: true when added, false for the caller to look the name up.
   */
  hitsInFnOrder(b: Uint8Array, from: number, to: number, hits: number): boolean {
    const k = this.fnHitsSeen++;
    if (k >= this.fnEntries.length) return false;
    const start = k === 0 ? 0 : this.fnNameEnds[k - 1]!;
    if (this.fnNameEnds[k]! - start !== to - from) return false;
    const names = this.fnNames;
    for (let i = 0; i < to - from; i++) if (names[start + i] !== b[from + i]) return false;
    const fn = this.fnEntries[k]!;
    fn.hits = addCapped(fn.hits, hits);
    return true;
  }

  addBranch(line: number, block: number, branch: number, taken: number): void {
    const at = this.branchCount * 4;
    if (at === this.branches.length) this.branches = grown(this.branches, new Float64Array(at * 2));
    this.branches[at] = line;
    this.branches[at + 1] = block;
    this.branches[at + 2] = branch;
    this.branches[at + 3] = taken;
    this.branchCount++;
  }

  /** The record's model file (merged with the earlier records for its path). */
  finish(ids: BranchIds, arena: LineArena): LcovDone {
    const identified: BranchCoverage[] = [];
    const figures: Figures = { covered: 0, branchesTotal: 0, branchesCovered: 0 };
    const lines = new LineBuffer(arena);
    if (this.branchCount === 0 && this.linesAscending) this.plainLines(lines, figures);
    else this.mergedLines(lines, identified, figures, ids);
    const methods: MethodCoverage[] = [];
    for (const [name, fn] of this.functions) {
      const hit: 0 | 1 = fn.hits > 0 ? 1 : 0;
      methods.push({
        name,
        signature: null,
        startLine: fn.startLine,
        endLine: fn.endLine,
        counters: methodCounters(hit),
      });
    }
    const counters: Counters = emptyCounters();
    counters.line = counter(figures.covered, lines.length - figures.covered);
    // As `lcov --summary`: every BRDA counts in the file's branches, but only DA lines are lines.
    counters.branch = counter(figures.branchesCovered, figures.branchesTotal - figures.branchesCovered);
    let methodsCovered = 0;
    for (const m of methods) methodsCovered += m.counters.method?.covered ?? 0;
    counters.method = counter(methodsCovered, methods.length - methodsCovered);
    const classes: ClassCoverage[] =
      methods.length > 0 ? [{ name: this.path, methods, counters: { ...counters } }] : [];
    this.functions = new Map();
    this.fnEntries = [];
    // Each branch keeps its BRDA identity, so merging tracefiles adds per branch as `lcov -a` does.
    const file = withLazyLines(
      { path: this.path, language: languageOf(this.path), classes, counters, branches: identified },
      lines,
    );
    return { file, functionIndex: this.functionIndex.size > 0 ? this.functionIndex : null };
  }

  /** Ascending DA lines without a repeat and no BRDA: one line each, as read. */
  private plainLines(lines: LineBuffer, figures: Figures): void {
    const numbers = this.lineNumbers;
    const hitsOf = this.lineHits;
    let covered = 0;
    for (let i = 0; i < this.lineCount; i++) {
      const hits = hitsOf[i] as number;
      if (hits > 0) covered++;
      lines.push(numbers[i] as number, hits, 0, 0);
    }
    figures.covered = covered;
  }

  /**
   * DA lines (hits of a repeated line added) with the BRDA branches on them (a repeated branch
   * counted once); a branch on a line without DA (coverage.py's line 0) makes no line.
   */
  private mergedLines(lines: LineBuffer, identified: BranchCoverage[], figures: Figures, ids: BranchIds): void {
    if (!this.linesAscending) this.sortLines();
    const numbers = this.lineNumbers;
    const hitsOf = this.lineHits;
    const lineCount = this.lineCount;
    const branches = this.branches;
    const order = this.branchOrder();
    const lineOf = (b: number): number => (b < order.length ? branches[order[b]! * 4]! : Number.POSITIVE_INFINITY);
    let b = 0;
    let nextBranchLine = lineOf(0);
    for (let d = 0; d < lineCount; ) {
      const line = numbers[d]!;
      let hits = hitsOf[d]!;
      for (d++; d < lineCount && numbers[d] === line; d++) hits = addCapped(hits, hitsOf[d]!);
      if (hits > 0) figures.covered++;
      let branchesTotal = 0;
      let branchesCovered = 0;
      if (nextBranchLine <= line) {
        b = this.identify(order, b, line - 1, identified, figures, ids);
        const totalBefore = figures.branchesTotal;
        const coveredBefore = figures.branchesCovered;
        b = this.identify(order, b, line, identified, figures, ids);
        branchesTotal = figures.branchesTotal - totalBefore;
        branchesCovered = figures.branchesCovered - coveredBefore;
        nextBranchLine = lineOf(b);
      }
      lines.push(line, hits, branchesCovered, branchesTotal);
    }
    this.identify(order, b, Number.POSITIVE_INFINITY, identified, figures, ids);
  }

  /**
   * The branches from order[b] on up to lastLine, each distinct one (taken added) into identified
   * and the file's figures; returns where the next line's branches begin.
   */
  private identify(
    order: Int32Array,
    from: number,
    lastLine: number,
    identified: BranchCoverage[],
    figures: Figures,
    ids: BranchIds,
  ): number {
    const branches = this.branches;
    let b = from;
    while (b < order.length && branches[order[b]! * 4]! <= lastLine) {
      const at = order[b]! * 4;
      let taken = branches[at + 3]!;
      for (b++; b < order.length && sameBranch(branches, at, order[b]! * 4); b++) {
        taken = addCapped(taken, branches[order[b]! * 4 + 3]!);
      }
      figures.branchesTotal++;
      if (taken > 0) figures.branchesCovered++;
      const id = ids.text(branches[at + 1]!, branches[at + 2]!);
      identified.push({ line: unboxed(branches[at]!), id, hits: unboxed(taken) });
    }
    return b;
  }

  /** DA data in line order (stable: a repeated line's counts keep their order). */
  private sortLines(): void {
    const n = this.lineCount;
    const numbers = this.lineNumbers;
    const hitsOf = this.lineHits;
    const order = sortedIndexes(n, (a, b) => numbers[a]! - numbers[b]!);
    const sortedNumbers = new Int32Array(numbers.length);
    const sortedHits = new Float64Array(hitsOf.length);
    for (let i = 0; i < n; i++) {
      sortedNumbers[i] = numbers[order[i]!]!;
      sortedHits[i] = hitsOf[order[i]!]!;
    }
    this.lineNumbers = sortedNumbers;
    this.lineHits = sortedHits;
    this.linesAscending = true;
  }

  /** Branch indexes ordered by line, block, branch (insertion order when already so). */
  private branchOrder(): Int32Array {
    const n = this.branchCount;
    const branches = this.branches;
    const compare = (a: number, b: number): number => {
      const x = a * 4;
      const y = b * 4;
      return branches[x]! - branches[y]! || branches[x + 1]! - branches[y + 1]! || branches[x + 2]! - branches[y + 2]!;
    };
    let ordered = true;
    for (let i = 1; i < n && ordered; i++) if (compare(i - 1, i) > 0) ordered = false;
    if (!ordered) return sortedIndexes(n, compare);
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    return order;
  }
}

/** emptyCounters() with the method's figure, written out: spreading an object for each of many methods is slow. */
function methodCounters(hit: 0 | 1): Counters {
  const method = { covered: hit, missed: 1 - hit };
  return { instruction: null, branch: null, line: null, complexity: null, method, class: null };
}

function sameBranch(branches: Float64Array, x: number, y: number): boolean {
  return branches[x] === branches[y] && branches[x + 1] === branches[y + 1] && branches[x + 2] === branches[y + 2];
}

/** Stable: equal keys keep insertion order. */
function sortedIndexes(n: number, compare: (a: number, b: number) => number): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((a, b) => compare(a, b) || a - b);
}

function grownBytes(from: Uint8Array, needed: number): Uint8Array<ArrayBuffer> {
  let size = from.length * 2;
  while (size < needed) size *= 2;
  const to = new Uint8Array(size);
  to.set(from);
  return to;
}

function grown<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
