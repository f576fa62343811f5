// The scanner's vocabulary: contexts, nesting levels, word roles, the records it keeps.

import type { Tokens } from './tokens.ts';

/** What the previous token leaves: a statement may start, an operand is expected, an operand ended. */
export const STMT = 0;
export const EXPR = 1;
export const AFTER = 2;
export type Context = typeof STMT | typeof EXPR | typeof AFTER;

/** Kinds of nesting level: the file, `(`, `[`, a block, an object literal, a class body, a function body, `${`. */
export const L = {
  top: 0,
  paren: 1,
  bracket: 2,
  block: 3,
  object: 4,
  class: 5,
  body: 6,
  template: 7,
} as const;
export type LevelKind = (typeof L)[keyof typeof L];

/** Member phases of an object literal or class body. */
export const START = 0;
export const KEY = 1;
export const VALUE = 2;
/** TypeScript: after a class field's type. */
export const TYPED = 3;

export interface Fn {
  start: number;
  startToken: number;
  end: number;
  kind: 'declaration' | 'expression' | 'method' | 'arrow';
  /** Method key, or the declared name after `function`. */
  own: string | null;
  /** The variable, property, field or assignment target it is bound to (JS/TS `boundName`). */
  bound: string | null;
  /** Functions around it. */
  depth: number;
  classes: string | null;
}

export interface Level {
  kind: LevelKind;
  open: number;
  ternaries: number;
  paren: 'plain' | 'control' | 'params';
  fn: Fn | null;
  phase: number;
  memberStart: number;
  keyStart: number;
  keyEnd: number;
  computedKey: boolean;
  staticBlock: boolean;
  classDeclaration: boolean;
  /** A destructuring pattern (its `=` defaults bind no name). */
  pattern: boolean;
}

/** Words that never end an operand (an assignment target cannot end with them). */
export const KEYWORDS = new Set(
  'break case catch class const continue debugger default delete do else export extends finally for function if import in instanceof new return switch throw try typeof var void while with yield await let'.split(
    ' ',
  ),
);
export const MODIFIERS = new Set([
  ...['static', 'get', 'set', 'async', 'accessor'],
  ...['public', 'private', 'protected', 'readonly', 'override', 'declare', 'abstract'],
]);
/** TypeScript words that may start a declaration without code. */
export const TYPE_DECLARATIONS = new Set(['abstract', 'declare', 'interface', 'enum', 'type', 'namespace', 'module']);
export const OPERAND_WORDS = new Set(['this', 'super', 'null', 'true', 'false']);

/** What a word does to the context, for the words that do anything but name something. */
export const Role = {
  Function: 0,
  Class: 1,
  /** `if`, `while`, ...: the next `(` is theirs. */
  Control: 2,
  /** A statement may follow. */
  Statement: 3,
  Default: 4,
  /** `this`, `null`, `debugger`, ...: ends an operand. */
  Operand: 5,
  /** `return`, `yield`, `break`, ...: a line break after them ends the statement. */
  Restricted: 6,
  /** Names that are also contextual keywords: a `/` after them could be read either way. */
  Contextual: 7,
  /** An operand is expected next. */
  Operator: 8,
  /** TypeScript's words (a plain name in JavaScript). */
  TypeScript: 9,
} as const;
export type Role = (typeof Role)[keyof typeof Role];

export const WORD_ROLES = new Map<string, Role>([
  ...[...KEYWORDS].map((w) => [w, Role.Operator] as const),
  ['function', Role.Function],
  ['class', Role.Class],
  ...['if', 'while', 'for', 'with', 'switch', 'catch'].map((w) => [w, Role.Control] as const),
  ...['else', 'do', 'try', 'finally', 'export'].map((w) => [w, Role.Statement] as const),
  ['default', Role.Default],
  ...[...OPERAND_WORDS, 'debugger'].map((w) => [w, Role.Operand] as const),
  ...['return', 'yield', 'break', 'continue', 'throw'].map((w) => [w, Role.Restricted] as const),
  ...['of', 'get', 'set', 'static', 'async'].map((w) => [w, Role.Contextual] as const),
  ...[...TYPE_DECLARATIONS, 'as', 'satisfies', 'implements'].map((w) => [w, Role.TypeScript] as const),
]);

/** One more than the longest word with a role: a longer word has none. */
const LONGEST_ROLE_WORD = Math.max(...[...WORD_ROLES.keys()].map((w) => w.length)) + 1;
/**
 * The words with a role by first letter and length (all are lowercase ASCII), to look a word up
 * without slicing it: most identifiers find no candidate, a keyword one or two.
 */
const ROLES_BY_LETTER_AND_LENGTH: [string, Role][][] = Array.from({ length: 26 * LONGEST_ROLE_WORD }, () => []);
for (const [w, role] of WORD_ROLES)
  ROLES_BY_LETTER_AND_LENGTH[(w.charCodeAt(0) - 97) * LONGEST_ROLE_WORD + w.length]?.push([w, role]);

export function wordRole(t: Tokens, i: number): Role | undefined {
  const start = t.start[i] as number;
  const length = (t.end[i] as number) - start;
  const letter = t.src.charCodeAt(start) - 97;
  if (letter < 0 || letter > 25 || length >= LONGEST_ROLE_WORD) return undefined;
  for (const [w, role] of ROLES_BY_LETTER_AND_LENGTH[letter * LONGEST_ROLE_WORD + length] as [string, Role][]) {
    if (t.src.startsWith(w, start)) return role;
  }
  return undefined;
}

export function level(kind: LevelKind, open: number): Level {
  return {
    kind,
    open,
    ternaries: 0,
    paren: 'plain',
    fn: null,
    phase: START,
    memberStart: -1,
    keyStart: -1,
    keyEnd: -1,
    computedKey: false,
    staticBlock: false,
    classDeclaration: false,
    pattern: false,
  };
}

/** `=` tokens and what a function right after one is bound to: a field's name, an assignment target, nothing. */
export type AssignTarget = { field: string } | 'assign' | 'none' | 'unknown';
