import { Kind, P, type Tokens, Unsupported } from './tokens.ts';

/**
 * TypeScript's type syntax, skipped token by token: a type holds no code, so no method. Each
 * function reads from the token after the one it is given and returns the first token past
 * what it skipped (already read), which the caller goes on with.
 */

const next = (t: Tokens) => t.next(false);

const isOp = (t: Tokens, i: number, text: string) => t.punct[i] === P.Op && t.text(i) === text;

/** A whole type (unions, intersections, arrays, indexed access, conditional types, predicates). */
export function skipType(t: Tokens, from: number = next(t)): number {
  let i = typeOperand(t, from);
  for (;;) {
    const punct = t.punct[i];
    if (isOp(t, i, '|') || isOp(t, i, '&')) i = typeOperand(t, next(t));
    else if (punct === P.BracketOpen && !t.newline[i]) i = afterClose(t, i);
    else if (punct === P.Dot) {
      if (t.kind[next(t)] !== Kind.Word) throw new Unsupported('qualified type name');
      i = next(t);
    } else if (punct === P.Less) i = afterClose(t, i);
    else if (t.kind[i] === Kind.Word && !t.newline[i] && t.text(i) === 'extends') {
      i = skipType(t);
      if (t.punct[i] !== P.Question) throw new Unsupported('conditional type');
      i = skipType(t);
      if (t.punct[i] !== P.Colon) throw new Unsupported('conditional type');
      i = skipType(t);
    } else if (t.kind[i] === Kind.Word && !t.newline[i] && t.text(i) === 'is') i = skipType(t);
    else return i;
  }
}

function typeOperand(t: Tokens, from: number): number {
  let i = from;
  if (isOp(t, i, '|') || isOp(t, i, '&')) i = next(t);
  switch (t.kind[i]) {
    case Kind.Word:
      switch (t.text(i)) {
        case 'keyof':
        case 'readonly':
        case 'unique':
        case 'infer':
        case 'abstract':
          return typeOperand(t, next(t));
        case 'typeof':
          if (t.kind[next(t)] !== Kind.Word) throw new Unsupported('typeof');
          return next(t);
        case 'new': {
          const open = next(t);
          if (t.punct[open] !== P.ParenOpen) throw new Unsupported('constructor type');
          return functionTypeRest(t, open);
        }
        case 'asserts': {
          next(t);
          const after = next(t);
          return t.kind[after] === Kind.Word && t.text(after) === 'is' ? skipType(t) : after;
        }
        default:
          return next(t);
      }
    case Kind.String:
    case Kind.Number:
    case Kind.Template:
      return next(t);
    case Kind.TemplateHead:
      return afterTemplate(t, i);
    case Kind.Punct:
      break;
    default:
      throw new Unsupported('type');
  }
  const punct = t.punct[i];
  if (isOp(t, i, '-')) {
    if (t.kind[next(t)] !== Kind.Number) throw new Unsupported('type');
    return next(t);
  }
  if (punct === P.ParenOpen) {
    if (!startsFunctionType(t)) return afterClose(t, i); // a parenthesised type: `(() => T) =>` ends at `=>`
    const after = afterClose(t, i);
    if (t.punct[after] !== P.Arrow) throw new Unsupported('function type');
    return skipType(t);
  }
  if (punct === P.Less) {
    const open = afterClose(t, i);
    if (t.punct[open] !== P.ParenOpen) throw new Unsupported('generic function type');
    return functionTypeRest(t, open);
  }
  if (punct === P.BracketOpen || punct === P.BraceOpen) return afterClose(t, i);
  throw new Unsupported('type');
}

/**
 * After a `(` in a type: whether a function type's parameters follow rather than a parenthesised
 * type (TypeScript's rule): `()`, `...`, or a name followed by `:`, `,`, `?`, `=` or `)` then `=>`.
 * Reads ahead and comes back.
 */
function startsFunctionType(t: Tokens): boolean {
  const mark = t.mark();
  try {
    const first = next(t);
    const p = t.punct[first];
    if (p === P.ParenClose || p === P.Spread) return true;
    if (t.kind[first] !== Kind.Word) return false;
    const second = next(t);
    const q = t.punct[second];
    if (q === P.Colon || q === P.Comma || q === P.Question || q === P.Assign) return true;
    return q === P.ParenClose && t.punct[next(t)] === P.Arrow;
  } finally {
    t.reset(mark);
  }
}

/** `(params) => type` from its `(`. */
function functionTypeRest(t: Tokens, open: number): number {
  if (t.punct[afterClose(t, open)] !== P.Arrow) throw new Unsupported('function type');
  return skipType(t);
}

/** The token after a template (from its head), its substitutions skipped as types. */
function afterTemplate(t: Tokens, head: number): number {
  let part = head;
  while (t.kind[part] === Kind.TemplateHead) {
    if (t.punct[skipType(t)] !== P.BraceClose) throw new Unsupported('template type');
    part = t.continueTemplate();
  }
  return next(t);
}

/** The token after the bracket, brace, paren or angle bracket that closes the one at `open`. */
export function afterClose(t: Tokens, open: number): number {
  closeOf(t, open);
  return next(t);
}

const CLOSER: Partial<Record<P, P>> = {
  [P.ParenOpen]: P.ParenClose,
  [P.BracketOpen]: P.BracketClose,
  [P.BraceOpen]: P.BraceClose,
};
/** On the stack of `closeOf`: a template substitution's `}`. */
const SUBSTITUTION = -1;

/**
 * Reads up to the token closing the one at `open` and returns its index. Directly inside `<...>`
 * only what a type argument list may hold is accepted (a speculative read relies on that);
 * inside brackets anything balanced goes.
 */
export function closeOf(t: Tokens, open: number): number {
  const angles = t.punct[open] === P.Less;
  const stack: number[] = angles ? [] : [CLOSER[t.punct[open] as P] as P];
  let depth = 1;
  for (;;) {
    const i = next(t);
    const kind = t.kind[i];
    const punct = t.punct[i] as P;
    if (kind === Kind.Eof) throw new Unsupported('unbalanced');
    if (kind === Kind.TemplateHead) {
      stack.push(SUBSTITUTION);
      continue;
    }
    const closer = CLOSER[punct];
    if (closer !== undefined) {
      stack.push(closer);
      continue;
    }
    if (punct === P.ParenClose || punct === P.BracketClose || punct === P.BraceClose) {
      const expected = stack.pop();
      if (expected === SUBSTITUTION && punct === P.BraceClose) {
        if (t.kind[t.continueTemplate()] === Kind.TemplateHead) stack.push(SUBSTITUTION);
        continue;
      }
      if (expected !== punct) throw new Unsupported('unbalanced');
      if (!angles && stack.length === 0) return i;
      continue;
    }
    if (!angles || stack.length > 0) continue;
    if (punct === P.Less) depth++;
    else if (punct === P.Op) {
      const text = t.text(i);
      if (/^>+$/.test(text)) {
        depth -= text.length;
        if (depth === 0) return i;
        if (depth < 0) throw new Unsupported('angle brackets');
      } else if (text !== '|' && text !== '&' && text !== '-') throw new Unsupported('not a type');
    } else if (
      !TYPE_ARGUMENT_TOKENS.has(punct) &&
      kind !== Kind.Word &&
      kind !== Kind.String &&
      kind !== Kind.Number &&
      kind !== Kind.Template
    )
      throw new Unsupported('not a type');
  }
}

const TYPE_ARGUMENT_TOKENS = new Set<P>([P.Comma, P.Dot, P.Question, P.Colon, P.Arrow, P.Spread, P.Assign]);
