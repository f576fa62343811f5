// AssemblyScript: runs of usual Cobertura <line> elements (src/formats/cobertura-lines.ts's
// readLineRun) compiled to WebAssembly (scripts/build.mjs). They are nearly all of a report's
// bytes, and V8's JIT needs tens of megabytes to warm up to what WebAssembly does from the start
// (a first parse of the 57 MB ECharts bench report: 410 against 460 ms, 70 ms of it in here).
// It takes a subset of what readLineRun takes, with the same values, and stops where it would
// stop, or earlier: a line out of order, hits above 2^31 - 1, a full output, fewer than
// ROOM_AFTER bytes left (so it never reads past the bytes given). The JavaScript side then goes
// on with readLineRun itself (cobertura-lines-wasm.test.ts compares the two on every spelling and
// on runs broken at random; the parser tests run with it and without).

/** Bytes a line may take at most (15-digit number and hits, 24-byte percentage, 9-digit counts). */
const ROOM_AFTER: i32 = 160;
/** Lines a call writes at most: four 32-bit numbers each (line, hits, covered, total). */
const OUTPUT_LINES: i32 = 4096;
const MAX_PERCENT_BYTES: i32 = 24;
const MAX_CONDITION_DIGITS: i32 = 9;
const MAX_DIGITS: i32 = 15;
const MAX_INT32: i64 = 2147483647;

// Spellings four bytes at a time, as the little-endian words load<u32> reads:
// `<line number="` (then `="`), `" hits="`, `" branch="false"` and `" branch="true" condition-coverage="`.
const LINE_NUMBER_1: u32 = 0x6e696c3c;
const LINE_NUMBER_2: u32 = 0x756e2065;
const LINE_NUMBER_3: u32 = 0x7265626d;
const HITS_1: u32 = 0x69682022;
const HITS_2: u32 = 0x223d7374;
const BRANCH_1: u32 = 0x72622022;
const BRANCH_2: u32 = 0x68636e61;
const FALSE_3: u32 = 0x6166223d;
const FALSE_4: u32 = 0x2265736c;
const TRUE_3: u32 = 0x7274223d;
const TRUE_4: u32 = 0x20226575;
const CONDITION_COVERAGE: StaticArray<u32> = [0x646e6f63, 0x6f697469, 0x6f632d6e, 0x61726576, 0x223d6567];

let input: usize = 0;
let output: usize = 0;
let end: i32 = 0;
let hitLines: i32 = 0;
let branchesCovered: i32 = 0;
let branchesTotal: i32 = 0;

/** Room for `size` input bytes, above the output (the memory grows as needed): where to copy them, or 0. */
export function inputAt(size: i32): usize {
  output = (__heap_base + 15) & ~(<usize>15);
  input = output + (<usize>OUTPUT_LINES << 4);
  const pages = <i32>((input + <usize>size + 0xffff) >> 16) - memory.size();
  if (pages > 0 && memory.grow(pages) < 0) return 0;
  return input;
}

export function outputAt(): usize {
  return output;
}
export function outputRoom(): i32 {
  return OUTPUT_LINES;
}
/** After readRun: the offset after the last line it took. */
export function runEnd(): i32 {
  return end;
}
export function runHitLines(): i32 {
  return hitLines;
}
export function runBranchesCovered(): i32 {
  return branchesCovered;
}
export function runBranchesTotal(): i32 {
  return branchesTotal;
}

let digitsEnd: i32 = 0;

/** 1 to 15 digits at `at` (never read past `at` + 16, within the room checked): the value or -1. */
@inline
function digits(at: i32): i64 {
  let value: i64 = 0;
  let i = at;
  const stop = at + MAX_DIGITS + 1;
  for (; i < stop; i++) {
    const d = <i32>load<u8>(input + <usize>i) - 48;
    if (<u32>d > 9) break;
    value = value * 10 + <i64>d;
  }
  digitsEnd = i;
  return i === at || i - at > MAX_DIGITS ? -1 : value;
}

@inline
function word(at: i32): u32 {
  return load<u32>(input + <usize>at);
}

@inline
function byte(at: i32): i32 {
  return <i32>load<u8>(input + <usize>at);
}

/**
 * The usual `<line>`s from `lt` (a `<`) on, of bytes [0, length) copied to inputAt, numbered above
 * `lastLine`: how many it wrote to outputAt (0 when the first is not one it takes); runEnd and the
 * tallies describe them.
 */
export function readRun(lt: i32, length: i32, lastLine: i32): i32 {
  let count: i32 = 0;
  let at = lt;
  let previous = lastLine;
  hitLines = 0;
  branchesCovered = 0;
  branchesTotal = 0;
  end = lt;
  while (count < OUTPUT_LINES && at + ROOM_AFTER <= length) {
    if (
      word(at) !== LINE_NUMBER_1 ||
      word(at + 4) !== LINE_NUMBER_2 ||
      word(at + 8) !== LINE_NUMBER_3 ||
      byte(at + 12) !== 61 ||
      byte(at + 13) !== 34
    )
      break;
    const line = digits(at + 14);
    if (line < 1 || line > MAX_INT32 || line <= <i64>previous) break;
    const hitsAt = digitsEnd;
    if (word(hitsAt) !== HITS_1 || word(hitsAt + 4) !== HITS_2) break;
    const hits = digits(hitsAt + 8);
    if (hits < 0 || hits > MAX_INT32) break;
    let p = digitsEnd;
    let covered: i32 = 0;
    let total: i32 = 0;
    if (byte(p + 1) === 47) {
      if (byte(p) !== 34 || byte(p + 2) !== 62) break;
      p += 3;
    } else if (byte(p + 10) === 102) {
      if (
        word(p) !== BRANCH_1 ||
        word(p + 4) !== BRANCH_2 ||
        word(p + 8) !== FALSE_3 ||
        word(p + 12) !== FALSE_4 ||
        byte(p + 16) !== 47 ||
        byte(p + 17) !== 62
      )
        break;
      p += 18;
    } else {
      p = conditions(p);
      if (p < 0) break;
      covered = conditionsCovered;
      total = conditionsTotal;
    }
    const slot = output + (<usize>count << 4);
    store<i32>(slot, <i32>line);
    store<i32>(slot, <i32>hits, 4);
    store<i32>(slot, covered, 8);
    store<i32>(slot, total, 12);
    count++;
    if (hits > 0) hitLines++;
    branchesCovered += covered;
    branchesTotal += total;
    previous = <i32>line;
    end = p;
    // Whitespace, then the next line's `<l`, or the run is over.
    while (p < length) {
      const c = byte(p);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
      p++;
    }
    if (p + 1 >= length || byte(p) !== 60 || byte(p + 1) !== 108) break;
    at = p;
  }
  return count;
}

let conditionsCovered: i32 = 0;
let conditionsTotal: i32 = 0;

/** `" branch="true" condition-coverage="P% (C/T)"/>` at `at`: the offset after it, or -1. */
function conditions(at: i32): i32 {
  if (word(at) !== BRANCH_1 || word(at + 4) !== BRANCH_2 || word(at + 8) !== TRUE_3 || word(at + 12) !== TRUE_4)
    return -1;
  for (let k = 0; k < 5; k++) if (word(at + 16 + (k << 2)) !== unchecked(CONDITION_COVERAGE[k])) return -1;
  let i = at + 36;
  const stop = i + MAX_PERCENT_BYTES;
  while (i < stop) {
    const c = byte(i);
    if (!((<u32>(c - 48) <= 9) || c === 46)) break;
    i++;
  }
  if (byte(i) !== 37 || byte(i + 1) !== 32 || byte(i + 2) !== 40) return -1;
  const covered = digits(i + 3);
  if (covered < 0 || digitsEnd - (i + 3) > MAX_CONDITION_DIGITS || byte(digitsEnd) !== 47) return -1;
  const totalAt = digitsEnd + 1;
  const total = digits(totalAt);
  if (total < 0 || digitsEnd - totalAt > MAX_CONDITION_DIGITS || covered > total) return -1;
  const close = digitsEnd;
  if (byte(close) !== 41 || byte(close + 1) !== 34 || byte(close + 2) !== 47 || byte(close + 3) !== 62) return -1;
  conditionsCovered = <i32>covered;
  conditionsTotal = <i32>total;
  return close + 4;
}
