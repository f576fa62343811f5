import { sumCounters } from '../figures/counters.ts';
import { type Counters, type Coverage, emptyCounters, type FileCoverage } from '../model/coverage.ts';
import { LineArena } from '../model/line-buffer.ts';
import { ByteStrings, decodeBytes } from '../xml/byte-strings.ts';
import { BranchIds } from './lcov-branch-ids.ts';
import { dataLine, fastRecord } from './lcov-fast.ts';
import { LcovRecord } from './lcov-file.ts';
import { handleRecord, type LcovState } from './lcov-records.ts';
import { type ByteParser, fail, Interner } from './shared.ts';

const MAX_LINE_BYTES = 1024 * 1024;

/**
 * LCOV tracefiles, scanned as bytes. Counters: line (DA), branch (BRDA), method (FN/FNDA); the
 * rest are null. The summary records (LF/LH, BRF/BRH, FNF/FNH) are checked for sanity but the
 * figures come from the data records, as `lcov --summary` computes them. Records for the same SF
 * merge. The common well-formed DA, BRDA, FN, FNDA and summary records are read straight from
 * the bytes (lcov-fast.ts); every other line (and any of those that looks unusual) goes through
 * the checked text path of lcov-records.ts, so errors and edge cases behave the same either way.
 */
export function lcovParser(): ByteParser {
  return new LcovReader();
}

/** Cuts the chunks into lines, carrying an unfinished last line over to the next chunk. */
class LcovReader implements ByteParser {
  private readonly state: LcovState = {
    records: new Map(),
    current: null,
    record: new LcovRecord(1024),
    sawRecord: false,
    names: new Interner(),
    branchIds: new BranchIds(),
    arena: new LineArena(),
  };
  private readonly functionNames = new ByteStrings();
  private work: Uint8Array = new Uint8Array(1 << 16);
  private carried = 0;
  private lineNo = 0;

  write(chunk: Uint8Array): void {
    const carried = this.carried;
    let buffer: Uint8Array;
    if (carried === 0) buffer = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
    else {
      const total = carried + chunk.length;
      if (total > this.work.length) this.work = grow(this.work, carried, total);
      this.work.set(chunk, carried);
      buffer = this.work.subarray(0, total);
    }
    const rest = this.lines(buffer);
    const left = buffer.length - rest;
    if (left > MAX_LINE_BYTES) fail('lcov', 'too-large', 'a line longer than 1 MiB', { line: this.lineNo + 1 });
    if (left > this.work.length) this.work = grow(this.work, 0, left);
    if (buffer.buffer === this.work.buffer) this.work.copyWithin(0, rest, buffer.length);
    else this.work.set(buffer.subarray(rest));
    this.carried = left;
  }

  end(): Coverage {
    const state = this.state;
    if (this.carried > 0) {
      this.lineNo++;
      const end = this.work[this.carried - 1] === 13 ? this.carried - 1 : this.carried;
      handleRecord(state, decodeBytes(this.work, 0, end), this.lineNo);
      this.carried = 0;
    }
    if (state.current)
      fail('lcov', 'unexpected-eof', `record for ${state.current.path} lacks end_of_record`, { line: this.lineNo });
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
  }

  /** Handles the complete lines of buffer; returns where the unfinished last line begins. */
  private lines(buffer: Uint8Array): number {
    const state = this.state;
    const length = buffer.length;
    let start = 0;
    for (;;) {
      const file = state.current;
      // Most lines are DA records: read those to their newline here, without a search for it first.
      const next = file === null ? -1 : dataLine(file, buffer, start);
      if (next !== -1) {
        this.lineNo++;
        start = next;
        if (start >= length) return start;
        continue;
      }
      const newline = buffer.indexOf(10, start);
      if (newline === -1) return start;
      this.lineNo++;
      const end = newline > start && buffer[newline - 1] === 13 ? newline - 1 : newline;
      if (file === null || !fastRecord(file, buffer, start, end, this.functionNames)) {
        handleRecord(state, decodeBytes(buffer, start, end), this.lineNo);
      }
      start = newline + 1;
      if (start >= length) return start;
    }
  }
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
