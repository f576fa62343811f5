import type { HashFilter, SourceMethod } from '../types.ts';
import { arrow, breaksExpression, checkDirect, endConciseArrows } from './arrows.ts';
import { classMember, memberDone, objectMember } from './members.ts';
import { assignTarget, opensPattern } from './names.ts';
import { methodsOf } from './output.ts';
import {
  AFTER,
  type AssignTarget,
  type Context,
  EXPR,
  type Fn,
  KEY,
  L,
  type Level,
  type LevelKind,
  level,
  STMT,
} from './syntax.ts';
import { Kind, P, type Tokens, Unsupported } from './tokens.ts';
import { closeOf, skipType } from './ts-types.ts';
import { angleBracket, arrowAfterColon, signatureOnly, typeAnnotation } from './typescript.ts';
import { openTokens } from './wasm-tokens.ts';
import { word } from './words.ts';

/**
 * The methods tree-sitter's JavaScript (or, with `typescript`, TypeScript) grammar and
 * `otherLanguageMethods` find, by a single tokenizing pass: 3–6 times faster than parsing
 * (`bench/extract-methods.ts`). Null when the file holds anything it does not model exactly (JSX,
 * decorators, ambiguous slashes, syntax errors, ...): the caller then parses it with tree-sitter.
 */
export function scanScriptMethods(source: string, hashed: HashFilter, typescript = false): SourceMethod[] | null {
  const outcome = scanScript(source, hashed, typescript);
  return 'unsupported' in outcome ? null : outcome.methods;
}

/** The methods, or what the scanner met that it does not model (a message, position in the source). */
export function scanScript(
  source: string,
  hashed: HashFilter,
  typescript = false,
): { methods: SourceMethod[] } | { unsupported: string; at: number } {
  const scan = new Scan(source, typescript);
  try {
    return { methods: scan.run(hashed) };
  } catch (error) {
    if (error instanceof Unsupported) return { unsupported: error.message, at: scan.position() };
    throw error;
  }
}

/** One file's scan: its state, read by the functions of words.ts, arrows.ts, members.ts, names.ts and typescript.ts. */
export class Scan {
  readonly t: Tokens;
  ctx: Context = STMT;
  /** The context before the previous token (`async function` is judged where `async` stood). */
  ctxBeforePrevious: Context = STMT;
  /** The open nesting levels, the file's first. */
  readonly levels: Level[] = [level(L.top, -1)];
  /** Every function met, in the order they start. */
  readonly fns: Fn[] = [];
  /** Functions open around the current token. */
  openFns = 0;
  /** Names of the classes open around the current token (`(anonymous)` for a nameless one). */
  readonly classNames: string[] = [];
  /** For each closing `)`, `]` or `}` token: its opening token. */
  readonly opener: number[] = [];
  /** For each `=` token: what a function right after it is bound to. */
  readonly assignTargets = new Map<number, AssignTarget>();
  /** For each `:` of an object literal's pair: the key's text. */
  readonly pairKeys = new Map<number, string>();
  pendingFunction: Fn | null = null;
  pendingBody: Fn | null = null;
  pendingClass: { level: number; declaration: boolean; named: boolean } | null = null;
  pendingControl = false;
  arrowBody: Fn | null = null;
  directCheck: Fn | null = null;
  readonly concise: { fn: Fn; level: number; ternaries: number }[] = [];
  propertyNext = false;
  exportDefault = false;
  restricted = false;
  slashAmbiguous = false;
  /** A token already read (after a skipped type) that the loop takes next. */
  pendingToken = -1;
  /** TypeScript: a `?` in parentheses, a ternary's or an optional parameter's by what follows. */
  questionAt = -1;
  /** TypeScript: the level of a `let`/`const`/`var` whose names may carry types. */
  declaring = -1;
  /** TypeScript: the last `:` read ahead by `arrowAfterColon`, and whether an arrow followed it. */
  arrowColon = { at: -1, arrow: false };
  /** TypeScript: the `)` whose return type was just skipped, and that type's last token. */
  returnType = { paren: -1, last: -1 };
  /** TypeScript: `<T>(...)`: a generic arrow's parameters by their `(` token, its `<` token. */
  readonly typeParameters = new Map<number, number>();
  lastPlainParenClose = -1;
  /** TypeScript: the `=` after a typed variable or parameter, to the token naming it. */
  readonly typedBindings = new Map<number, number>();

  constructor(
    source: string,
    readonly ts: boolean,
  ) {
    this.t = openTokens(source);
  }

  /** Where the last token read starts. */
  position(): number {
    return this.t.count > 0 ? (this.t.start[this.t.count - 1] as number) : 0;
  }

  run(hashed: HashFilter): SourceMethod[] {
    const t = this.t;
    for (;;) {
      const i = this.pendingToken >= 0 ? this.pendingToken : t.next(this.ctx !== AFTER);
      this.pendingToken = -1;
      if (this.declaring >= 0 && t.newline[i] && this.ctx === AFTER && breaksExpression(this, i)) this.declaring = -1;
      if (this.restricted && t.newline[i]) this.ctx = STMT;
      this.restricted = false;
      if (this.concise.length > 0) endConciseArrows(this, i);
      if (this.directCheck) checkDirect(this, i);
      if (t.kind[i] === Kind.Eof) break;
      const before = this.ctx;
      this.token(i);
      this.ctxBeforePrevious = before;
    }
    if (this.levels.length !== 1 || this.pendingFunction || this.pendingBody || this.pendingClass || this.arrowBody)
      throw new Unsupported('unbalanced');
    return methodsOf(this.fns, this.t.src, () => this.t.comments(), hashed);
  }

  get top(): Level {
    return this.levels[this.levels.length - 1] as Level;
  }

  token(i: number): void {
    const t = this.t;
    const kind = t.kind[i] as Kind;
    const punct = t.punct[i] as P;
    const property = this.propertyNext;
    this.propertyNext = false;
    const exportDefault = this.exportDefault;
    this.exportDefault = false;
    if (this.slashAmbiguous && punct === P.Slash) throw new Unsupported('slash after a contextual word');
    this.slashAmbiguous = false;

    if (this.questionAt >= 0) {
      this.questionAt = -1;
      const optional = punct === P.Colon || punct === P.Comma || punct === P.ParenClose || punct === P.Assign;
      if (!optional) this.top.ternaries++;
    }
    if (this.pendingBody) {
      if (punct === P.BraceOpen) {
        this.push(L.body, i).fn = this.pendingBody;
        this.pendingBody = null;
        this.ctx = STMT;
        return;
      }
      if (!this.ts) throw new Unsupported('function without a body');
      if (punct === P.Colon) {
        this.pendingToken = skipType(t);
        return;
      }
      signatureOnly(this, i);
    }
    if (this.arrowBody) {
      const fn = this.arrowBody;
      this.arrowBody = null;
      if (punct === P.BraceOpen) {
        this.push(L.body, i).fn = fn;
        this.ctx = STMT;
        return;
      }
      this.concise.push({ fn, level: this.levels.length, ternaries: this.top.ternaries });
    }
    if (this.pendingFunction) {
      const fn = this.pendingFunction;
      if (punct === P.Star) return;
      if (kind === Kind.Word && fn.own === null) {
        fn.own = t.text(i);
        return;
      }
      if (this.ts && punct === P.Less) {
        closeOf(t, i);
        return;
      }
      if (punct !== P.ParenOpen) throw new Unsupported('function');
      this.pendingFunction = null;
      const params = this.push(L.paren, i);
      params.paren = 'params';
      params.fn = fn;
      this.ctx = EXPR;
      return;
    }
    const top = this.top;
    if (top.kind === L.object && objectMember(this, top, i, kind, punct)) return;
    if (top.kind === L.class && classMember(this, top, i, kind, punct)) return;

    switch (kind) {
      case Kind.Word:
        if (property) this.ctx = AFTER;
        else word(this, i, exportDefault);
        return;
      case Kind.Private:
      case Kind.Number:
      case Kind.String:
      case Kind.Template:
      case Kind.Regex:
        this.ctx = AFTER;
        return;
      case Kind.TemplateHead:
        this.push(L.template, i);
        this.ctx = EXPR;
        return;
    }
    this.punctuator(i, punct, exportDefault);
  }

  newFn(startToken: number, kind: Fn['kind']): Fn {
    const fn: Fn = {
      start: this.t.start[startToken] as number,
      startToken,
      end: -1,
      kind,
      own: null,
      bound: null,
      depth: this.openFns,
      classes: this.classNames.length > 0 ? this.classNames.join('.') : null,
    };
    this.fns.push(fn);
    this.openFns++;
    return fn;
  }

  endFn(fn: Fn, endToken: number): void {
    fn.end = this.t.end[endToken] as number;
    this.openFns--;
  }

  push(kind: LevelKind, open: number): Level {
    const created = level(kind, open);
    if (kind === L.object || kind === L.bracket) created.pattern = opensPattern(this, open);
    this.levels.push(created);
    return created;
  }

  pop(expected: LevelKind, close: number): Level {
    const closed = this.levels.pop() as Level;
    if (closed.kind !== expected || this.levels.length === 0) throw new Unsupported('unbalanced');
    if (closed.ternaries !== 0) throw new Unsupported('ternary without a colon');
    this.opener[close] = closed.open;
    return closed;
  }

  isProperty(i: number): boolean {
    const p = this.t.punct[i - 1];
    return i > 0 && (p === P.Dot || p === P.OptionalChain);
  }

  punctuator(i: number, punct: P, exportDefault: boolean): void {
    const t = this.t;
    const top = this.top;
    switch (punct) {
      case P.ParenOpen: {
        const paren = this.push(L.paren, i);
        if (this.pendingControl) paren.paren = 'control';
        this.pendingControl = false;
        this.ctx = EXPR;
        return;
      }
      case P.ParenClose: {
        const closed = this.pop(L.paren, i);
        if (closed.paren === 'plain') this.lastPlainParenClose = i;
        if (closed.paren === 'params') {
          this.pendingBody = closed.fn;
          this.ctx = EXPR;
        } else this.ctx = closed.paren === 'control' ? STMT : AFTER;
        return;
      }
      case P.BracketOpen:
        this.push(L.bracket, i);
        this.ctx = EXPR;
        return;
      case P.BracketClose: {
        const closed = this.pop(L.bracket, i);
        this.ctx = AFTER;
        if (closed.computedKey) {
          const member = this.top;
          member.keyStart = closed.open;
          member.keyEnd = i;
          member.phase = KEY;
        }
        return;
      }
      case P.BraceOpen:
        this.braceOpen(i, exportDefault);
        return;
      case P.BraceClose:
        this.braceClose(i);
        return;
      case P.Semicolon:
        if (top.ternaries !== 0) throw new Unsupported('ternary without a colon');
        this.ctx = STMT;
        if (this.declaring === this.levels.length) this.declaring = -1;
        return;
      case P.Question:
        if (this.ts && top.kind === L.paren) {
          this.questionAt = i;
          this.ctx = EXPR;
          return;
        }
        top.ternaries++;
        this.ctx = EXPR;
        return;
      case P.Colon:
        if (this.ts && (top.ternaries === 0 || arrowAfterColon(this, i)) && typeAnnotation(this, i, top)) return;
        if (top.ternaries > 0) {
          top.ternaries--;
          this.ctx = EXPR;
        } else if (top.kind === L.top || top.kind === L.block || top.kind === L.body) this.ctx = STMT;
        else throw new Unsupported('colon');
        return;
      case P.Arrow:
        arrow(this, i);
        return;
      case P.Assign:
        this.assignTargets.set(i, assignTarget(this, top));
        this.ctx = EXPR;
        return;
      case P.Dot:
      case P.OptionalChain:
        this.propertyNext = true;
        this.ctx = EXPR;
        return;
      case P.Increment:
        this.ctx = this.ctx === AFTER && !t.newline[i] ? AFTER : EXPR;
        return;
      case P.Less:
        if (this.ts) {
          angleBracket(this, i);
          return;
        }
        if (this.ctx !== AFTER) throw new Unsupported('JSX');
        this.ctx = EXPR;
        return;
      case P.Not:
        this.ctx = this.ts && this.ctx === AFTER && !t.newline[i] ? AFTER : EXPR; // TypeScript's `x!`
        return;
      case P.At:
        throw new Unsupported('decorator');
      default:
        this.ctx = EXPR;
    }
  }

  braceOpen(i: number, exportDefault: boolean): void {
    const t = this.t;
    const pendingClass = this.pendingClass;
    if (pendingClass && pendingClass.level === this.levels.length) {
      if (this.ctx !== AFTER) throw new Unsupported('class heritage');
      this.pendingClass = null;
      this.push(L.class, i).classDeclaration = pendingClass.declaration;
      this.ctx = EXPR;
      return;
    }
    let kind: LevelKind;
    if (this.pendingControl)
      kind = L.block; // catch without a binding
    else if (t.is(i - 1, 'export'))
      kind = L.object; // export { a as function }
    else if (this.ctx === STMT && !exportDefault) kind = L.block;
    else if (this.ctx === EXPR) kind = L.object;
    else if (this.ctx === AFTER && t.newline[i]) kind = L.block;
    else throw new Unsupported('brace after an operand');
    this.pendingControl = false;
    this.push(kind, i);
    this.ctx = kind === L.block ? STMT : EXPR;
  }

  braceClose(i: number): void {
    const top = this.top;
    switch (top.kind) {
      case L.template: {
        this.pop(L.template, i);
        const part = this.t.continueTemplate();
        if (this.t.kind[part] === Kind.TemplateHead) {
          this.push(L.template, part);
          this.ctx = EXPR;
        } else this.ctx = AFTER;
        return;
      }
      case L.block: {
        const closed = this.pop(L.block, i);
        this.ctx = STMT;
        if (closed.staticBlock) memberDone(this);
        return;
      }
      case L.body: {
        const fn = this.pop(L.body, i).fn as Fn;
        this.endFn(fn, i);
        if (fn.kind === 'declaration') this.ctx = STMT;
        else {
          this.ctx = AFTER;
          if (fn.kind === 'expression' && fn.bound !== null) this.directCheck = fn;
          if (fn.kind === 'method') memberDone(this);
        }
        return;
      }
      case L.object:
        this.pop(L.object, i);
        this.ctx = AFTER;
        return;
      case L.class: {
        const closed = this.pop(L.class, i);
        this.classNames.pop();
        this.ctx = closed.classDeclaration ? STMT : AFTER;
        return;
      }
      default:
        throw new Unsupported('unbalanced');
    }
  }
}
