// TypeScript around the JavaScript: declarations without code, annotations, type arguments.

import { memberDone } from './members.ts';
import type { Scan } from './scan.ts';
import { AFTER, EXPR, type Fn, L, type Level, STMT, TYPE_DECLARATIONS } from './syntax.ts';
import { Kind, P, Unsupported } from './tokens.ts';
import { afterClose, closeOf, skipType } from './ts-types.ts';

/** TypeScript's words around types; true when the word was one of them and is dealt with. */
export function typeWord(s: Scan, i: number, w: string): boolean {
  const t = s.t;
  const previous = i > 0 && t.kind[i - 1] === Kind.Word && !s.isProperty(i - 1) ? t.text(i - 1) : '';
  const statement = s.ctx === STMT || (s.ctx === AFTER && t.newline[i]);
  if (statement && TYPE_DECLARATIONS.has(w)) return typeDeclaration(s, i, w);
  if (w === 'enum' && previous === 'const') return typeDeclaration(s, i, w);
  if (w === 'type' && previous === 'import') return true;
  if ((w === 'as' || w === 'satisfies') && s.ctx === AFTER && !t.newline[i]) {
    s.pendingToken = skipType(t);
    return true;
  }
  if (w === 'implements' && s.pendingClass?.level === s.levels.length) {
    let at: number;
    do at = skipType(t);
    while (t.punct[at] === P.Comma);
    s.pendingToken = at;
    s.ctx = AFTER;
    return true;
  }
  if (w === 'const' || w === 'let' || w === 'var') s.declaring = s.levels.length;
  return false;
}

/**
 * TypeScript: a function or method without a body (an overload, an abstract or declared one) is
 * a signature, not a method: forgotten. The token `i` after it goes on as usual.
 */
export function signatureOnly(s: Scan, i: number): void {
  const fn = s.pendingBody as Fn;
  s.pendingBody = null;
  const t = s.t;
  const ends = t.punct[i] === P.Semicolon || t.punct[i] === P.BraceClose || t.kind[i] === Kind.Eof || t.newline[i];
  if (!ends || s.fns[s.fns.length - 1] !== fn) throw new Unsupported('function without a body');
  s.fns.pop();
  s.openFns--;
  if (fn.kind === 'method') memberDone(s);
  else s.ctx = STMT;
}

/**
 * TypeScript's declarations without code at a statement's start: interfaces, type aliases and
 * enums are skipped, `declare` and `abstract` only qualify what follows, and a namespace's body
 * is a block. False when the word turns out to be a plain name.
 */
export function typeDeclaration(s: Scan, _i: number, w: string): boolean {
  const t = s.t;
  switch (w) {
    case 'abstract':
    case 'declare': {
      // a modifier when a word follows on its line (`declare const`, `abstract class`); else a name
      const after = t.next(false);
      s.pendingToken = after;
      s.ctx = t.kind[after] === Kind.Word && !t.newline[after] ? STMT : AFTER;
      return true;
    }
    case 'interface': {
      if (t.kind[t.next(false)] !== Kind.Word) throw new Unsupported('interface');
      let at = t.next(false);
      if (t.punct[at] === P.Less) at = afterClose(t, at);
      if (t.is(at, 'extends')) {
        do at = skipType(t);
        while (t.punct[at] === P.Comma);
      }
      if (t.punct[at] !== P.BraceOpen) throw new Unsupported('interface');
      closeOf(t, at);
      s.ctx = STMT;
      return true;
    }
    case 'enum': {
      if (t.kind[t.next(false)] !== Kind.Word) throw new Unsupported('enum');
      const open = t.next(false);
      if (t.punct[open] !== P.BraceOpen) throw new Unsupported('enum');
      const close = closeOf(t, open);
      // members' values are code: a function there is one tree-sitter lists
      for (let at = open; at < close; at++) {
        if (t.punct[at] === P.Arrow || t.is(at, 'function') || t.is(at, 'class'))
          throw new Unsupported('code in an enum');
      }
      s.declaring = -1;
      s.ctx = STMT;
      return true;
    }
    case 'type': {
      const name = t.next(false);
      if (t.kind[name] !== Kind.Word) {
        // `type` as a name, or `import type {`/`export type {`
        s.pendingToken = name;
        s.ctx = t.punct[name] === P.BraceOpen || t.punct[name] === P.Star ? EXPR : AFTER;
        return true;
      }
      let at = t.next(false);
      if (t.punct[at] === P.Less) at = afterClose(t, at);
      if (t.punct[at] !== P.Assign) throw new Unsupported('type alias');
      at = skipType(t);
      if (t.punct[at] !== P.Semicolon) s.pendingToken = at;
      s.ctx = STMT;
      return true;
    }
    case 'namespace':
    case 'module': {
      let at = t.next(false);
      if (t.kind[at] !== Kind.Word && t.kind[at] !== Kind.String) {
        s.pendingToken = at;
        s.ctx = AFTER;
        return true;
      }
      at = t.next(false);
      while (t.punct[at] === P.Dot) {
        if (t.kind[t.next(false)] !== Kind.Word) throw new Unsupported('namespace');
        at = t.next(false);
      }
      if (t.punct[at] !== P.BraceOpen) throw new Unsupported('namespace');
      s.push(L.block, at);
      s.ctx = STMT;
      return true;
    }
    default:
      return false;
  }
}

/** TypeScript: whether the `:` at token `i` starts an arrow function's return type (`(a): T =>`). */
export function returnTypeColon(s: Scan, i: number): boolean {
  return s.ts && s.t.punct[i - 1] === P.ParenClose && s.lastPlainParenClose === i - 1;
}

/**
 * TypeScript: whether the `:` at token `i`, after `(...)`, starts an arrow function's return type:
 * a type and `=>` follow (read ahead, then back). Inside a ternary's first branch the `:` could
 * also close the ternary (`c ? (a): T => a : b`); like TypeScript, the arrow wins when it parses,
 * and a ternary left open at the end of its level hands the file over.
 */
export function arrowAfterColon(s: Scan, i: number): boolean {
  if (!returnTypeColon(s, i)) return false;
  if (s.arrowColon.at === i) return s.arrowColon.arrow;
  const t = s.t;
  const mark = t.mark();
  let arrow = false;
  try {
    arrow = t.punct[skipType(t)] === P.Arrow;
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
  }
  t.reset(mark);
  s.arrowColon = { at: i, arrow };
  return arrow;
}

/** TypeScript: a `:` that starts a type (parameter, return, variable); true when skipped. */
export function typeAnnotation(s: Scan, i: number, top: Level): boolean {
  const t = s.t;
  if (returnTypeColon(s, i)) {
    // an arrow function's return type: `=>` must follow
    const after = skipType(t);
    if (t.punct[after] !== P.Arrow) throw new Unsupported('return type without an arrow');
    s.returnType = { paren: i - 1, last: after - 1 };
    s.pendingToken = after;
    s.ctx = AFTER;
    return true;
  }
  if (top.kind === L.paren || s.declaring === s.levels.length) {
    const after = skipType(t);
    // `let name: T = ...`: the `=` binds `name` (or `name!`)
    if (t.punct[after] === P.Assign) s.typedBindings.set(after, t.punct[i - 1] === P.Not ? i - 2 : i - 1);
    s.pendingToken = after;
    s.ctx = AFTER;
    return true;
  }
  return false;
}

/**
 * TypeScript's `<`: type parameters of a class, type arguments of a call (`f<T>(x)`, read
 * speculatively: else a less-than), a generic arrow's type parameters or a type assertion.
 */
export function angleBracket(s: Scan, i: number): void {
  const t = s.t;
  if (s.pendingClass?.level === s.levels.length) {
    s.pendingToken = afterClose(t, i);
    s.ctx = AFTER;
    return;
  }
  if (s.ctx === AFTER) {
    const mark = t.mark();
    try {
      const after = afterClose(t, i);
      const kind = t.kind[after];
      if (t.punct[after] === P.ParenOpen || kind === Kind.Template || kind === Kind.TemplateHead) {
        // `async <T>(x) =>`: the arrow starts at `async`
        if (t.punct[after] === P.ParenOpen && t.is(i - 1, 'async')) s.typeParameters.set(after, i);
        s.pendingToken = after;
        return;
      }
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
    }
    t.reset(mark);
    s.ctx = EXPR;
    return;
  }
  closeOf(t, i);
  const after = t.next(true);
  if (t.punct[after] === P.ParenOpen) s.typeParameters.set(after, i);
  s.pendingToken = after;
  s.ctx = EXPR;
}
