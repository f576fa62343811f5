// Words: keywords and what they do to the context; `function` and `class`.

import { boundBefore } from './names.ts';
import type { Scan } from './scan.ts';
import { AFTER, type Context, EXPR, Role, STMT, wordRole } from './syntax.ts';
import { Unsupported } from './tokens.ts';
import { typeWord } from './typescript.ts';

/** A word token outside member keys: a keyword, a TypeScript declaration word, or a name. */
export function word(s: Scan, i: number, exportDefault: boolean): void {
  const t = s.t;
  const pendingClass = s.pendingClass;
  if (pendingClass && !pendingClass.named && s.levels.length === pendingClass.level) {
    pendingClass.named = true;
    if (!t.is(i, 'extends') && !t.is(i, 'implements')) {
      s.classNames[s.classNames.length - 1] = t.text(i);
      s.ctx = AFTER;
      return;
    }
  }
  const role = wordRole(t, i);
  if (role === undefined) {
    s.ctx = AFTER;
    return;
  }
  if (s.ts && (role === Role.TypeScript || role === Role.Operator) && typeWord(s, i, t.text(i))) return;
  if (role === Role.TypeScript) {
    s.ctx = AFTER;
    return;
  }
  const w = t.text(i);
  switch (role) {
    case Role.Function:
      functionKeyword(s, i, exportDefault);
      return;
    case Role.Class:
      classKeyword(s, i, exportDefault);
      return;
    case Role.Control:
      s.pendingControl = true;
      s.ctx = EXPR;
      return;
    case Role.Statement:
      s.ctx = STMT;
      return;
    case Role.Default:
      if (t.is(i - 1, 'export')) s.exportDefault = true;
      s.ctx = EXPR;
      return;
    case Role.Operand:
      s.ctx = AFTER;
      return;
    case Role.Restricted:
      s.ctx = w === 'break' || w === 'continue' ? AFTER : EXPR;
      s.restricted = true;
      return;
    case Role.Contextual:
      s.ctx = AFTER;
      s.slashAmbiguous = true;
      return;
    default:
      // `for await (`: the paren stays a loop's
      if (!(w === 'await' && s.pendingControl)) s.ctx = EXPR;
  }
}

/** Whether a statement starts at token `i` seen in context `ctx` (ASI after a line break). */
export function statementAt(s: Scan, i: number, ctx: Context, exportDefault: boolean): boolean {
  if (exportDefault || ctx === STMT) return true;
  if (ctx === EXPR) return false;
  if (s.t.newline[i]) return true;
  throw new Unsupported('operand after operand');
}

/** `function` (or `async function`): a declaration at a statement's start, else an expression bound by what precedes it. */
export function functionKeyword(s: Scan, i: number, exportDefault: boolean): void {
  const t = s.t;
  let first = i;
  let ctx = s.ctx;
  if (i > 0 && !t.newline[i] && t.is(i - 1, 'async') && !s.isProperty(i - 1)) {
    first = i - 1;
    ctx = s.ctxBeforePrevious;
  }
  const declaration = statementAt(s, first, ctx, exportDefault);
  const fn = s.newFn(first, declaration ? 'declaration' : 'expression');
  if (!declaration) fn.bound = boundBefore(s, first);
  s.pendingFunction = fn;
  s.ctx = EXPR;
}

/** `class`: its name (if any) and heritage follow; its body opens the class level. */
export function classKeyword(s: Scan, i: number, exportDefault: boolean): void {
  if (s.pendingClass) throw new Unsupported('class in a class heritage');
  const declaration = statementAt(s, i, s.ctx, exportDefault);
  s.pendingClass = { level: s.levels.length, declaration, named: false };
  s.classNames.push('(anonymous)');
  s.ctx = AFTER;
}
