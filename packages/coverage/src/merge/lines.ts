import type { BranchCoverage, CounterBounds, FileCoverage, LineCoverage } from '../model/coverage.ts';
import { type Range, rangeOf, unionOf } from './ranges.ts';

/** One merged line while its instruction and branch figures may still narrow. */
export type LineDraft = { line: number; hits: number; instruction: Range | null; branch: Range };

const addCapped = (a: number, b: number) => Math.min(Number.MAX_SAFE_INTEGER, a + b);

/**
 * Lines matched by number: hits add, so a line is covered when any run covered it (exact).
 * Branches and JaCoCo instructions of a line are the union of what each run covered: exact when
 * one run covered all, or all but one covered none; otherwise bounded (see ranges.ts).
 */
export function mergeLineDrafts(files: readonly FileCoverage[]): LineDraft[] {
  const byLine = new Map<number, LineCoverage[]>();
  for (const file of files) {
    for (const line of file.lines) {
      const list = byLine.get(line.line);
      if (list) list.push(line);
      else byLine.set(line.line, [line]);
    }
  }
  const drafts: LineDraft[] = [];
  for (const [number, group] of byLine) {
    let hits = 0;
    for (const l of group) hits = addCapped(hits, l.hits);
    const withInstructions = group.every((l) => l.instructionsCovered !== null);
    drafts.push({
      line: number,
      hits,
      instruction: withInstructions ? unionOf(group.map(instructionRange)) : null,
      branch: unionOf(group.map(branchRange)) as Range,
    });
  }
  return drafts.sort((a, b) => a.line - b.line);
}

function instructionRange(l: LineCoverage): Range {
  const covered = l.instructionsCovered ?? 0;
  return rangeOf({ covered, missed: l.instructionsMissed ?? 0 }, l.bounds, 'instruction');
}

function branchRange(l: LineCoverage): Range {
  return rangeOf({ covered: l.branchesCovered, missed: l.branchesTotal - l.branchesCovered }, l.bounds, 'branch');
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
  const byLine = new Map<number, LineDraft>();
  for (const d of drafts) {
    byLine.set(d.line, d);
    d.branch = { lo: 0, hi: 0, total: 0 };
  }
  for (const b of branches) {
    const range = byLine.get(b.line)?.branch;
    if (!range) continue;
    range.total++;
    if (b.hits > 0) {
      range.lo++;
      range.hi++;
    }
  }
}
