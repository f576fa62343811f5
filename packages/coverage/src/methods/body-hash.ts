import type { Node } from 'web-tree-sitter';

const COMMENT_TYPES = ['comment', 'line_comment', 'block_comment', 'multiline_comment'];

/**
 * The node's source without comments, whitespace runs collapsed: reformatting or re-commenting a
 * method keeps its hash, so carried-forward coverage survives it.
 */
export function normalisedText(source: string, node: Node): string {
  let text = '';
  let at = node.startIndex;
  for (const comment of node.descendantsOfType(COMMENT_TYPES)) {
    if (!comment || comment.startIndex < at) continue;
    text += `${source.slice(at, comment.startIndex)} `;
    at = comment.endIndex;
  }
  text += source.slice(at, node.endIndex);
  return text.replace(/\s+/g, ' ').trim();
}
