/** What this file uses of the WebAssembly API (its types are in lib.dom, which this package leaves out). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
};

/** The exports of assembly/cobertura-lines.ts (see there). */
interface LineReaderExports {
  memory: { buffer: ArrayBuffer };
  inputAt(size: number): number;
  outputAt(): number;
  outputRoom(): number;
  readRun(lt: number, length: number, lastLine: number): number;
  runEnd(): number;
  runHitLines(): number;
  runBranchesCovered(): number;
  runBranchesTotal(): number;
}

let reader: LineReaderExports | null = null;
let preferred = true;

/**
 * Installs readLineRun compiled to WebAssembly (assembly/cobertura-lines.ts; node/compiled.ts
 * reads it): from then on CompiledLineRuns reads the runs it can. False when the bytes are not
 * a working module.
 */
export function installCompiledLineReader(bytes: Uint8Array): boolean {
  try {
    const candidate = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as LineReaderExports;
    if (typeof candidate.readRun !== 'function' || typeof candidate.inputAt !== 'function') return false;
    reader = candidate;
    return true;
  } catch {
    return false;
  }
}

/** Whether parsers use the compiled reader when there is one (tests compare the two). */
export function preferCompiledLineReader(prefer: boolean): void {
  preferred = prefer;
}

/**
 * One parse's use of the compiled reader: the bytes a run is read from are copied into its memory
 * once per buffer (a chunk of the report; the copy costs a hundredth of reading it). After a
 * `read` that returns n > 0, `rows` holds n lines of four numbers (line, hits, covered and total
 * branches), and `end` and the tallies describe them.
 */
export class CompiledLineRuns {
  private copied: Uint8Array | null = null;
  rows = new Int32Array(0);
  end = 0;
  hitLines = 0;
  branchesCovered = 0;
  branchesTotal = 0;

  private constructor(private readonly w: LineReaderExports) {}

  /** A reader for one parse, or null when none is installed (the JavaScript path reads every run). */
  static open(): CompiledLineRuns | null {
    return reader && preferred ? new CompiledLineRuns(reader) : null;
  }

  /** Forgets the copy: the next `read` copies its buffer again (the caller's chunk may be reused). */
  forget(): void {
    this.copied = null;
  }

  /** Reads the lines numbered above `lastLine` from `lt` in `b`: how many (0: leave the run to readLineRun). */
  read(b: Uint8Array, lt: number, lastLine: number): number {
    const { w } = this;
    if (b !== this.copied) {
      const at = w.inputAt(b.length);
      if (at === 0) return 0;
      new Uint8Array(w.memory.buffer, at, b.length).set(b);
      this.copied = b;
      // The memory may have grown, which leaves views of it empty.
      if (this.rows.buffer !== w.memory.buffer)
        this.rows = new Int32Array(w.memory.buffer, w.outputAt(), w.outputRoom() * 4);
    }
    const count = w.readRun(lt, b.length, lastLine);
    if (count === 0) return 0;
    this.end = w.runEnd();
    this.hitLines = w.runHitLines();
    this.branchesCovered = w.runBranchesCovered();
    this.branchesTotal = w.runBranchesTotal();
    return count;
  }
}
