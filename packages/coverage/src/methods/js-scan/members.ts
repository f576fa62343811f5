// Object literal and class body members: keys and modifiers, methods, fields.

import { breaksExpression } from './arrows.ts';
import type { Scan } from './scan.ts';
import { AFTER, EXPR, KEY, L, type Level, MODIFIERS, START, STMT, TYPED, VALUE } from './syntax.ts';
import { Kind, P, Unsupported } from './tokens.ts';
import { closeOf, skipType } from './ts-types.ts';

/** A method or static block ended: the object literal or class body around it takes the next member. */
export function memberDone(s: Scan): void {
  const top = s.top;
  if (top.kind === L.class) {
    top.phase = START;
    top.memberStart = -1;
  } else if (top.kind === L.object) top.phase = VALUE;
}

/** Tokens at an object literal's own level: keys, methods, values. True when consumed. */
export function objectMember(s: Scan, top: Level, i: number, kind: Kind, punct: P): boolean {
  const t = s.t;
  if (top.phase === VALUE) {
    if (punct !== P.Comma) return false;
    top.phase = START;
    top.memberStart = -1;
    s.ctx = EXPR;
    return true;
  }
  if (punct === P.BraceClose) return false;
  if (top.phase === KEY) {
    if (punct === P.ParenOpen) return methodParams(s, top, i);
    if (s.ts && punct === P.Less) {
      closeOf(t, i);
      return true;
    }
    if (punct === P.Colon) {
      s.pairKeys.set(i, t.src.slice(t.start[top.keyStart], t.end[top.keyEnd]));
      top.phase = VALUE;
      s.ctx = EXPR;
      return true;
    }
    if (punct === P.Comma) {
      top.phase = START;
      top.memberStart = -1;
      s.ctx = EXPR;
      return true;
    }
    if (punct === P.Assign) {
      s.assignTargets.set(i, 'none');
      top.phase = VALUE;
      s.ctx = EXPR;
      return true;
    }
    if (t.newline[i]) throw new Unsupported('line break in a member');
  }
  return memberKey(s, top, i, kind, punct);
}

/** Tokens at a class body's own level. True when consumed. */
export function classMember(s: Scan, top: Level, i: number, kind: Kind, punct: P): boolean {
  const t = s.t;
  if (top.phase === TYPED) {
    if (punct === P.BraceClose) return false;
    if (punct === P.Assign || punct === P.Semicolon) top.phase = KEY;
    else if (t.newline[i]) {
      top.phase = START;
      top.memberStart = -1;
    } else throw new Unsupported('after a field type');
  }
  if (top.phase === VALUE) {
    if (punct === P.Semicolon) {
      top.phase = START;
      top.memberStart = -1;
      s.ctx = EXPR;
      return true;
    }
    if (punct === P.BraceClose) return false;
    if (!(s.ctx === AFTER && breaksExpression(s, i))) return false;
    // a line break ends the field's initialiser (ASI): the token starts the next member
    top.phase = START;
    top.memberStart = -1;
  }
  if (punct === P.BraceClose) return false;
  if (punct === P.Semicolon) {
    top.phase = START;
    top.memberStart = -1;
    return true;
  }
  if (top.phase === KEY) {
    if (punct === P.ParenOpen) return methodParams(s, top, i);
    if (s.ts && typedMember(s, top, i, punct)) return true;
    if (punct === P.Assign) {
      s.assignTargets.set(i, { field: t.src.slice(t.start[top.keyStart], t.end[top.keyEnd]) });
      top.phase = VALUE;
      s.ctx = EXPR;
      return true;
    }
    if (punct === P.BraceOpen && top.keyStart === top.memberStart && t.is(top.keyStart, 'static')) {
      s.push(L.block, i).staticBlock = true;
      s.ctx = STMT;
      return true;
    }
    if (t.newline[i]) {
      // after a field without an initialiser, ASI starts the next member; after a modifier it may not
      const single = top.keyStart === top.keyEnd && top.keyStart === top.memberStart;
      if (!single || (kind !== Kind.Word && kind !== Kind.Private && kind !== Kind.String && kind !== Kind.Number))
        throw new Unsupported('line break in a member');
      if (t.kind[top.keyStart] === Kind.Word && MODIFIERS.has(t.text(top.keyStart)))
        throw new Unsupported('line break after a modifier');
      top.memberStart = -1;
    }
  }
  return memberKey(s, top, i, kind, punct);
}

/** TypeScript in a class member after its key: `?`, `!`, type parameters, a field's type. */
export function typedMember(s: Scan, top: Level, i: number, punct: P): boolean {
  const t = s.t;
  if (punct === P.Question || punct === P.Not) return true;
  if (punct === P.Less) {
    closeOf(t, i);
    return true;
  }
  if (punct !== P.Colon) return false;
  s.pendingToken = skipType(t);
  top.phase = TYPED;
  s.ctx = AFTER;
  return true;
}

/** A key or modifier word (`static`, `async`, `get`, `set`, `*`): the last one before `(`, `:` or `=` is the key. */
export function memberKey(s: Scan, top: Level, i: number, kind: Kind, punct: P): boolean {
  if (kind === Kind.Word || kind === Kind.String || kind === Kind.Number || kind === Kind.Private) {
    if (top.memberStart < 0) top.memberStart = i;
    top.keyStart = i;
    top.keyEnd = i;
    top.phase = KEY;
    s.ctx = AFTER;
    return true;
  }
  if (punct === P.BracketOpen) {
    if (top.memberStart < 0) top.memberStart = i;
    s.push(L.bracket, i).computedKey = true;
    s.ctx = EXPR;
    return true;
  }
  if (punct === P.Star) {
    if (top.memberStart < 0) top.memberStart = i;
    top.phase = START;
    return true;
  }
  if (punct === P.Spread && top.kind === L.object && top.phase === START) {
    top.phase = VALUE;
    s.ctx = EXPR;
    return true;
  }
  throw new Unsupported('member');
}

/** `(` after a member key: a method starting at its first modifier, named by the key. */
export function methodParams(s: Scan, top: Level, i: number): boolean {
  const t = s.t;
  const fn = s.newFn(top.memberStart, 'method');
  fn.own = t.src.slice(t.start[top.keyStart], t.end[top.keyEnd]);
  top.phase = VALUE;
  const params = s.push(L.paren, i);
  params.paren = 'params';
  params.fn = fn;
  s.ctx = EXPR;
  return true;
}
