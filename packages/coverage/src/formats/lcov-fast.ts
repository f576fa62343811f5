import type { ByteStrings } from '../xml/byte-strings.ts';
import type { LcovRecord } from './lcov-file.ts';
import { addFunction, addFunctionHits } from './lcov-records.ts';
import { MAX_LINE } from './shared.ts';

/**
 * The common LCOV records read straight from the bytes, when exactly in their usual shape. Each
 * reader adds what it read to the open record, or declines (false, -1) and adds nothing: the
 * line then goes through the checked text path of lcov-records.ts.
 */

/**
 * A plain `DA:<line>,<count>` line ending in LF or CRLF, read in one pass: added, and the offset
 * after it; else -1 (anything else, or a number too long to be surely in range, is left to the
 * checked path). Reading past the end gives undefined, which is no digit and no newline.
 */
export function dataLine(file: LcovRecord, b: Uint8Array, start: number): number {
  if (b[start] !== 68 /* D */ || b[start + 1] !== 65 || b[start + 2] !== 58) return -1;
  let i = start + 3;
  let c = b[i] as number;
  let line = 0;
  while (c >= 48 && c <= 57) {
    line = line * 10 + (c - 48);
    c = b[++i] as number;
  }
  if (c !== 44 || i === start + 3 || i > start + 13 || line < 1 || line > MAX_LINE) return -1;
  const countStart = ++i;
  c = b[i] as number;
  let hits = 0;
  while (c >= 48 && c <= 57) {
    hits = hits * 10 + (c - 48);
    c = b[++i] as number;
  }
  if (i === countStart || i > countStart + 15) return -1;
  if (c === 13) c = b[++i] as number;
  if (c !== 10) return -1;
  file.addLine(line, hits);
  return i + 1;
}

/** The line b[start, end) (no line end) when it is a usual DA, BRDA, FN, FNDA or summary record. */
export function fastRecord(file: LcovRecord, b: Uint8Array, start: number, end: number, names: ByteStrings): boolean {
  const c0 = b[start];
  if (c0 === 68 /* D */ && b[start + 1] === 65 && b[start + 2] === 58) return dataRecord(file, b, start + 3, end);
  if (c0 === 66 /* B */ && b[start + 1] === 82 && b[start + 2] === 68 && b[start + 3] === 65 && b[start + 4] === 58) {
    return branchRecord(file, b, start + 5, end);
  }
  if (c0 === 70 /* F */ && b[start + 1] === 78 /* N */) {
    const c2 = b[start + 2];
    if (c2 === 58 /* FN: */) return functionRecord(file, b, start + 3, end, names);
    if (c2 === 68 && b[start + 3] === 65 && b[start + 4] === 58) return functionHits(file, b, start + 5, end, names);
    if ((c2 === 70 || c2 === 72) && b[start + 3] === 58) return summary(b, start + 4, end); // FNF FNH
    return false;
  }
  if (c0 === 76 /* L */ && (b[start + 1] === 70 || b[start + 1] === 72) && b[start + 2] === 58) {
    return summary(b, start + 3, end); // LF LH
  }
  if (c0 === 66 && b[start + 1] === 82 && (b[start + 2] === 70 || b[start + 2] === 72) && b[start + 3] === 58) {
    return summary(b, start + 4, end); // BRF BRH
  }
  return false;
}

/** DA:<line>,<count>[,<checksum>], from after the colon. */
function dataRecord(file: LcovRecord, b: Uint8Array, from: number, end: number): boolean {
  const comma = digitsEnd(b, from, end);
  if (b[comma] !== 44) return false;
  const countEnd = digitsEnd(b, comma + 1, end);
  if (countEnd !== end && b[countEnd] !== 44) return false;
  const line = digitsValue(b, from, comma);
  const hits = digitsValue(b, comma + 1, countEnd);
  if (line < 1 || line > MAX_LINE || hits < 0) return false;
  file.addLine(line, hits);
  return true;
}

/** BRDA:<line>,<block>,<branch>,<taken> (line 0, which coverage.py writes, takes the text path). */
function branchRecord(file: LcovRecord, b: Uint8Array, from: number, end: number): boolean {
  const c1 = digitsEnd(b, from, end);
  if (b[c1] !== 44) return false;
  const c2 = digitsEnd(b, c1 + 1, end);
  if (b[c2] !== 44) return false;
  const c3 = digitsEnd(b, c2 + 1, end);
  if (b[c3] !== 44) return false;
  const line = digitsValue(b, from, c1);
  const block = canonicalValue(b, c1 + 1, c2);
  const branch = canonicalValue(b, c2 + 1, c3);
  const taken =
    end === c3 + 2 && b[c3 + 1] === 45 /* - */
      ? 0
      : digitsEnd(b, c3 + 1, end) === end
        ? digitsValue(b, c3 + 1, end)
        : -1;
  if (line < 1 || line > MAX_LINE || block < 0 || branch < 0 || taken < 0) return false;
  file.addBranch(line, block, branch, taken);
  return true;
}

/** FN:<line>,<name> or (lcov 2) FN:<line>,<end line>,<name>. */
function functionRecord(file: LcovRecord, b: Uint8Array, from: number, end: number, names: ByteStrings): boolean {
  const comma = digitsEnd(b, from, end);
  const line = digitsValue(b, from, comma);
  if (b[comma] !== 44 || line < 1 || line > MAX_LINE) return false;
  let nameStart = comma + 1;
  let endLine: number | null = null;
  const second = digitsEnd(b, nameStart, end);
  if (second > nameStart && b[second] === 44) {
    endLine = digitsValue(b, nameStart, second);
    if (endLine < 1 || endLine > MAX_LINE) return false;
    nameStart = second + 1;
  }
  if (nameStart >= end) return false;
  file.namedFunction(addFunction(file, names.get(b, nameStart, end), line, endLine), b, nameStart, end);
  return true;
}

/** FNDA:<count>,<name>, from after the colon. */
function functionHits(file: LcovRecord, b: Uint8Array, from: number, end: number, names: ByteStrings): boolean {
  const comma = digitsEnd(b, from, end);
  const hits = digitsValue(b, from, comma);
  if (b[comma] !== 44 || hits < 0) return false;
  if (!file.hitsInFnOrder(b, comma + 1, end, hits)) addFunctionHits(file, names.get(b, comma + 1, end), hits);
  return true;
}

/** LF, LH, BRF, BRH, FNF, FNH: checked to be a count, the figures come from the data records. */
function summary(b: Uint8Array, from: number, end: number): boolean {
  return digitsEnd(b, from, end) === end && digitsValue(b, from, end) >= 0;
}

/** Offset of the first non-digit at or after from (at most end). */
function digitsEnd(b: Uint8Array, from: number, end: number): number {
  let i = from;
  while (i < end) {
    const c = b[i] as number;
    if (c < 48 || c > 57) break;
    i++;
  }
  return i;
}

/** The digits of b[from, to) as a number; -1 when empty or above 2^53. */
function digitsValue(b: Uint8Array, from: number, to: number): number {
  if (to <= from || to - from > 16) return -1;
  let value = 0;
  for (let i = from; i < to; i++) value = value * 10 + ((b[i] as number) - 48);
  return Number.isSafeInteger(value) ? value : -1;
}

/** Digits without a leading zero (the text path keys "01" apart from "1"); -1 otherwise. */
function canonicalValue(b: Uint8Array, from: number, to: number): number {
  if (to - from > 1 && b[from] === 48) return -1;
  const value = digitsValue(b, from, to);
  return value <= 999_999_999_999_999 ? value : -1;
}
