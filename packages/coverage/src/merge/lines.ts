import type { BranchCoverage, CounterBounds, FileCoverage, LineCoverage } from '../model/coverage.ts';
import type { Range } from './ranges.ts';

/** One merged line while its instruction and branch figures may still narrow. */
export type LineDraft = { line: number; hits: number; instruction: Range | null; branch: Range };

const addCapped = (a: number, b: number) => Math.min(Number.MAX_SAFE_INTEGER, a + b);

/**
 * Lines matched by number: hits add, so a line is covered when any run covered it (exact).
 * Branches and JaCoCo instructions of a line are the union of what each run covered: exact when
 * one run covered all, or all but one covered none; otherwise bounded (see ranges.ts). A k-way
 * walk over the runs' sorted lines, building nothing per line but the result: reports of
 * millions of lines merge without a map or a list per line.
 */
export function mergeLineDrafts(files: readonly FileCoverage[]): LineDraft[] {
  const runs = files.map((f) => (isSorted(f.lines) ? f.lines : [...f.lines].sort((a, b) => a.line - b.line)));
  const next = new Array<number>(runs.length).fill(0);
  const drafts: LineDraft[] = [];
  for (;;) {
    let line = Number.POSITIVE_INFINITY;
    for (let r = 0; r < runs.length; r++) {
      const l = (runs[r] as LineCoverage[])[next[r] as number];
      if (l && l.line < line) line = l.line;
    }
    if (line === Number.POSITIVE_INFINITY) return drafts;
    let hits = 0;
    let withInstructions = true;
    const instruction = { lo: 0, hi: 0, total: 0 };
    const branch = { lo: 0, hi: 0, total: 0 };
    for (let r = 0; r < runs.length; r++) {
      const run = runs[r] as LineCoverage[];
      // A run listing a line twice (not in the model's contract) adds both, like repeated DA records.
      for (let l = run[next[r] as number]; l && l.line === line; l = run[next[r] as number]) {
        next[r] = (next[r] as number) + 1;
        hits = addCapped(hits, l.hits);
        addUnion(branch, l.branchesCovered, l.branchesTotal, l.bounds?.branch?.coveredAtMost);
        if (l.instructionsCovered === null || l.instructionsMissed === null) withInstructions = false;
        else {
          const total = l.instructionsCovered + l.instructionsMissed;
          addUnion(instruction, l.instructionsCovered, total, l.bounds?.instruction?.coveredAtMost);
        }
      }
    }
    drafts.push({ line, hits, instruction: withInstructions ? capped(instruction) : null, branch: capped(branch) });
  }
}

function isSorted(lines: readonly LineCoverage[]): boolean {
  for (let i = 1; i < lines.length; i++)
    if ((lines[i] as LineCoverage).line < (lines[i - 1] as LineCoverage).line) return false;
  return true;
}

/** One run's figure into a union (see unionOf): lo the largest covered, hi the sum of upper bounds. */
function addUnion(range: Range, covered: number, total: number, atMost: number | undefined): void {
  range.total = Math.max(range.total, total);
  range.lo = Math.max(range.lo, covered);
  range.hi += Math.min(total, atMost ?? covered);
}

function capped(range: Range): Range {
  range.lo = Math.min(range.lo, range.total);
  range.hi = Math.min(range.hi, range.total);
  return range;
}

export function finishLine(draft: LineDraft): LineCoverage {
  let bounds: CounterBounds | undefined;
  const { instruction, branch } = draft;
  if (instruction && instruction.hi > instruction.lo) bounds = { instruction: { coveredAtMost: instruction.hi } };
  if (branch.hi > branch.lo) bounds = { ...bounds, branch: { coveredAtMost: branch.hi } };
  const line: LineCoverage = {
    line: draft.line,
    hits: draft.hits,
    branchesCovered: branch.lo,
    branchesTotal: branch.total,
    instructionsCovered: instruction ? instruction.lo : null,
    instructionsMissed: instruction ? instruction.total - instruction.lo : null,
  };
  if (bounds) line.bounds = bounds;
  return line;
}

/**
 * Branches with identities (LCOV BRDA), when every report has them: each branch's hits add, as
 * `lcov -a` does, so the merged branch figures are exact. Sorted by line, then identity.
 */
export function mergeBranches(files: readonly FileCoverage[]): BranchCoverage[] | null {
  if (!files.every((f) => f.branches)) return null;
  const byKey = new Map<string, BranchCoverage>();
  for (const file of files) {
    for (const b of file.branches ?? []) {
      const key = `${b.line}\u0000${b.id}`;
      const existing = byKey.get(key);
      if (existing) existing.hits = addCapped(existing.hits, b.hits);
      else byKey.set(key, { ...b });
    }
  }
  return [...byKey.values()].sort((a, b) => a.line - b.line || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Replaces each draft's branch range by the exact figures of the merged branches on its line. */
export function applyBranches(drafts: readonly LineDraft[], branches: readonly BranchCoverage[]): void {
  let d = 0;
  for (const draft of drafts) {
    draft.branch.lo = 0;
    draft.branch.hi = 0;
    draft.branch.total = 0;
  }
  for (const b of branches) {
    while (d < drafts.length && (drafts[d] as LineDraft).line < b.line) d++;
    const draft = drafts[d];
    if (!draft || draft.line !== b.line) continue;
    draft.branch.total++;
    if (b.hits > 0) {
      draft.branch.lo++;
      draft.branch.hi++;
    }
  }
}
