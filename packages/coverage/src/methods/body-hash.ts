import type { Node } from 'web-tree-sitter';
import { firstAtLeast } from '../model/sorted.ts';

export const COMMENT_TYPES = ['comment', 'line_comment', 'block_comment', 'multiline_comment'];

/** A comment's place in the source (UTF-16 indices, as web-tree-sitter's). */
export interface CommentRange {
  startIndex: number;
  endIndex: number;
}

/**
 * The source from `start` to `end` without the given comments (those inside the range count),
 * whitespace runs collapsed: reformatting or re-commenting a method keeps its hash, so
 * carried-forward coverage survives it.
 */
export function normalisedRange(source: string, start: number, end: number, comments: readonly CommentRange[]): string {
  let text = '';
  let at = start;
  for (let i = firstAtLeast(comments, start, (c) => c.startIndex); i < comments.length; i++) {
    const comment = comments[i] as CommentRange;
    if (comment.endIndex > end) break;
    if (comment.startIndex < at) continue;
    text += `${source.slice(at, comment.startIndex)} `;
    at = comment.endIndex;
  }
  text += source.slice(at, end);
  return text.replace(/\s+/g, ' ').trim();
}

/** `normalisedRange` of one node, its comments found under it. */
export function normalisedText(source: string, node: Node): string {
  const comments = node.descendantsOfType(COMMENT_TYPES).filter((c): c is Node => c !== null);
  return normalisedRange(source, node.startIndex, node.endIndex, comments);
}
