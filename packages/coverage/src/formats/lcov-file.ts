import {
  type BranchCoverage,
  type ClassCoverage,
  type Counters,
  emptyCounters,
  type FileCoverage,
  type LineCoverage,
  type MethodCoverage,
} from '../model/coverage.ts';
import { counter, languageOf, lineCounter, MAX_COUNT, sumCounters } from './shared.ts';

export type LcovFunction = { startLine: number | null; endLine: number | null; hits: number };

const addCapped = (a: number, b: number): number => Math.min(MAX_COUNT, a + b);

/**
 * One SF record while the tracefile is read: DA and BRDA data in typed arrays that double as
 * they fill (12 and 28 bytes per record instead of an object each), turned into the model's
 * line objects once, at the end. Repeated SF blocks for the same path add into the same store.
 */
export class LcovFile {
  private lineNumbers = new Int32Array(16);
  private lineHits = new Float64Array(16);
  private lineCount = 0;
  private linesAscending = true;
  /** BRDA: line, block and branch ids (numbers, or -1 - index of a non-numeric id's text), taken. */
  private branches = new Float64Array(16);
  private branchCount = 0;
  readonly functions = new Map<string, LcovFunction>();
  /** LCOV 2 FNL/FNA index → "start,end" of the function. */
  readonly functionIndex = new Map<string, string>();

  constructor(readonly path: string) {}

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

  addBranch(line: number, block: number, branch: number, taken: number): void {
    const at = this.branchCount * 4;
    if (at === this.branches.length) this.branches = grown(this.branches, new Float64Array(at * 2));
    this.branches[at] = line;
    this.branches[at + 1] = block;
    this.branches[at + 2] = branch;
    this.branches[at + 3] = taken;
    this.branchCount++;
  }

  /** Every distinct BRDA, including those on a line without DA (counted in the file, in no line). */
  private branchesTotal = 0;
  private branchesCovered = 0;

  /** The model's file; the typed arrays are released. */
  toFile(branchId: (block: number, branch: number) => string): FileCoverage {
    const branches: BranchCoverage[] = [];
    const lines = this.mergedLines(branches, branchId);
    const methods: MethodCoverage[] = [...this.functions].map(([name, fn]) => ({
      name,
      signature: null,
      startLine: fn.startLine,
      endLine: fn.endLine,
      counters: { ...emptyCounters(), method: counter(fn.hits > 0 ? 1 : 0, fn.hits > 0 ? 0 : 1) },
    }));
    const classes: ClassCoverage[] =
      methods.length > 0 ? [{ name: this.path, methods, counters: emptyCounters() }] : [];
    const counters: Counters = emptyCounters();
    counters.line = lineCounter(lines);
    // As `lcov --summary`: every BRDA counts in the file's branches, but only DA lines are lines.
    counters.branch = counter(this.branchesCovered, this.branchesTotal - this.branchesCovered);
    counters.method = sumCounters(methods.map((m) => m.counters.method)) ?? counter(0, 0);
    if (classes[0]) classes[0].counters = { ...counters };
    // Each branch keeps its BRDA identity, so merging tracefiles adds per branch as `lcov -a` does.
    return { path: this.path, language: languageOf(this.path), lines, classes, counters, branches };
  }

  /**
   * DA lines (hits of a repeated line added) with the BRDA branches on them (a repeated branch
   * counted once); a branch on a line without DA (coverage.py's line 0) makes no line.
   */
  private mergedLines(
    identified: BranchCoverage[],
    branchId: (block: number, branch: number) => string,
  ): LineCoverage[] {
    const daOrder = this.linesAscending
      ? null
      : sortedIndexes(this.lineCount, (a, b) => this.lineAt(a) - this.lineAt(b));
    const branchOrder = this.branchOrder();
    const lines: LineCoverage[] = [];
    let d = 0;
    let b = 0;
    const branches = this.branches;
    while (d < this.lineCount || b < branchOrder.length) {
      const daIndex = daOrder ? (daOrder[d] as number) : d;
      const daLine = d < this.lineCount ? this.lineAt(daIndex) : Number.POSITIVE_INFINITY;
      const branchLine =
        b < branchOrder.length ? (branches[(branchOrder[b] as number) * 4] as number) : Number.POSITIVE_INFINITY;
      const line = Math.min(daLine, branchLine);
      let hits = 0;
      while (d < this.lineCount && this.lineAt(daOrder ? (daOrder[d] as number) : d) === line) {
        hits = addCapped(hits, this.lineHits[daOrder ? (daOrder[d] as number) : d] as number);
        d++;
      }
      let total = 0;
      let covered = 0;
      while (b < branchOrder.length && branches[(branchOrder[b] as number) * 4] === line) {
        const at = (branchOrder[b] as number) * 4;
        let taken = branches[at + 3] as number;
        b++;
        while (b < branchOrder.length && sameBranch(branches, at, (branchOrder[b] as number) * 4)) {
          taken = addCapped(taken, branches[(branchOrder[b] as number) * 4 + 3] as number);
          b++;
        }
        total++;
        if (taken > 0) covered++;
        identified.push({ line, id: branchId(branches[at + 1] as number, branches[at + 2] as number), hits: taken });
      }
      this.branchesTotal += total;
      this.branchesCovered += covered;
      if (daLine !== line) continue;
      lines.push({
        line,
        hits,
        branchesCovered: covered,
        branchesTotal: total,
        instructionsCovered: null,
        instructionsMissed: null,
      });
    }
    this.lineNumbers = new Int32Array(0);
    this.lineHits = new Float64Array(0);
    this.branches = new Float64Array(0);
    return lines;
  }

  private lineAt(index: number): number {
    return this.lineNumbers[index] as number;
  }

  /** Branch indexes ordered by line, block, branch (insertion order when already so). */
  private branchOrder(): Int32Array {
    const n = this.branchCount;
    const branches = this.branches;
    const compare = (a: number, b: number): number => {
      const x = a * 4;
      const y = b * 4;
      return (
        (branches[x] as number) - (branches[y] as number) ||
        (branches[x + 1] as number) - (branches[y + 1] as number) ||
        (branches[x + 2] as number) - (branches[y + 2] as number)
      );
    };
    let ordered = true;
    for (let i = 1; i < n && ordered; i++) if (compare(i - 1, i) > 0) ordered = false;
    if (!ordered) return sortedIndexes(n, compare);
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    return order;
  }
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

function grown<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
