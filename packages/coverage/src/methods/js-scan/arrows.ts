// Arrow functions: where they start, where a concise body ends (also by ASI), bound or not.

import { boundBefore } from './names.ts';
import type { Scan } from './scan.ts';
import { AFTER, EXPR, type Fn, KEYWORDS } from './syntax.ts';
import { Kind, P, Unsupported } from './tokens.ts';
import { arrowAfterColon, returnTypeColon } from './typescript.ts';

/** `=>`: the arrow starts at its parameters (or `async`, or TypeScript's type parameters). */
export function arrow(s: Scan, i: number): void {
  const t = s.t;
  const last = s.returnType.last === i - 1 ? s.returnType.paren : i - 1;
  let first: number;
  if (t.punct[last] === P.ParenClose) {
    first = s.opener[last] ?? -1;
    if (first < 0) throw new Unsupported('arrow');
    first = s.typeParameters.get(first) ?? first;
  } else if (t.kind[last] === Kind.Word && !KEYWORDS.has(t.text(last))) first = last;
  else throw new Unsupported('arrow');
  if (first > 0 && !t.newline[first] && t.is(first - 1, 'async')) {
    if (!s.isProperty(first - 1)) first--;
  }
  if (s.pendingClass) throw new Unsupported('arrow in a class heritage');
  // Functions already read inside the parameters (defaults) are inside this arrow; those directly
  // in a parameter are bound to no name there (patterns, not assignments).
  let inside = s.fns.length;
  while (inside > 0 && (s.fns[inside - 1] as Fn).startToken >= first) inside--;
  const fn = s.newFn(first, 'arrow');
  fn.bound = boundBefore(s, first);
  if (inside < s.fns.length - 1) {
    s.fns.pop();
    for (let n = inside; n < s.fns.length; n++) {
      const nested = s.fns[n] as Fn;
      if (nested.depth === fn.depth) nested.bound = null;
      nested.depth++;
    }
    s.fns.splice(inside, 0, fn);
  }
  s.arrowBody = fn;
  s.ctx = EXPR;
}

/** Whether token `i`, after a line break, cannot continue the expression before it (so ASI ends it). */
export function breaksExpression(s: Scan, i: number): boolean {
  const t = s.t;
  if (!t.newline[i]) return false;
  switch (t.kind[i]) {
    case Kind.Word: {
      const w = t.text(i);
      return w !== 'in' && w !== 'instanceof';
    }
    case Kind.Private:
    case Kind.Number:
    case Kind.String:
      return true;
    case Kind.Punct: {
      const p = t.punct[i];
      return p === P.BraceOpen || p === P.Increment || p === P.Not;
    }
    default:
      return false;
  }
}

/** Tokens that end any expression before them: `,` `;` `)` `]` `}` and the end of the file. */
export function isTerminator(s: Scan, i: number): boolean {
  const t = s.t;
  if (t.kind[i] === Kind.Eof) return true;
  const p = t.punct[i];
  return p === P.Comma || p === P.Semicolon || p === P.ParenClose || p === P.BracketClose || p === P.BraceClose;
}

/** After a bound function expression: unless its value ends there (`.call(...)`, `()`, an operator), it is bound to nothing. */
export function checkDirect(s: Scan, i: number): void {
  const fn = s.directCheck as Fn;
  s.directCheck = null;
  if (!(isTerminator(s, i) || s.t.punct[i] === P.Colon || breaksExpression(s, i))) fn.bound = null;
}

/** Ends the expression-bodied arrows that token `i` closes (at their own level: a terminator, a ternary's `:`, ASI). */
export function endConciseArrows(s: Scan, i: number): void {
  while (s.concise.length > 0) {
    const open = s.concise[s.concise.length - 1] as { fn: Fn; level: number; ternaries: number };
    const depth = s.levels.length;
    if (depth < open.level) throw new Unsupported('arrow body');
    if (depth > open.level) return;
    const ends =
      isTerminator(s, i) ||
      (s.t.punct[i] === P.Colon && s.top.ternaries === open.ternaries && closesTernary(s, i, open.ternaries)) ||
      (s.ctx === AFTER && breaksExpression(s, i));
    if (!ends) return;
    if (s.ctx !== AFTER) throw new Unsupported('arrow body');
    s.concise.pop();
    s.endFn(open.fn, i - 1);
  }
}

/**
 * Whether a `:` at the arrow's level ends it: it closes a ternary the arrow is in, unless it starts
 * the return type of an arrow inside the body.
 */
function closesTernary(s: Scan, i: number, ternaries: number): boolean {
  return ternaries === 0 ? !returnTypeColon(s, i) : !arrowAfterColon(s, i);
}
