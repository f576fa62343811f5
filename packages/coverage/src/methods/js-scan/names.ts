// The names functions are bound to: assignment targets, fields, pairs; destructuring patterns.

import type { Scan } from './scan.ts';
import { type AssignTarget, KEYWORDS, L, type Level, OPERAND_WORDS, VALUE } from './syntax.ts';
import { Kind, P, Unsupported } from './tokens.ts';

/** Whether the `{` or `[` at token `open` starts a declaration's pattern or an element of one. */
export function opensPattern(s: Scan, open: number): boolean {
  const t = s.t;
  if (open === 0) return false;
  const before = open - 1;
  if (t.kind[before] === Kind.Word) {
    const w = t.text(before);
    return (w === 'const' || w === 'let' || w === 'var') && !s.isProperty(before);
  }
  const outer = s.top;
  const p = t.punct[before];
  // a parameter of a function: `function f({ a = () => 1 }, [b]) {}`
  if (outer.kind === L.paren && outer.paren === 'params') return p === P.ParenOpen || p === P.Comma || p === P.Spread;
  if (!outer.pattern) return false;
  if (outer.kind === L.object) return p === P.Colon && outer.phase === VALUE;
  return p === P.BracketOpen || p === P.Comma || p === P.Spread;
}

/** What a function after an `=` at this level is bound to (decided when the `=` is read). */
export function assignTarget(_s: Scan, top: Level): AssignTarget {
  switch (top.kind) {
    case L.paren:
      return top.paren === 'params' ? 'none' : 'assign';
    case L.bracket:
    case L.object:
      return top.pattern ? 'none' : 'unknown';
    default:
      return 'assign';
  }
}

/** A function's name that depends on what its `=` turns out to be (see `boundBefore`). */
export const UNDECIDED = '\u0000undecided';

/** The name a function starting at token `first` is bound to by the token before it (`=`, a pair's `:`). */
export function boundBefore(s: Scan, first: number): string | null {
  const k = first - 1;
  if (k < 0) return null;
  const punct = s.t.punct[k];
  if (punct === P.Colon) return s.pairKeys.get(k) ?? null;
  if (punct !== P.Assign) return null;
  const target = s.assignTargets.get(k);
  if (target === undefined || target === 'none') return null;
  // In `(` ... `)` that may turn out to be an arrow's parameters (then the name goes, see arrow())
  // or in an object or array that may be a literal or a pattern: decided later or handed over.
  if (target === 'unknown') return UNDECIDED;
  if (target !== 'assign') return target.field;
  const typed = s.typedBindings.get(k);
  if (typed !== undefined) {
    if (s.t.kind[typed] !== Kind.Word) throw new Unsupported('typed pattern');
    return s.t.text(typed);
  }
  const declared = declaredPattern(s, k);
  if (declared !== null) return declared;
  const text = assignmentTarget(s, k);
  return text.slice(text.lastIndexOf('.') + 1);
}

/** `const [a, b] =`, `let { c } =`: the pattern's text, which tree-sitter gives as the declarator's name. */
function declaredPattern(s: Scan, k: number): string | null {
  const t = s.t;
  const close = k - 1;
  if (t.punct[close] !== P.BracketClose && t.punct[close] !== P.BraceClose) return null;
  const open = s.opener[close];
  if (open === undefined || open < 1) return null;
  const keyword = open - 1;
  if (!(t.is(keyword, 'const') || t.is(keyword, 'let') || t.is(keyword, 'var')) || s.isProperty(keyword)) return null;
  return t.src.slice(t.start[open], t.end[close]);
}

/** The source text of the target of the `=` at token `k` (a name or a member chain). */
export function assignmentTarget(s: Scan, k: number): string {
  const t = s.t;
  let j = k - 1;
  let first: number;
  for (;;) {
    const punct = t.punct[j];
    if (t.kind[j] === Kind.Private || (t.kind[j] === Kind.Word && isOperandEnd(s, j))) {
      first = j;
      if (t.punct[j - 1] !== P.Dot) break;
      j -= 2;
    } else if ((punct === P.BracketClose || (punct === P.ParenClose && j !== k - 1)) && s.opener[j] !== undefined) {
      first = s.opener[j] as number;
      j = first - 1;
      if (punct === P.ParenClose && !isOperandEnd(s, j)) break; // `(a || b).c =`
    } else throw new Unsupported('assignment target');
    // what is indexed, called or dotted into must be an operand (else `[a] =` is a pattern)
    if (!isOperandEnd(s, j)) throw new Unsupported('assignment target');
  }
  const before = first - 1;
  if (before >= 0 && (t.punct[before] === P.OptionalChain || t.is(before, 'new')))
    throw new Unsupported('assignment target');
  return t.src.slice(t.start[first], t.end[k - 1]);
}

/** Whether token `j` ends an operand (a name, `this`, a property, `)` or `]`). */
export function isOperandEnd(s: Scan, j: number): boolean {
  const t = s.t;
  if (j < 0) return false;
  if (t.kind[j] === Kind.Word) {
    const w = t.text(j);
    return s.isProperty(j) || OPERAND_WORDS.has(w) || !KEYWORDS.has(w);
  }
  const punct = t.punct[j];
  return t.kind[j] === Kind.Private || punct === P.BracketClose || punct === P.ParenClose;
}
