// AssemblyScript: the tokenizer of src/methods/js-scan/js-tokens.ts compiled to WebAssembly
// (scripts/build.mjs --wasm). WebAssembly runs at full speed from its first byte, where V8's JIT
// needs megabytes of input to warm up, and a first run of `sextant coverage` scans a few MB.
// It must answer exactly as js-tokens.ts does (wasm-tokens.test.ts compares them): same
// tokens, same comments, same failures. A failure returns a negative code (FAIL_*), and the
// JavaScript side throws tokens.ts's `Unsupported` for it.

// Token kinds and punctuators: the values of tokens.ts's `Kind` and `P`.
const EOF: u8 = 0;
const WORD: u8 = 1;
const PRIVATE: u8 = 2;
const NUMBER: u8 = 3;
const STRING: u8 = 4;
const TEMPLATE: u8 = 5;
const TEMPLATE_HEAD: u8 = 6;
const REGEX: u8 = 7;
const PUNCT: u8 = 8;

const P_NONE: u8 = 0;
const P_OP: u8 = 1;
const P_PAREN_OPEN: u8 = 2;
const P_PAREN_CLOSE: u8 = 3;
const P_BRACKET_OPEN: u8 = 4;
const P_BRACKET_CLOSE: u8 = 5;
const P_BRACE_OPEN: u8 = 6;
const P_BRACE_CLOSE: u8 = 7;
const P_SEMICOLON: u8 = 8;
const P_COMMA: u8 = 9;
const P_COLON: u8 = 10;
const P_QUESTION: u8 = 11;
const P_OPTIONAL_CHAIN: u8 = 12;
const P_ASSIGN: u8 = 13;
const P_ARROW: u8 = 14;
const P_DOT: u8 = 15;
const P_SPREAD: u8 = 16;
const P_INCREMENT: u8 = 17;
const P_STAR: u8 = 18;
const P_SLASH: u8 = 19;
const P_LESS: u8 = 20;
const P_AT: u8 = 21;
const P_NOT: u8 = 22;

// Failures (tokens.ts's messages in wasm-tokens.ts).
const FAIL_PRIVATE: i32 = -1;
const FAIL_WORD_ESCAPE: i32 = -2;
const FAIL_COMMENT: i32 = -3;
const FAIL_NUMBER: i32 = -4;
const FAIL_STRING: i32 = -5;
const FAIL_TEMPLATE: i32 = -6;
const FAIL_REGEX: i32 = -7;
/** `character N`: the character is in `failedChar()`. */
const FAIL_CHARACTER: i32 = -8;
/** More tokens than the source has code units (a caller reading on past the end). */
const FAIL_TOO_MANY: i32 = -9;

/** Code units past the source's end read as 0, which no test below takes for anything. */
const PADDING: i32 = 4;
/** End-of-file tokens a caller may read past the source's units (tokens.ts's TOKEN_SLACK). */
const TOKEN_SLACK: i32 = 64;

let length: i32 = 0;
let pos: i32 = 0;
let count: i32 = 0;
let commentCount: i32 = 0;
let tokenCapacity: i32 = 0;
let commentCapacity: i32 = 0;
let failed: i32 = 0;

let source: usize = 0;
let kinds: usize = 0;
let puncts: usize = 0;
let starts: usize = 0;
let ends: usize = 0;
let newlines: usize = 0;
let comments: usize = 0;
/** The first free byte: everything above belongs to the file being read. */
let top: usize = 0;

function reserve(bytes: i32): usize {
  const at = (top + 7) & ~(<usize>7);
  top = at + <usize>bytes;
  const pages = <i32>((top + 0xffff) >> 16);
  const have = memory.size();
  if (pages > have && memory.grow(pages - have) < 0) unreachable();
  return at;
}

/**
 * Room for a source of `units` UTF-16 code units, read from position 0: its address. The arrays
 * are as large as the source can fill (every token but the end's takes a unit, every comment two),
 * so memory never grows, and never moves the JavaScript side's views of it, during a scan.
 */
export function prepare(units: i32): usize {
  top = __heap_base;
  length = units;
  pos = 0;
  count = 0;
  commentCount = 0;
  source = reserve((units + PADDING) << 1);
  memory.fill(source + (<usize>units << 1), 0, PADDING << 1);
  tokenCapacity = units + TOKEN_SLACK;
  kinds = reserve(tokenCapacity);
  puncts = reserve(tokenCapacity);
  starts = reserve(tokenCapacity << 2);
  ends = reserve(tokenCapacity << 2);
  newlines = reserve(tokenCapacity);
  commentCapacity = (units >> 1) + 1;
  comments = reserve(commentCapacity << 3);
  return source;
}

export function kindsAt(): usize {
  return kinds;
}
export function punctsAt(): usize {
  return puncts;
}
export function startsAt(): usize {
  return starts;
}
export function endsAt(): usize {
  return ends;
}
export function newlinesAt(): usize {
  return newlines;
}
export function commentsAt(): usize {
  return comments;
}
export function tokenRoom(): i32 {
  return tokenCapacity;
}
export function commentTotal(): i32 {
  return commentCount;
}
export function position(): i32 {
  return pos;
}
export function failedChar(): i32 {
  return failed;
}

/** Back to where a speculative read began (js-tokens.ts `reset`). */
export function reset(at: i32, tokenCount: i32, commentsKept: i32): void {
  pos = at;
  count = tokenCount;
  commentCount = commentsKept;
}

@inline
function char(at: i32): i32 {
  return <i32>load<u16>(source + (<usize>at << 1));
}

@inline
function isDigit(c: i32): bool {
  return c >= 48 && c <= 57;
}

@inline
function isWordPart(c: i32): bool {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c == 36 || c == 95 || c >= 128;
}

@inline
function isLineBreak(c: i32): bool {
  return c == 10 || c == 13 || c == 0x2028 || c == 0x2029;
}

function isOtherSpace(c: i32): bool {
  return (
    c == 0xa0 ||
    c == 0xfeff ||
    c == 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c == 0x202f ||
    c == 0x205f ||
    c == 0x3000
  );
}

function addComment(from: i32, to: i32): void {
  const at = comments + (<usize>commentCount << 3);
  store<i32>(at, from);
  store<i32>(at, to, 4);
  commentCount++;
}

/** Skips spaces and comments: 1 when a line break was among them, 0 if not, or a failure. */
function skipSpace(): i32 {
  let sawBreak = false;
  let i = pos;
  for (;;) {
    const c = char(i);
    if (c == 32 || c == 9 || c == 11 || c == 12) i++;
    else if (c == 10 || c == 13) {
      sawBreak = true;
      i++;
    } else if (c == 47 && i < length) {
      const d = char(i + 1);
      if (d == 47 && i + 1 < length) {
        let e = i + 2;
        while (e < length && !isLineBreak(char(e))) e++;
        addComment(i, e);
        i = e;
      } else if (d == 42 && i + 1 < length) {
        let e = i + 2;
        while (e + 1 < length && !(char(e) == 42 && char(e + 1) == 47)) e++;
        if (e + 1 >= length) return FAIL_COMMENT;
        for (let at = i + 2; !sawBreak && at < e; at++) sawBreak = isLineBreak(char(at));
        addComment(i, e + 2);
        i = e + 2;
      } else break;
    } else if (c == 0x2028 || c == 0x2029) {
      sawBreak = true;
      i++;
    } else if (c >= 128 && isOtherSpace(c)) i++;
    else break;
  }
  pos = i;
  return sawBreak ? 1 : 0;
}

/** Where a word ends, or a failure. */
function wordEnd(from: i32): i32 {
  let i = from;
  while (i < length) {
    const c = char(i);
    if (isWordPart(c) && !(c >= 128 && (isOtherSpace(c) || isLineBreak(c)))) i++;
    else if (c == 92) return FAIL_WORD_ESCAPE;
    else break;
  }
  return i;
}

@inline
function digitOrSeparator(i: i32): bool {
  const c = char(i);
  return i < length && (isDigit(c) || c == 95);
}

function numberEnd(from: i32): i32 {
  let i = from;
  const c1 = char(i + 1) | 0x20;
  if (char(i) == 48 && i + 1 < length && (c1 == 120 || c1 == 111 || c1 == 98)) {
    i += 2;
    while (i < length && isWordPart(char(i))) i++;
    return i;
  }
  while (digitOrSeparator(i)) i++;
  if (i < length && char(i) == 46) {
    i++;
    while (digitOrSeparator(i)) i++;
  }
  if (i < length && (char(i) | 0x20) == 101) {
    i++;
    if (i < length && (char(i) == 43 || char(i) == 45)) i++;
    while (digitOrSeparator(i)) i++;
  }
  if (i < length && char(i) == 110) i++;
  if (i < length && isWordPart(char(i))) return FAIL_NUMBER;
  return i;
}

function stringEnd(from: i32, quote: i32): i32 {
  for (let i = from + 1; i < length; i++) {
    const c = char(i);
    if (c == quote) return i + 1;
    if (c == 92) {
      i++;
      if (i < length && char(i) == 13 && i + 1 < length && char(i + 1) == 10) i++;
    } else if (c == 10 || c == 13) break;
  }
  return FAIL_STRING;
}

/** Template characters from `from`: 1 when it stopped at `${`, 0 at the closing backtick, or a failure. */
function templatePart(from: i32): i32 {
  for (let i = from; i < length; i++) {
    const c = char(i);
    if (c == 92) i++;
    else if (c == 96) {
      pos = i + 1;
      return 0;
    } else if (c == 36 && i + 1 < length && char(i + 1) == 123) {
      pos = i + 2;
      return 1;
    }
  }
  return FAIL_TEMPLATE;
}

function regexEnd(from: i32): i32 {
  let inClass = false;
  for (let i = from; i < length; i++) {
    const c = char(i);
    if (c == 92) i++;
    else if (isLineBreak(c)) break;
    else if (c == 91) inClass = true;
    else if (c == 93) inClass = false;
    else if (c == 47 && !inClass) {
      let e = i + 1;
      while (e < length && isWordPart(char(e))) e++;
      return e;
    }
  }
  return FAIL_REGEX;
}

/** The code unit at `at`, or -1 past the end (where js-tokens.ts's charCodeAt gives NaN). */
@inline
function unit(at: i32): i32 {
  return at < length ? char(at) : -1;
}

/** A punctuator at `at` (its first unit `c`): its `P`, `pos` set past it; or a failure. */
function punctuator(at: i32, c: i32): i32 {
  const c2 = unit(at + 1);
  let len = 1;
  let p: i32 = P_OP;
  switch (c) {
    case 40:
      p = P_PAREN_OPEN;
      break;
    case 41:
      p = P_PAREN_CLOSE;
      break;
    case 91:
      p = P_BRACKET_OPEN;
      break;
    case 93:
      p = P_BRACKET_CLOSE;
      break;
    case 123:
      p = P_BRACE_OPEN;
      break;
    case 125:
      p = P_BRACE_CLOSE;
      break;
    case 59:
      p = P_SEMICOLON;
      break;
    case 44:
      p = P_COMMA;
      break;
    case 58:
      p = P_COLON;
      break;
    case 126:
      p = P_NOT;
      break;
    case 64:
      p = P_AT;
      break;
    case 46:
      if (c2 == 46 && unit(at + 2) == 46) {
        p = P_SPREAD;
        len = 3;
      } else p = P_DOT;
      break;
    case 63:
      if (c2 == 46 && !isDigit(unit(at + 2))) {
        p = P_OPTIONAL_CHAIN;
        len = 2;
      } else if (c2 == 63) len = unit(at + 2) == 61 ? 3 : 2;
      else p = P_QUESTION;
      break;
    case 61:
      if (c2 == 62) {
        p = P_ARROW;
        len = 2;
      } else if (c2 == 61) len = unit(at + 2) == 61 ? 3 : 2;
      else p = P_ASSIGN;
      break;
    case 33:
      if (c2 == 61) len = unit(at + 2) == 61 ? 3 : 2;
      else p = P_NOT;
      break;
    case 43:
    case 45:
      if (c2 == c) {
        p = P_INCREMENT;
        len = 2;
      } else if (c2 == 61) len = 2;
      break;
    case 42:
      if (c2 == 42) len = unit(at + 2) == 61 ? 3 : 2;
      else if (c2 == 61) len = 2;
      else p = P_STAR;
      break;
    case 47:
      p = P_SLASH;
      if (c2 == 61) len = 2;
      break;
    case 37:
    case 94:
      if (c2 == 61) len = 2;
      break;
    case 38:
    case 124:
      if (c2 == c) len = unit(at + 2) == 61 ? 3 : 2;
      else if (c2 == 61) len = 2;
      break;
    case 60:
      if (c2 == 60) len = unit(at + 2) == 61 ? 3 : 2;
      else if (c2 == 61) len = 2;
      else p = P_LESS;
      break;
    case 62: {
      let e = at + 1;
      while (unit(e) == 62 && e < at + 3) e++;
      if (unit(e) == 61) e++;
      len = e - at;
      break;
    }
    default:
      failed = c;
      return FAIL_CHARACTER;
  }
  pos = at + len;
  return p;
}

function push(kind: u8, punct: u8, at: i32, sawBreak: i32): i32 {
  const i = count;
  store<u8>(kinds + <usize>i, kind);
  store<u8>(puncts + <usize>i, punct);
  store<i32>(starts + (<usize>i << 2), at);
  store<i32>(ends + (<usize>i << 2), kind == EOF ? at : pos);
  store<u8>(newlines + <usize>i, <u8>sawBreak);
  count = i + 1;
  return i;
}

/**
 * Reads the next token: its index, or a failure. `regexAllowed`: whether a `/` here starts a regular expression.
 */
export function next(regexAllowed: bool): i32 {
  if (count == tokenCapacity) return FAIL_TOO_MANY;
  const sawBreak = skipSpace();
  if (sawBreak < 0) return sawBreak;
  const at = pos;
  let kind: u8 = PUNCT;
  let punct: u8 = P_NONE;
  if (at >= length) kind = EOF;
  else {
    const c = char(at);
    if (isWordPart(c) && !isDigit(c)) {
      kind = WORD;
      const end = wordEnd(at + 1);
      if (end < 0) return end;
      pos = end;
    } else if (c == 35) {
      kind = PRIVATE;
      const end = wordEnd(at + 1);
      if (end < 0) return end;
      pos = end;
      if (end == at + 1) return FAIL_PRIVATE;
    } else if (isDigit(c) || (c == 46 && isDigit(unit(at + 1)))) {
      kind = NUMBER;
      const end = numberEnd(at);
      if (end < 0) return end;
      pos = end;
    } else if (c == 39 || c == 34) {
      kind = STRING;
      const end = stringEnd(at, c);
      if (end < 0) return end;
      pos = end;
    } else if (c == 96) {
      const head = templatePart(at + 1);
      if (head < 0) return head;
      kind = head ? TEMPLATE_HEAD : TEMPLATE;
    } else if (c == 47 && regexAllowed) {
      kind = REGEX;
      const end = regexEnd(at + 1);
      if (end < 0) return end;
      pos = end;
    } else if (c == 92) {
      return FAIL_WORD_ESCAPE;
    } else {
      const p = punctuator(at, c);
      if (p < 0) return p;
      punct = <u8>p;
    }
  }
  return push(kind, punct, at, sawBreak);
}

/** After the `}` closing a `${`: the template's next part, as a token (or a failure). */
export function continueTemplate(): i32 {
  if (count == tokenCapacity) return FAIL_TOO_MANY;
  const at = pos;
  const head = templatePart(at);
  if (head < 0) return head;
  return push(head ? TEMPLATE_HEAD : TEMPLATE, P_NONE, at, 0);
}
