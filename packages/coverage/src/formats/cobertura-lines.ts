import { ascii, digits, digitsEnd, expect, skipSpace } from '../xml/fast-bytes.ts';
import { MAX_LINE } from './shared.ts';

/**
 * The `<line>` spellings that make up nearly all of a Cobertura report, read straight from the
 * bytes (the shortcut behind `XmlHandler.fastOpen`):
 *
 *   <line number="N" hits="N"/>
 *   <line number="N" hits="N" branch="false"/>
 *   <line number="N" hits="N" branch="true" condition-coverage="P% (C/T)"/>
 *
 * (coverage.py, gcovr and istanbul/c8 write these). Anything else, including every value the
 * general attribute path would refuse, is left to that path, which then raises the error.
 */

const LAST_LINE = MAX_LINE;

const LINE_NUMBER = ascii('<line number="');
const HITS = ascii('" hits="');
const CLOSE = ascii('"/>');
const NO_BRANCH_CLOSE = ascii('" branch="false"/>');
const CONDITIONS = ascii('" branch="true" condition-coverage="');
const CONDITIONS_CLOSE = ascii(')"/>');
/** The percentage before " (C/T)": digits and a decimal point, as JavaScript prints a float. */
const MAX_PERCENT_BYTES = 24;
/** condition-coverage's counts have 1 to 9 digits each (the general path's pattern). */
const MAX_CONDITION_DIGITS = 9;

/** Four ASCII bytes of `text` from `at` as the little-endian 32-bit word a DataView reads there. */
function word(text: string, at: number): number {
  let value = 0;
  for (let k = 3; k >= 0; k--) value = (value << 8) | text.charCodeAt(at + k);
  return value;
}

// The spellings four bytes at a time (a byte at a time they cost three times as long): LINE_NUMBER
// is three words and `="`, HITS two words, NO_BRANCH_CLOSE four words and `/>`.
const LINE_NUMBER_1 = word('<line number="', 0);
const LINE_NUMBER_2 = word('<line number="', 4);
const LINE_NUMBER_3 = word('<line number="', 8);
const HITS_1 = word('" hits="', 0);
const HITS_2 = word('" hits="', 4);
const NO_BRANCH_1 = word('" branch="false"/>', 0);
const NO_BRANCH_2 = word('" branch="false"/>', 4);
const NO_BRANCH_3 = word('" branch="false"/>', 8);
const NO_BRANCH_4 = word('" branch="false"/>', 12);
/**
 * Bytes a line needs after its `<` for the word path, which reads without bounds checks of its
 * own: the longest line it takes (15-digit number and hits, branch="false") and the look-ahead.
 */
const WORD_PATH_BYTES = 80;

let view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
let viewed: Uint8Array | null = null;

/** A DataView over `b`, made once per buffer. */
function viewOf(b: Uint8Array): DataView {
  if (b !== viewed) {
    view = new DataView(b.buffer, b.byteOffset, b.length);
    viewed = b;
  }
  return view;
}

/** Takes a line read: its number and hits, and covered and total conditions (0 without branches). */
export type LineSink = (line: number, hits: number, covered: number, total: number) => void;

/**
 * Reads the run of usual `<line>` elements that starts at `lt` (the `<`), with only whitespace
 * between them, handing each to `add`: the offset after the last one's `/>`, or -1 when the
 * first is not such a line with valid values. The run stops before anything else (another
 * spelling, an invalid value, other markup, text) and before a line the buffer ends inside.
 */
export function readLineRun(b: Uint8Array, lt: number, add: LineSink): number {
  const words = viewOf(b);
  const wordsEnd = b.length - WORD_PATH_BYTES;
  let end = -1;
  for (let at = lt; ; ) {
    const after = at <= wordsEnd ? readLineByWords(b, words, at, add) : readLine(b, at, add);
    if (after === -1) return end;
    end = after;
    at = skipSpace(b, after);
    if (at + 1 >= b.length || b[at] !== 60 /* < */ || b[at + 1] !== 108 /* l */) return end;
  }
}

/** One usual `<line>` at lt: the offset after it, or -1 (then `add` was not called). */
function readLine(b: Uint8Array, lt: number, add: LineSink): number {
  const numberStart = expect(b, lt, LINE_NUMBER);
  if (numberStart === -1) return -1;
  const line = digits(b, numberStart);
  if (line < 1 || line > LAST_LINE) return -1;
  const hitsStart = expect(b, digitsEnd, HITS);
  if (hitsStart === -1) return -1;
  const hits = digits(b, hitsStart);
  if (hits < 0) return -1;
  const at = digitsEnd;
  // Never a read past the end (optimised code would be thrown away for it): an element the
  // buffer ends inside is left for the general path, which waits for the next chunk.
  if (at + 10 >= b.length && (at + 2 >= b.length || b[at + 1] !== 47)) return -1;
  let end: number;
  if (b[at + 1] === 47 /* / */) end = expect(b, at, CLOSE);
  else if (b[at + 10] === 102 /* the f of branch="false" */) end = expect(b, at, NO_BRANCH_CLOSE);
  else {
    const percentStart = expect(b, at, CONDITIONS);
    end = percentStart === -1 ? -1 : readConditions(b, percentStart);
    if (end !== -1) {
      add(line, hits, conditionsCovered, conditionsTotal);
      return end;
    }
  }
  if (end !== -1) add(line, hits, 0, 0);
  return end;
}

/**
 * readLine for a line with WORD_PATH_BYTES after it in the buffer: the spellings compared four
 * bytes at a time. Reads the same bytes as readLine and takes the same lines.
 */
function readLineByWords(b: Uint8Array, words: DataView, lt: number, add: LineSink): number {
  if (
    words.getInt32(lt, true) !== LINE_NUMBER_1 ||
    words.getInt32(lt + 4, true) !== LINE_NUMBER_2 ||
    words.getInt32(lt + 8, true) !== LINE_NUMBER_3 ||
    b[lt + 12] !== 61 /* = */ ||
    b[lt + 13] !== 34 /* " */
  )
    return -1;
  const line = digits(b, lt + 14);
  if (line < 1 || line > LAST_LINE) return -1;
  const hitsAt = digitsEnd;
  if (words.getInt32(hitsAt, true) !== HITS_1 || words.getInt32(hitsAt + 4, true) !== HITS_2) return -1;
  const hits = digits(b, hitsAt + 8);
  if (hits < 0) return -1;
  const at = digitsEnd;
  if (b[at + 1] === 47 /* / */) {
    if (b[at] !== 34 /* " */ || b[at + 2] !== 62 /* > */) return -1;
    add(line, hits, 0, 0);
    return at + 3;
  }
  if (b[at + 10] !== 102 /* the f of branch="false" */) return readLine(b, lt, add);
  if (
    words.getInt32(at, true) !== NO_BRANCH_1 ||
    words.getInt32(at + 4, true) !== NO_BRANCH_2 ||
    words.getInt32(at + 8, true) !== NO_BRANCH_3 ||
    words.getInt32(at + 12, true) !== NO_BRANCH_4 ||
    b[at + 16] !== 47 /* / */ ||
    b[at + 17] !== 62 /* > */
  )
    return -1;
  add(line, hits, 0, 0);
  return at + 18;
}

let conditionsCovered = 0;
let conditionsTotal = 0;

/** `P% (C/T)"/>` from the percentage on: the offset after it, or -1. */
function readConditions(b: Uint8Array, percentStart: number): number {
  let i = percentStart;
  const stop = Math.min(b.length, percentStart + MAX_PERCENT_BYTES);
  while (i < stop && (isDigit(b[i] as number) || b[i] === 46) /* . */) i++;
  if (i + 3 >= b.length || b[i] !== 37 /* % */ || b[i + 1] !== 32 || b[i + 2] !== 40 /* ( */) return -1;
  const covered = digits(b, i + 3);
  if (covered < 0 || digitsEnd - (i + 3) > MAX_CONDITION_DIGITS) return -1;
  if (digitsEnd >= b.length || b[digitsEnd] !== 47 /* / */) return -1;
  const totalStart = digitsEnd + 1;
  const total = digits(b, totalStart);
  if (total < 0 || digitsEnd - totalStart > MAX_CONDITION_DIGITS || covered > total) return -1;
  conditionsCovered = covered;
  conditionsTotal = total;
  return expect(b, digitsEnd, CONDITIONS_CLOSE);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
