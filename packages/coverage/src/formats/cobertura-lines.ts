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

/** Takes a line read: its number and hits, and covered and total conditions (0 without branches). */
export type LineSink = (line: number, hits: number, covered: number, total: number) => void;

/**
 * Reads the run of usual `<line>` elements that starts at `lt` (the `<`), with only whitespace
 * between them, handing each to `add`: the offset after the last one's `/>`, or -1 when the
 * first is not such a line with valid values. The run stops before anything else (another
 * spelling, an invalid value, other markup, text) and before a line the buffer ends inside.
 */
export function readLineRun(b: Uint8Array, lt: number, add: LineSink): number {
  let end = -1;
  for (let at = lt; ; ) {
    const after = readLine(b, at, add);
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
