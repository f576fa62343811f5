import { sumCounters } from '../figures/counters.ts';
import { type Counters, type Coverage, emptyCounters, type FileCoverage } from '../model/coverage.ts';
import { LineArena } from '../model/line-buffer.ts';
import { ByteStrings, decodeBytes } from '../xml/byte-strings.ts';
import { BranchIds } from './lcov-branch-ids.ts';
import { LcovRecord } from './lcov-file.ts';
import { addFunction, addFunctionHits, handleRecord, type LcovState } from './lcov-records.ts';
import { type ByteParser, fail, Interner, MAX_LINE } from './shared.ts';

const MAX_LINE_BYTES = 1024 * 1024;

/**
 * LCOV tracefiles, scanned as bytes. Counters: line (DA), branch (BRDA), method (FN/FNDA); the
 * rest are null. The summary records (LF/LH, BRF/BRH, FNF/FNH) are checked for sanity but the
 * figures come from the data records, as `lcov --summary` computes them. Records for the same SF
 * merge. The common well-formed DA, BRDA, FN, FNDA and summary records are read straight from
 * the bytes; every other line (and any of those that looks unusual) goes through the checked
 * text path of lcov-records.ts, so errors and edge cases behave the same either way.
 */
export function lcovParser(): ByteParser {
  const state: LcovState = {
    records: new Map(),
    current: null,
    record: new LcovRecord(1024),
    sawRecord: false,
    names: new Interner(),
    branchIds: new BranchIds(),
    arena: new LineArena(),
  };
  const functionNames = new ByteStrings();
  let work: Uint8Array = new Uint8Array(1 << 16);
  let carried = 0;
  let lineNo = 0;

  /** Handles the complete lines of buffer; returns where the unfinished last line begins. */
  function lines(buffer: Uint8Array): number {
    const length = buffer.length;
    let start = 0;
    for (;;) {
      const file = state.current;
      // Most lines are DA records: read those to their newline here, without a search for it first.
      const next = file === null ? -1 : dataLine(file, buffer, start);
      if (next !== -1) {
        lineNo++;
        start = next;
        if (start >= length) return start;
        continue;
      }
      const newline = buffer.indexOf(10, start);
      if (newline === -1) return start;
      lineNo++;
      const end = newline > start && buffer[newline - 1] === 13 ? newline - 1 : newline;
      if (file === null || !fastRecord(file, buffer, start, end)) slowRecord(buffer, start, end);
      start = newline + 1;
      if (start >= length) return start;
    }
  }

  /**
   * A plain `DA:<line>,<count>` line ending in LF or CRLF, read in one pass: added, and the offset
   * after it; else -1 (anything else, or a number too long to be surely in range, is left to the
   * checked path). Reading past the end gives undefined, which is no digit and no newline.
   */
  function dataLine(file: LcovRecord, b: Uint8Array, start: number): number {
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

  function slowRecord(buffer: Uint8Array, start: number, end: number): void {
    handleRecord(state, decodeBytes(buffer, start, end), lineNo);
  }

  /** The common records, when exactly in their usual shape; false sends the line to the checked path. */
  function fastRecord(file: LcovRecord, b: Uint8Array, start: number, end: number): boolean {
    const c0 = b[start];
    if (c0 === 68 /* D */ && b[start + 1] === 65 && b[start + 2] === 58) {
      // DA:<line>,<count>[,<checksum>]
      const comma = digitsEnd(b, start + 3, end);
      if (b[comma] !== 44) return false;
      const countEnd = digitsEnd(b, comma + 1, end);
      if (countEnd !== end && b[countEnd] !== 44) return false;
      const line = digitsValue(b, start + 3, comma);
      const hits = digitsValue(b, comma + 1, countEnd);
      if (line < 1 || line > MAX_LINE || hits < 0) return false;
      file.addLine(line, hits);
      return true;
    }
    if (c0 === 66 /* B */ && b[start + 1] === 82 && b[start + 2] === 68 && b[start + 3] === 65 && b[start + 4] === 58) {
      // BRDA:<line>,<block>,<branch>,<taken> (line 0, which coverage.py writes, takes the text path)
      const c1 = digitsEnd(b, start + 5, end);
      if (b[c1] !== 44) return false;
      const c2 = digitsEnd(b, c1 + 1, end);
      if (b[c2] !== 44) return false;
      const c3 = digitsEnd(b, c2 + 1, end);
      if (b[c3] !== 44) return false;
      const line = digitsValue(b, start + 5, c1);
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
    if (c0 === 70 /* F */ && b[start + 1] === 78 /* N */) {
      const c2 = b[start + 2];
      if (c2 === 58 /* FN: */) return fastFunction(file, b, start + 3, end);
      if (c2 === 68 && b[start + 3] === 65 && b[start + 4] === 58) {
        // FNDA:<count>,<name>
        const comma = digitsEnd(b, start + 5, end);
        const hits = digitsValue(b, start + 5, comma);
        if (b[comma] !== 44 || hits < 0) return false;
        if (!file.hitsInFnOrder(b, comma + 1, end, hits)) {
          addFunctionHits(file, functionNames.get(b, comma + 1, end), hits);
        }
        return true;
      }
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

  /** FN:<line>,<name> or (lcov 2) FN:<line>,<end line>,<name>. */
  function fastFunction(file: LcovRecord, b: Uint8Array, from: number, end: number): boolean {
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
    file.namedFunction(addFunction(file, functionNames.get(b, nameStart, end), line, endLine), b, nameStart, end);
    return true;
  }

  function summary(b: Uint8Array, from: number, end: number): boolean {
    return digitsEnd(b, from, end) === end && digitsValue(b, from, end) >= 0;
  }

  return {
    write(chunk) {
      let buffer: Uint8Array;
      if (carried === 0) buffer = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
      else {
        const total = carried + chunk.length;
        if (total > work.length) work = grow(work, carried, total);
        work.set(chunk, carried);
        buffer = work.subarray(0, total);
      }
      const rest = lines(buffer);
      const left = buffer.length - rest;
      if (left > MAX_LINE_BYTES) fail('lcov', 'too-large', 'a line longer than 1 MiB', { line: lineNo + 1 });
      if (left > work.length) work = grow(work, 0, left);
      if (buffer.buffer === work.buffer) work.copyWithin(0, rest, buffer.length);
      else work.set(buffer.subarray(rest));
      carried = left;
    },
    end(): Coverage {
      if (carried > 0) {
        lineNo++;
        const end = work[carried - 1] === 13 ? carried - 1 : carried;
        handleRecord(state, decodeBytes(work, 0, end), lineNo);
        carried = 0;
      }
      if (state.current)
        fail('lcov', 'unexpected-eof', `record for ${state.current.path} lacks end_of_record`, { line: lineNo });
      if (!state.sawRecord) fail('lcov', 'empty-input', 'no SF records');
      const files: FileCoverage[] = [];
      for (const done of state.records.values()) {
        const file = done instanceof LcovRecord ? done.finish(state.branchIds, state.arena).file : done.file;
        // A path without any DA line is left out, functions and branches too, as lcov reads it ("empty files").
        const lines = file.counters.line;
        if (lines && lines.covered + lines.missed > 0) files.push(file);
      }
      state.records.clear();
      return { format: 'lcov', files, counters: files.length > 0 ? totals(files) : noneMeasured() };
    },
  };
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

function grow(work: Uint8Array, keep: number, needed: number): Uint8Array {
  let size = work.length * 2;
  while (size < needed) size *= 2;
  const next = new Uint8Array(size);
  next.set(work.subarray(0, keep));
  return next;
}

/** LCOV's three counters, nothing measured (every path was left out). */
function noneMeasured(): Counters {
  const none = () => ({ covered: 0, missed: 0 });
  return { ...emptyCounters(), line: none(), branch: none(), method: none() };
}

export function totals(files: readonly FileCoverage[]): Counters {
  const counters = emptyCounters();
  for (const kind of Object.keys(counters) as (keyof Counters)[]) {
    counters[kind] = sumCounters(files.map((f) => f.counters[kind]));
  }
  return counters;
}
