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

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** sha1 hex of the text (Web Crypto: present in Node 20 and browsers, so the core stays node-free). */
export async function sha1Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text)));
  let hex = '';
  for (const byte of digest) hex += HEX[byte];
  return hex;
}
