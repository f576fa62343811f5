import { type CommentRange, normalisedRange } from '../body-hash.ts';
import { sha1Hex } from '../sha1.ts';
import type { HashFilter, SourceMethod } from '../types.ts';
import { UNDECIDED } from './names.ts';
import type { Fn } from './syntax.ts';
import { Unsupported } from './tokens.ts';

/**
 * The methods of the functions a scan met, as `otherLanguageMethods` gives them: every named
 * function, and a nameless one only outside any other; 1-based lines; sorted by start line.
 */
export function methodsOf(
  fns: readonly Fn[],
  src: string,
  /** The file's comments, asked for only when a method is hashed. */
  comments: () => readonly CommentRange[],
  hashed: HashFilter,
): SourceMethod[] {
  const lineStarts = [0];
  for (let at = src.indexOf('\n'); at >= 0; at = src.indexOf('\n', at + 1)) lineStarts.push(at + 1);
  const lineOf = (index: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] as number) <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const methods: SourceMethod[] = [];
  let known: readonly CommentRange[] | null = null;
  for (const fn of fns) {
    if (fn.bound === UNDECIDED) throw new Unsupported('function in a pattern or literal');
    const name = fn.kind === 'declaration' || fn.kind === 'method' ? fn.own : (fn.bound ?? fn.own);
    if (name === null && fn.depth > 0) continue;
    const startLine = lineOf(fn.start);
    const endLine = lineOf(fn.end - 1);
    let bodyHash = '';
    if (hashed(startLine, endLine)) {
      known ??= comments();
      bodyHash = sha1Hex(normalisedRange(src, fn.start, fn.end, known));
    }
    methods.push({ class: fn.classes, name: name ?? '(anonymous)', signature: null, startLine, endLine, bodyHash });
  }
  return methods.sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
}
