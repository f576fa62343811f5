import type { Edit, Point, Tree } from 'web-tree-sitter';
import { methodsOfTree, parseMethods } from './extract.ts';
import { createParser } from './grammars.ts';
import { scanScriptMethods } from './js-scan/scan.ts';
import { languageOfPath } from './language.ts';
import { parseWithinBudget } from './parse-budget.ts';
import type { HashFilter, SourceMethod } from './types.ts';

/** A unified-diff hunk: base lines `oldStart`.. (`oldCount` of them) became head lines `newStart`... */
export interface LineHunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

export interface BaseRevision {
  source: string;
  /** The file's path at the base revision (differs after a rename). */
  path: string;
  /** The diff from this base to the head source, ascending. */
  hunks: readonly LineHunk[];
}

const HASH_NONE: HashFilter = () => false;

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** Index and point of a 0-based row's start; past the last line, the end of the text. */
function rowStart(starts: readonly number[], text: string, row: number): { index: number; point: Point } {
  if (row < starts.length) return { index: starts[row] as number, point: { row, column: 0 } };
  const last = starts.length - 1;
  return { index: text.length, point: { row: last, column: text.length - (starts[last] as number) } };
}

/**
 * The edits that turn the head text back into the base text, bottom hunk first so each edit's
 * position is still a head position. Indices and columns are UTF-16 units, as web-tree-sitter's.
 */
export function editsToBase(head: string, base: string, hunks: readonly LineHunk[]): Edit[] {
  const headStarts = lineStarts(head);
  const baseStarts = lineStarts(base);
  const edits: Edit[] = [];
  for (let i = hunks.length - 1; i >= 0; i--) {
    const hunk = hunks[i] as LineHunk;
    // With no lines on a side, the hunk's start names the line before the gap.
    const headRow = hunk.newCount > 0 ? hunk.newStart - 1 : hunk.newStart;
    const baseRow = hunk.oldCount > 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const start = rowStart(headStarts, head, headRow);
    const oldEnd = rowStart(headStarts, head, headRow + hunk.newCount);
    const from = rowStart(baseStarts, base, baseRow);
    const to = rowStart(baseStarts, base, baseRow + hunk.oldCount);
    const newEndPosition =
      to.point.row === from.point.row
        ? { row: start.point.row, column: start.point.column + to.point.column - from.point.column }
        : { row: start.point.row + to.point.row - from.point.row, column: to.point.column };
    edits.push({
      startIndex: start.index,
      oldEndIndex: oldEnd.index,
      newEndIndex: start.index + to.index - from.index,
      startPosition: start.point,
      oldEndPosition: oldEnd.point,
      newEndPosition,
    });
  }
  return edits;
}

/**
 * Methods of a changed file at head and, when `wantBase` says so for the head methods, at base.
 * The base is parsed incrementally from the head's tree edited back along the diff, which costs
 * a fraction of a second full parse; its methods carry no body hashes (only their names are used).
 */
export async function extractMethodsOfRevisions(
  path: string,
  head: string,
  base: BaseRevision | null,
  hashed: HashFilter,
  wantBase: (headMethods: readonly SourceMethod[]) => boolean,
): Promise<{ head: SourceMethod[]; base: SourceMethod[] }> {
  const language = languageOfPath(path);
  if (!language) return { head: [], base: [] };
  if (language === 'javascript' || language === 'typescript') {
    const typescript = language === 'typescript';
    const scanned = scanScriptMethods(head, hashed, typescript);
    if (scanned) {
      if (!base || !wantBase(scanned)) return { head: scanned, base: [] };
      const baseMethods =
        scanScriptMethods(base.source, HASH_NONE, typescript) ??
        (await parseMethods(language, base.source, base.path, HASH_NONE));
      return { head: scanned, base: baseMethods };
    }
  }
  const parser = await createParser(language);
  let headTree: Tree | null = null;
  let baseTree: Tree | null = null;
  try {
    headTree = parseWithinBudget(parser, head);
    const headMethods = methodsOfTree(language, headTree, head, path, hashed);
    if (!base || !wantBase(headMethods)) return { head: headMethods, base: [] };
    const edited = headTree.copy();
    for (const edit of editsToBase(head, base.source, base.hunks)) edited.edit(edit);
    try {
      baseTree = parseWithinBudget(parser, base.source, edited);
    } finally {
      edited.delete();
    }
    const baseMethods = methodsOfTree(language, baseTree, base.source, base.path, HASH_NONE);
    return { head: headMethods, base: baseMethods };
  } finally {
    headTree?.delete();
    baseTree?.delete();
    parser.delete();
  }
}
