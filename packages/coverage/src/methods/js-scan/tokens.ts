/**
 * The tokens `scanScriptMethods` reads: words, literals and punctuators with their places,
 * comments kept aside. Two tokenizers make them, alike: `JsTokens` (js-tokens.ts) and its
 * WebAssembly build (wasm-tokens.ts). Whatever they do not model (identifier escapes,
 * unterminated literals) throws `Unsupported`, and the caller falls back to tree-sitter.
 */
import type { CommentRange } from '../body-hash.ts';

export class Unsupported extends Error {}

export const Kind = {
  Eof: 0,
  Word: 1,
  Private: 2,
  Number: 3,
  String: 4,
  /** A whole template without substitutions, or its tail after the last `}`. */
  Template: 5,
  /** A template up to and including a `${`. */
  TemplateHead: 6,
  Regex: 7,
  Punct: 8,
} as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/** Punctuators the scanner tells apart; every other operator is `Op`. */
export const P = {
  None: 0,
  Op: 1,
  ParenOpen: 2,
  ParenClose: 3,
  BracketOpen: 4,
  BracketClose: 5,
  BraceOpen: 6,
  BraceClose: 7,
  Semicolon: 8,
  Comma: 9,
  Colon: 10,
  Question: 11,
  OptionalChain: 12,
  Assign: 13,
  Arrow: 14,
  Dot: 15,
  Spread: 16,
  Increment: 17,
  Star: 18,
  Slash: 19,
  Less: 20,
  At: 21,
  Not: 22,
} as const;
export type P = (typeof P)[keyof typeof P];

/**
 * End-of-file tokens a caller may read past the source's units. The token arrays hold as many
 * tokens as the source has units and this (every other token takes a unit), so they never grow
 * during a scan: an expression such as `t.punct[next(t)]` reads `t.punct` before `next` runs.
 */
export const TOKEN_SLACK = 64;
export const TOO_MANY = 'more tokens than the source has characters';

/** Where reading stands, to come back to after a speculative read (`reset`). */
export interface TokensMark {
  pos: number;
  count: number;
  comments: number;
}

/**
 * A file's tokens as the scanner reads them: `next` appends one to the arrays and returns its
 * index. Two tokenizers answer alike: `JsTokens` (js-tokens.ts), and `WasmTokens`
 * (wasm-tokens.ts), the same code compiled to WebAssembly, which `openTokens` prefers.
 */
export abstract class Tokens {
  count = 0;
  abstract kind: Uint8Array;
  abstract punct: Uint8Array;
  abstract start: Int32Array;
  abstract end: Int32Array;
  /** 1 when a line break precedes the token. */
  abstract newline: Uint8Array;

  constructor(readonly src: string) {}

  /** Comment ranges, in order (what the body hash leaves out). */
  abstract comments(): CommentRange[];
  abstract mark(): TokensMark;
  abstract reset(mark: TokensMark): void;
  /** Reads the next token and returns its index. */
  abstract next(regexAllowed: boolean): number;
  /** After the `}` closing a `${`: the template's next part, as a token. */
  abstract continueTemplate(): number;

  /** Whether token `i` is the word `word` (no string made). */
  is(i: number, word: string): boolean {
    const start = this.start[i] as number;
    return (
      this.kind[i] === Kind.Word && (this.end[i] as number) - start === word.length && this.src.startsWith(word, start)
    );
  }

  text(i: number): string {
    return this.src.slice(this.start[i], this.end[i]);
  }
}

/** Where reading starts: past a `#!` line. */
export function firstPosition(src: string): number {
  if (!src.startsWith('#!')) return 0;
  const eol = src.indexOf('\n');
  return eol < 0 ? src.length : eol;
}
