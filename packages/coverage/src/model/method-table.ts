import { type ClassCoverage, emptyCounters, type MethodCoverage } from './coverage.ts';
import { lazyProperty } from './lazy-property.ts';

/**
 * Report methods whose only figure is whether they ran (Cobertura's <method>s), in columns as a
 * parser reads them, made into MethodCoverage objects only when a class's `methods` is read (see
 * withLazyMethods). A 57 MB c8 report has 36k of them, three objects each, and a diff reads the
 * methods of the files it touches only.
 */
export class MethodTable {
  private readonly names: string[] = [];
  private readonly signatures: (string | null)[] = [];
  /** Start and end line per row; 0 where the method has no line (lines start at 1). */
  private ranges = new Int32Array(64);
  private ran = new Uint8Array(32);
  length = 0;

  /** A new row without lines: its index. */
  add(name: string, signature: string | null): number {
    const row = this.length++;
    if (row === this.ran.length) {
      const ranges = new Int32Array(row * 4);
      ranges.set(this.ranges);
      this.ranges = ranges;
      const ran = new Uint8Array(row * 2);
      ran.set(this.ran);
      this.ran = ran;
    }
    this.names.push(name);
    this.signatures.push(signature);
    this.ranges[row * 2] = 0;
    this.ranges[row * 2 + 1] = 0;
    this.ran[row] = 0;
    return row;
  }

  /** Widens the row's range to take in the line, which ran when hits > 0. */
  addLine(row: number, line: number, hits: number): void {
    const at = row * 2;
    const start = this.ranges[at] as number;
    if (start === 0 || line < start) this.ranges[at] = line;
    if (line > (this.ranges[at + 1] as number)) this.ranges[at + 1] = line;
    if (hits > 0) this.ran[row] = 1;
  }

  /** How many of rows from..to-1 ran. */
  covered(from: number, to: number): number {
    let covered = 0;
    for (let row = from; row < to; row++) covered += this.ran[row] as number;
    return covered;
  }

  /** Rows from..to-1 as methods, each with its method counter. */
  methods(from: number, to: number): MethodCoverage[] {
    const made: MethodCoverage[] = [];
    for (let row = from; row < to; row++) {
      const start = this.ranges[row * 2] as number;
      const hit = this.ran[row] as number;
      const counters = emptyCounters();
      counters.method = { covered: hit, missed: 1 - hit };
      made.push({
        name: this.names[row] as string,
        signature: this.signatures[row] as string | null,
        startLine: start === 0 ? null : start,
        endLine: start === 0 ? null : (this.ranges[row * 2 + 1] as number),
        counters,
      });
    }
    return made;
  }
}

/** A class whose `methods` are rows from..to-1 of the table, made on the first read (see lazyProperty). */
export function withLazyMethods(
  cls: Omit<ClassCoverage, 'methods'>,
  table: MethodTable,
  from: number,
  to: number,
): ClassCoverage {
  const { name, ...rest } = cls;
  const lazy: ClassCoverage = { name, methods: [], ...rest };
  lazyProperty(lazy, 'methods', () => table.methods(from, to));
  return lazy;
}
