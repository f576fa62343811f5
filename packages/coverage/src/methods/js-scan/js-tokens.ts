/**
 * The JavaScript tokenizer: the reference for assembly/tokens.ts, and what scans when its
 * WebAssembly build is not there. It decides regex against division from what the caller says
 * (`regexAllowed`).
 */

import type { CommentRange } from '../body-hash.ts';
import { firstPosition, Kind, P, TOKEN_SLACK, TOO_MANY, Tokens, type TokensMark, Unsupported } from './tokens.ts';

const isWordPart = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 36 || c === 95 || c >= 128;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isLineBreak = (c: number) => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
const isOtherSpace = (c: number) =>
  c === 0xa0 ||
  c === 0xfeff ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000;

/** The token arrays, kept between files (a scan is synchronous): one file's tokens overwrite the last's. */
const shared = {
  kind: new Uint8Array(4096),
  punct: new Uint8Array(4096),
  start: new Int32Array(4096),
  end: new Int32Array(4096),
  newline: new Uint8Array(4096),
};

/** The shared arrays, made large enough for `units` code units of source. */
function sharedFor(units: number): typeof shared {
  if (shared.kind.length < units + TOKEN_SLACK) {
    const size = Math.max(units + TOKEN_SLACK, shared.kind.length * 2);
    shared.kind = new Uint8Array(size);
    shared.punct = new Uint8Array(size);
    shared.start = new Int32Array(size);
    shared.end = new Int32Array(size);
    shared.newline = new Uint8Array(size);
  }
  return shared;
}

export class JsTokens extends Tokens {
  kind: Uint8Array;
  punct: Uint8Array;
  start: Int32Array;
  end: Int32Array;
  newline: Uint8Array;
  private readonly capacity: number;
  private readonly commentList: CommentRange[] = [];
  private pos: number;

  constructor(src: string) {
    super(src);
    const arrays = sharedFor(src.length);
    this.kind = arrays.kind;
    this.punct = arrays.punct;
    this.start = arrays.start;
    this.end = arrays.end;
    this.newline = arrays.newline;
    this.capacity = src.length + TOKEN_SLACK;
    this.pos = firstPosition(src);
  }

  comments(): CommentRange[] {
    return this.commentList;
  }

  mark(): TokensMark {
    return { pos: this.pos, count: this.count, comments: this.commentList.length };
  }

  reset(mark: TokensMark): void {
    this.pos = mark.pos;
    this.count = mark.count;
    this.commentList.length = mark.comments;
  }

  next(regexAllowed: boolean): number {
    if (this.count === this.capacity) throw new Unsupported(TOO_MANY);
    const sawBreak = this.skipSpace();
    const src = this.src;
    const at = this.pos;
    let kind: Kind = Kind.Punct;
    let punct: P = P.None;
    if (at >= src.length) kind = Kind.Eof;
    else {
      const c = src.charCodeAt(at);
      if (isWordPart(c) && !isDigit(c)) {
        kind = Kind.Word;
        this.pos = this.wordEnd(at + 1);
      } else if (c === 35 /* # */) {
        kind = Kind.Private;
        this.pos = this.wordEnd(at + 1);
        if (this.pos === at + 1) throw new Unsupported('#');
      } else if (isDigit(c) || (c === 46 && isDigit(src.charCodeAt(at + 1)))) {
        kind = Kind.Number;
        this.pos = this.numberEnd(at);
      } else if (c === 39 || c === 34) {
        kind = Kind.String;
        this.pos = this.stringEnd(at, c);
      } else if (c === 96 /* ` */) {
        kind = this.templatePart(at + 1) ? Kind.TemplateHead : Kind.Template;
      } else if (c === 47 /* / */ && regexAllowed) {
        kind = Kind.Regex;
        this.pos = this.regexEnd(at + 1);
      } else if (c === 92 /* \ */) {
        throw new Unsupported('escape in a word');
      } else {
        punct = this.punctuator(at, c);
      }
    }
    return this.push(kind, punct, at, sawBreak);
  }

  continueTemplate(): number {
    if (this.count === this.capacity) throw new Unsupported(TOO_MANY);
    const at = this.pos;
    const kind = this.templatePart(at) ? Kind.TemplateHead : Kind.Template;
    return this.push(kind, P.None, at, false);
  }

  private push(kind: Kind, punct: P, at: number, sawBreak: boolean): number {
    const i = this.count;
    this.kind[i] = kind;
    this.punct[i] = punct;
    this.start[i] = at;
    this.end[i] = kind === Kind.Eof ? at : this.pos;
    this.newline[i] = sawBreak ? 1 : 0;
    this.count = i + 1;
    return i;
  }

  private skipSpace(): boolean {
    const src = this.src;
    let sawBreak = false;
    let i = this.pos;
    for (;;) {
      const c = src.charCodeAt(i);
      if (c === 32 || c === 9 || c === 11 || c === 12) i++;
      else if (c === 10 || c === 13) {
        sawBreak = true;
        i++;
      } else if (c === 47 /* / */) {
        const d = src.charCodeAt(i + 1);
        if (d === 47) {
          let e = i + 2;
          while (e < src.length && !isLineBreak(src.charCodeAt(e))) e++;
          this.commentList.push({ startIndex: i, endIndex: e });
          i = e;
        } else if (d === 42) {
          const e = src.indexOf('*/', i + 2);
          if (e < 0) throw new Unsupported('unterminated comment');
          for (let at = i + 2; !sawBreak && at < e; at++) sawBreak = isLineBreak(src.charCodeAt(at));
          this.commentList.push({ startIndex: i, endIndex: e + 2 });
          i = e + 2;
        } else break;
      } else if (c === 0x2028 || c === 0x2029) {
        sawBreak = true;
        i++;
      } else if (c >= 128 && isOtherSpace(c)) i++;
      else break;
    }
    this.pos = i;
    return sawBreak;
  }

  private wordEnd(from: number): number {
    const src = this.src;
    let i = from;
    for (;;) {
      const c = src.charCodeAt(i);
      if (isWordPart(c) && !(c >= 128 && (isOtherSpace(c) || isLineBreak(c)))) i++;
      else if (c === 92) throw new Unsupported('escape in a word');
      else return i;
    }
  }

  private numberEnd(from: number): number {
    const src = this.src;
    let i = from;
    const c1 = src.charCodeAt(i + 1) | 0x20;
    if (src.charCodeAt(i) === 48 && (c1 === 120 || c1 === 111 || c1 === 98)) {
      i += 2;
      while (isWordPart(src.charCodeAt(i))) i++;
      return i;
    }
    while (isDigit(src.charCodeAt(i)) || src.charCodeAt(i) === 95) i++;
    if (src.charCodeAt(i) === 46) {
      i++;
      while (isDigit(src.charCodeAt(i)) || src.charCodeAt(i) === 95) i++;
    }
    if ((src.charCodeAt(i) | 0x20) === 101) {
      i++;
      if (src.charCodeAt(i) === 43 || src.charCodeAt(i) === 45) i++;
      while (isDigit(src.charCodeAt(i)) || src.charCodeAt(i) === 95) i++;
    }
    if (src.charCodeAt(i) === 110) i++;
    if (isWordPart(src.charCodeAt(i))) throw new Unsupported('number');
    return i;
  }

  private stringEnd(from: number, quote: number): number {
    const src = this.src;
    for (let i = from + 1; i < src.length; i++) {
      const c = src.charCodeAt(i);
      if (c === quote) return i + 1;
      if (c === 92) {
        i++;
        if (src.charCodeAt(i) === 13 && src.charCodeAt(i + 1) === 10) i++;
      } else if (c === 10 || c === 13) break;
    }
    throw new Unsupported('unterminated string');
  }

  /** Scans template characters from `from`; true when it stopped at `${` (else at the closing backtick). */
  private templatePart(from: number): boolean {
    const src = this.src;
    for (let i = from; i < src.length; i++) {
      const c = src.charCodeAt(i);
      if (c === 92) i++;
      else if (c === 96) {
        this.pos = i + 1;
        return false;
      } else if (c === 36 && src.charCodeAt(i + 1) === 123) {
        this.pos = i + 2;
        return true;
      }
    }
    throw new Unsupported('unterminated template');
  }

  private regexEnd(from: number): number {
    const src = this.src;
    let inClass = false;
    for (let i = from; i < src.length; i++) {
      const c = src.charCodeAt(i);
      if (c === 92) i++;
      else if (isLineBreak(c)) break;
      else if (c === 91) inClass = true;
      else if (c === 93) inClass = false;
      else if (c === 47 && !inClass) {
        let e = i + 1;
        while (isWordPart(src.charCodeAt(e))) e++;
        return e;
      }
    }
    throw new Unsupported('unterminated regex');
  }

  private punctuator(at: number, c: number): P {
    const src = this.src;
    const c2 = src.charCodeAt(at + 1);
    let len = 1;
    let p: P = P.Op;
    switch (c) {
      case 40:
        p = P.ParenOpen;
        break;
      case 41:
        p = P.ParenClose;
        break;
      case 91:
        p = P.BracketOpen;
        break;
      case 93:
        p = P.BracketClose;
        break;
      case 123:
        p = P.BraceOpen;
        break;
      case 125:
        p = P.BraceClose;
        break;
      case 59:
        p = P.Semicolon;
        break;
      case 44:
        p = P.Comma;
        break;
      case 58:
        p = P.Colon;
        break;
      case 126:
        p = P.Not;
        break;
      case 64:
        p = P.At;
        break;
      case 46: // . ...
        if (c2 === 46 && src.charCodeAt(at + 2) === 46) {
          p = P.Spread;
          len = 3;
        } else p = P.Dot;
        break;
      case 63: // ? ?. ?? ??=
        if (c2 === 46 && !isDigit(src.charCodeAt(at + 2))) {
          p = P.OptionalChain;
          len = 2;
        } else if (c2 === 63) len = src.charCodeAt(at + 2) === 61 ? 3 : 2;
        else p = P.Question;
        break;
      case 61: // = == === =>
        if (c2 === 62) {
          p = P.Arrow;
          len = 2;
        } else if (c2 === 61) len = src.charCodeAt(at + 2) === 61 ? 3 : 2;
        else p = P.Assign;
        break;
      case 33: // ! != !==
        if (c2 === 61) len = src.charCodeAt(at + 2) === 61 ? 3 : 2;
        else p = P.Not;
        break;
      case 43: // + ++ +=
      case 45: // - -- -=
        if (c2 === c) {
          p = P.Increment;
          len = 2;
        } else if (c2 === 61) len = 2;
        break;
      case 42: // * ** *= **=
        if (c2 === 42) len = src.charCodeAt(at + 2) === 61 ? 3 : 2;
        else if (c2 === 61) len = 2;
        else p = P.Star;
        break;
      case 47: // / /=
        p = P.Slash;
        if (c2 === 61) len = 2;
        break;
      case 37: // % %=
      case 94: // ^ ^=
        if (c2 === 61) len = 2;
        break;
      case 38: // & && &= &&=
      case 124: // | || |= ||=
        if (c2 === c) len = src.charCodeAt(at + 2) === 61 ? 3 : 2;
        else if (c2 === 61) len = 2;
        break;
      case 60: // < << <= <<=
        if (c2 === 60) len = src.charCodeAt(at + 2) === 61 ? 3 : 2;
        else if (c2 === 61) len = 2;
        else p = P.Less;
        break;
      case 62: {
        // > >> >>> >= >>= >>>=
        let e = at + 1;
        while (src.charCodeAt(e) === 62 && e < at + 3) e++;
        if (src.charCodeAt(e) === 61) e++;
        len = e - at;
        break;
      }
      default:
        throw new Unsupported(`character ${c}`);
    }
    this.pos = at + len;
    return p;
  }
}
