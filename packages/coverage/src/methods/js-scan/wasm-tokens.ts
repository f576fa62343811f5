import type { CommentRange } from '../body-hash.ts';
import { JsTokens } from './js-tokens.ts';
import { firstPosition, TOO_MANY, Tokens, type TokensMark, Unsupported } from './tokens.ts';

/** What this file uses of the WebAssembly API (its types are in lib.dom, which this package leaves out). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
  RuntimeError: new (message?: string) => Error;
};

/** The exports of assembly/tokens.ts (see there). */
export interface TokenizerExports {
  memory: { buffer: ArrayBuffer };
  prepare(units: number): number;
  kindsAt(): number;
  punctsAt(): number;
  startsAt(): number;
  endsAt(): number;
  newlinesAt(): number;
  commentsAt(): number;
  tokenRoom(): number;
  commentTotal(): number;
  position(): number;
  failedChar(): number;
  reset(pos: number, count: number, comments: number): void;
  next(regexAllowed: number): number;
  continueTemplate(): number;
}

/** js-tokens.ts's messages for assembly/tokens.ts's FAIL_* codes (-1 ...). */
const FAILURES: (string | null)[] = [
  '#',
  'escape in a word',
  'unterminated comment',
  'number',
  'unterminated string',
  'unterminated template',
  'unterminated regex',
  null,
  TOO_MANY,
];

/** Node's Buffer where the core runs in Node (the core stays browser-safe, so it is not imported). */
interface NodeBuffer {
  from(buffer: ArrayBuffer, offset: number, length: number): { write(text: string, encoding: 'utf16le'): number };
}
const nodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer ?? null;

/**
 * Copies `src`'s UTF-16 code units, lone surrogates included, into `buffer` at `at`: with Node's
 * Buffer (native) where there is one, else unit by unit.
 */
export function writeUnits(buffer: ArrayBuffer, at: number, src: string, native = nodeBuffer): void {
  if (native) {
    native.from(buffer, at, src.length * 2).write(src, 'utf16le');
    return;
  }
  const units = new Uint16Array(buffer, at, src.length);
  for (let i = 0; i < src.length; i++) units[i] = src.charCodeAt(i);
}

let module: object | null = null;
let tokenizer: TokenizerExports | null = null;
let preferred = true;

/**
 * Sources longer than this (UTF-16 units) get an instance of their own, dropped after the scan:
 * the memory of the one kept for the thread never shrinks (it takes 17 bytes a unit), and a server
 * scans in-process for as long as it runs.
 */
const OWN_INSTANCE_FROM = 1 << 20;

function instantiate(compiled: object): TokenizerExports {
  return new WebAssembly.Instance(compiled, {}).exports as TokenizerExports;
}

/**
 * Instantiates the compiled tokenizer (scripts/build.mjs makes it; node/compiled.ts
 * reads it): from then on `openTokens` uses it. False when the bytes are not a working module.
 */
export function installCompiledTokenizer(bytes: Uint8Array): boolean {
  try {
    const compiled = new WebAssembly.Module(bytes);
    const candidate = instantiate(compiled);
    if (typeof candidate.next !== 'function' || typeof candidate.prepare !== 'function') return false;
    module = compiled;
    tokenizer = candidate;
    return true;
  } catch {
    return false;
  }
}

/** The installed compiled tokenizer, or null (then JsTokens does the work). */
export function compiledTokenizer(): TokenizerExports | null {
  return tokenizer;
}

/** Whether `openTokens` uses the compiled tokenizer when there is one (tests compare the two). */
export function preferWasmTokens(prefer: boolean): void {
  preferred = prefer;
}

/**
 * The tokens of `src`: WebAssembly's when it is built, else (or when its memory cannot grow to
 * the source's size) JavaScript's.
 */
export function openTokens(src: string): Tokens {
  const shared = preferred ? tokenizer : null;
  if (shared && module) {
    try {
      return new WasmTokens(src, src.length < OWN_INSTANCE_FROM ? shared : instantiate(module));
    } catch (error) {
      if (!(error instanceof WebAssembly.RuntimeError)) throw error;
    }
  }
  return new JsTokens(src);
}

/**
 * Tokens read by assembly/tokens.ts: the source is copied into its memory, and the token arrays
 * are views of it. One file at a time per thread, as the instance is shared (scans are synchronous).
 */
export class WasmTokens extends Tokens {
  kind!: Uint8Array;
  punct!: Uint8Array;
  start!: Int32Array;
  end!: Int32Array;
  newline!: Uint8Array;

  constructor(
    src: string,
    private readonly w: TokenizerExports,
  ) {
    super(src);
    const at = w.prepare(src.length);
    writeUnits(w.memory.buffer, at, src);
    w.reset(firstPosition(src), 0, 0);
    this.view();
  }

  /** Views of the arrays, which stay where they are until the next file's `prepare`. */
  private view(): void {
    const { w } = this;
    const buffer = w.memory.buffer;
    const room = w.tokenRoom();
    this.kind = new Uint8Array(buffer, w.kindsAt(), room);
    this.punct = new Uint8Array(buffer, w.punctsAt(), room);
    this.start = new Int32Array(buffer, w.startsAt(), room);
    this.end = new Int32Array(buffer, w.endsAt(), room);
    this.newline = new Uint8Array(buffer, w.newlinesAt(), room);
  }

  private failure(code: number): never {
    throw new Unsupported(FAILURES[-code - 1] ?? `character ${this.w.failedChar()}`);
  }

  next(regexAllowed: boolean): number {
    const i = this.w.next(regexAllowed ? 1 : 0);
    if (i < 0) this.failure(i);
    this.count = i + 1;
    return i;
  }

  continueTemplate(): number {
    const i = this.w.continueTemplate();
    if (i < 0) this.failure(i);
    this.count = i + 1;
    return i;
  }

  mark(): TokensMark {
    return { pos: this.w.position(), count: this.count, comments: this.w.commentTotal() };
  }

  reset(mark: TokensMark): void {
    this.w.reset(mark.pos, mark.count, mark.comments);
    this.count = mark.count;
  }

  comments(): CommentRange[] {
    const { w } = this;
    const pairs = new Int32Array(w.memory.buffer, w.commentsAt(), w.commentTotal() * 2);
    const list: CommentRange[] = new Array(pairs.length / 2);
    for (let c = 0; c < list.length; c++)
      list[c] = { startIndex: pairs[2 * c] as number, endIndex: pairs[2 * c + 1] as number };
    return list;
  }
}
