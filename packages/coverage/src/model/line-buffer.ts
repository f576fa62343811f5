import type { FileCoverage, LineCoverage } from './coverage.ts';
import { lazyProperty, unboxed } from './lazy-property.ts';
import { firstAtLeast } from './sorted.ts';

/** Read access to a file's lines (sorted by number) whether they are packed or objects. */
export interface LineColumns {
  readonly length: number;
  /** Index of the first line numbered at least `line`; `length` when there is none. */
  firstAtLeast(line: number): number;
  line(index: number): number;
  hits(index: number): number;
  branchesCovered(index: number): number;
  branchesTotal(index: number): number;
  instructionsCovered(index: number): number | null;
  instructionsMissed(index: number): number | null;
  /** Sums over the lines numbered `first` to `last` that `keep` accepts (asked in ascending order). */
  sum(first: number, last: number, keep: (line: number) => boolean): LineSums;
}

export interface LineSums {
  lines: number;
  /** Lines with hits. */
  hit: number;
  branchesCovered: number;
  branchesTotal: number;
  /** Null unless every line summed has instruction counts (JaCoCo's). */
  instructionsCovered: number | null;
  instructionsMissed: number | null;
}

const FIELDS = 4;

/** Lines per block of an arena: 2 MiB. */
const BLOCK_LINES = 1 << 17;
/**
 * Hits above this are kept beside the block (a 32-bit field holds the others, and every other
 * field: line numbers and branch counts stay below it), the field saying so with -1.
 */
const MAX_PACKED_HITS = 2 ** 31 - 1;
const ELSEWHERE = -1;
/** Room a file's lines first get, in lines; it doubles (moving them) when full. */
const FIRST_ROOM = 32;

/**
 * Blocks that the line buffers of one parse take their room from, so that a report's thousands
 * of files need a few large allocations, not an ArrayBuffer each (each is costly, and they add
 * up to garbage collections for external memory).
 */
export class LineArena {
  block = new Int32Array(0);
  used = 0;

  /** `size` numbers of room: their offset in `this.block`, which may be a new block. */
  take(size: number): number {
    if (this.used + size > this.block.length) {
      this.block = new Int32Array(Math.max(BLOCK_LINES * FIELDS, size));
      this.used = 0;
    }
    const at = this.used;
    this.used += size;
    return at;
  }

  /** Adds `size` numbers to the room ending at `end`, when that is the last room taken and the block has them. */
  extend(block: Int32Array, end: number, size: number): boolean {
    if (block !== this.block || end !== this.used || end + size > block.length) return false;
    this.used += size;
    return true;
  }
}

/**
 * A file's lines as a parser reads them, four 32-bit numbers each (line, hits, covered and total
 * branches) in room taken from a LineArena: 16 bytes a line. Every fresh page costs a fault on its
 * first write, and with 64-bit numbers (32 bytes a line) those faults showed in the parse's time. The figures read them through `lineColumns`;
 * LineCoverage objects are made only when `file.lines` is first read (see withLazyLines). A 57 MB
 * Cobertura report has 870k lines: as objects they cost more in garbage collection than their
 * parsing, and the command line never needs them.
 */
export class LineBuffer implements LineColumns {
  private values = new Int32Array(0);
  /** Hits above MAX_PACKED_HITS by line index: rare (a line run 2^31 times). */
  private bigHits: Map<number, number> | null = null;
  private start = 0;
  private room = 0;
  private made: LineCoverage[] | null = null;
  length = 0;

  constructor(private readonly arena: LineArena) {}

  push(line: number, hits: number, branchesCovered: number, branchesTotal: number): void {
    if (this.length === this.room) this.grow();
    const values = this.values;
    let at = this.start + this.length * FIELDS;
    values[at++] = line;
    if (hits > MAX_PACKED_HITS) {
      this.bigHits ??= new Map();
      this.bigHits.set(this.length, hits);
      values[at++] = ELSEWHERE;
    } else values[at++] = hits;
    values[at++] = branchesCovered;
    values[at] = branchesTotal;
    this.length++;
  }

  /**
   * Appends `count` lines of four numbers each (line, hits, covered and total branches) from
   * `rows`, hits within the packed range.
   */
  pushRows(rows: Int32Array, count: number): void {
    while (this.room - this.length < count) this.grow();
    this.values.set(rows.subarray(0, count * FIELDS), this.start + this.length * FIELDS);
    this.length += count;
  }

  /** Doubles the room: in place when it ends the arena's last room, else moved to new room. */
  private grow(): void {
    const more = Math.max(FIRST_ROOM, this.room);
    const end = this.start + this.room * FIELDS;
    if (!this.arena.extend(this.values, end, more * FIELDS)) {
      const at = this.arena.take((this.room + more) * FIELDS);
      const block = this.arena.block;
      block.set(this.values.subarray(this.start, this.start + this.length * FIELDS), at);
      this.values = block;
      this.start = at;
    }
    this.room += more;
  }

  /** The number of the last line pushed, or 0. */
  lastLine(): number {
    return this.length === 0 ? 0 : this.line(this.length - 1);
  }

  firstAtLeast(line: number): number {
    const values = this.values;
    const start = this.start;
    let low = 0;
    let high = this.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((values[start + mid * FIELDS] as number) < line) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  sum(first: number, last: number, keep: (line: number) => boolean): LineSums {
    const values = this.values;
    let lines = 0;
    let hit = 0;
    let branchesCovered = 0;
    let branchesTotal = 0;
    const end = this.start + this.length * FIELDS;
    for (let at = this.start + this.firstAtLeast(first) * FIELDS; at < end; at += FIELDS) {
      const line = values[at] as number;
      if (line > last) break;
      if (!keep(line)) continue;
      lines++;
      if ((values[at + 1] as number) !== 0) hit++;
      branchesCovered += values[at + 2] as number;
      branchesTotal += values[at + 3] as number;
    }
    return { lines, hit, branchesCovered, branchesTotal, instructionsCovered: null, instructionsMissed: null };
  }

  line(index: number): number {
    return this.values[this.start + index * FIELDS] as number;
  }

  hits(index: number): number {
    const hits = this.values[this.start + index * FIELDS + 1] as number;
    return hits === ELSEWHERE ? (this.bigHits?.get(index) as number) : hits;
  }

  branchesCovered(index: number): number {
    return this.values[this.start + index * FIELDS + 2] as number;
  }

  branchesTotal(index: number): number {
    return this.values[this.start + index * FIELDS + 3] as number;
  }

  instructionsCovered(): null {
    return null;
  }

  instructionsMissed(): null {
    return null;
  }

  get isMade(): boolean {
    return this.made !== null;
  }

  /** The lines as objects, made once: later calls return the same array (pushes must be over). */
  lines(): LineCoverage[] {
    if (this.made) return this.made;
    const made = new Array<LineCoverage>(this.length);
    for (let i = 0; i < this.length; i++) {
      made[i] = {
        line: unboxed(this.line(i)),
        hits: unboxed(this.hits(i)),
        branchesCovered: unboxed(this.branchesCovered(i)),
        branchesTotal: unboxed(this.branchesTotal(i)),
        instructionsCovered: null,
        instructionsMissed: null,
      };
    }
    this.made = made;
    return made;
  }
}

class ObjectColumns implements LineColumns {
  constructor(private readonly lines: readonly LineCoverage[]) {}

  get length(): number {
    return this.lines.length;
  }

  firstAtLeast(line: number): number {
    return firstAtLeast(this.lines, line, (l) => l.line);
  }

  sum(first: number, last: number, keep: (line: number) => boolean): LineSums {
    let lines = 0;
    let hit = 0;
    let branchesCovered = 0;
    let branchesTotal = 0;
    let instructionsCovered: number | null = 0;
    let instructionsMissed: number | null = 0;
    for (let i = this.firstAtLeast(first); i < this.lines.length; i++) {
      const line = this.lines[i] as LineCoverage;
      if (line.line > last) break;
      if (!keep(line.line)) continue;
      lines++;
      if (line.hits > 0) hit++;
      branchesCovered += line.branchesCovered;
      branchesTotal += line.branchesTotal;
      // Once a line lacks them, the sums have none.
      const covered = line.instructionsCovered;
      const missed = line.instructionsMissed;
      if (covered === null || missed === null || instructionsCovered === null || instructionsMissed === null) {
        instructionsCovered = null;
        instructionsMissed = null;
      } else {
        instructionsCovered += covered;
        instructionsMissed += missed;
      }
    }
    return { lines, hit, branchesCovered, branchesTotal, instructionsCovered, instructionsMissed };
  }

  line(index: number): number {
    return (this.lines[index] as LineCoverage).line;
  }

  hits(index: number): number {
    return (this.lines[index] as LineCoverage).hits;
  }

  branchesCovered(index: number): number {
    return (this.lines[index] as LineCoverage).branchesCovered;
  }

  branchesTotal(index: number): number {
    return (this.lines[index] as LineCoverage).branchesTotal;
  }

  instructionsCovered(index: number): number | null {
    return (this.lines[index] as LineCoverage).instructionsCovered;
  }

  instructionsMissed(index: number): number | null {
    return (this.lines[index] as LineCoverage).instructionsMissed;
  }
}

/** Files whose `lines` are still the buffer's, not yet made into objects or replaced. */
const packed = new WeakMap<FileCoverage, LineBuffer>();

/** The file's lines for reading: the packed ones while no object was made, else `file.lines`. */
export function lineColumns(file: FileCoverage): LineColumns {
  const buffer = packed.get(file);
  return buffer && !buffer.isMade ? buffer : new ObjectColumns(file.lines);
}

/**
 * `file` with a `lines` property that makes the buffer's line objects on its first read (see
 * lazyProperty); until then the figures read them packed (lineColumns), and withPath keeps them so.
 */
export function withLazyLines(file: Omit<FileCoverage, 'lines'>, buffer: LineBuffer): FileCoverage {
  const { path, language, ...rest } = file;
  const lazy: FileCoverage = { path, language, lines: [], ...rest };
  lazyProperty(
    lazy,
    'lines',
    () => buffer.lines(),
    (settled) => packed.delete(settled),
  );
  packed.set(lazy, buffer);
  return lazy;
}

/** A copy of `file` under another path; packed lines stay packed (a spread would make them). */
export function withPath(file: FileCoverage, path: string): FileCoverage {
  const descriptors = Object.getOwnPropertyDescriptors(file);
  descriptors.path = { value: path, writable: true, enumerable: true, configurable: true };
  const copy = Object.defineProperties({}, descriptors) as FileCoverage;
  const buffer = packed.get(file);
  if (buffer) packed.set(copy, buffer);
  return copy;
}
