import { type Coverage, emptyCounters } from '../model/coverage.ts';
import { LineArena } from '../model/line-buffer.ts';
import { MethodTable, withLazyMethods } from '../model/method-table.ts';
import { ByteStrings } from '../xml/byte-strings.ts';
import { MAX_XML_DEPTH, type XmlAttributes, type XmlHandler, XmlScanner } from '../xml/scanner.ts';
import { addFileLine, type FileState, finishFile, newFileState } from './cobertura-file.ts';
import { readLineRun } from './cobertura-lines.ts';
import { CompiledLineRuns } from './cobertura-lines-wasm.ts';
import { methodFields, readMethod } from './cobertura-methods.ts';
import { totals } from './lcov.ts';
import { type ByteParser, type ByteParserOptions, count, Interner } from './shared.ts';

/**
 * Cobertura XML (coverage.py, gcovr, c8/istanbul, coverlet). Lines come from each class's
 * <lines>; a line listed by several classes of one file (coverlet's nested classes) counts once,
 * with the highest hits. Branches come from condition-coverage="50% (1/2)". Counters: line and
 * branch from the line data, method from <method> elements (covered when any of its lines ran;
 * null when the report lists none); instruction, complexity and class are null. The report
 * keeps the <sources> roots for path mapping.
 */
export function coberturaParser(options: ByteParserOptions = {}): ByteParser {
  const reader = new CoberturaReader(options.countLines ?? true);
  return {
    write(bytes) {
      reader.compiled?.forget();
      reader.scanner.write(bytes);
    },
    end: () => reader.end(),
  };
}

/** The scanner's handler: the files read so far, the class and method open now. */
class CoberturaReader implements XmlHandler {
  readonly scanner: XmlScanner;
  readonly compiled = CompiledLineRuns.open();
  private readonly names = new Interner();
  private readonly files = new Map<string, FileState>();
  private readonly arena = new LineArena();
  private readonly sources: string[] = [];
  private file: FileState | null = null;
  /** The class being read: its name and its first row in the method table. */
  private cls: { name: string; firstRow: number } | null = null;
  private readonly methods = new MethodTable();
  /** The method table's row of the <method> being read by the general path. */
  private method: number | null = null;
  private inSource = false;
  private sourceText = '';
  private sawMethods = false;
  private rootSeen = false;
  private readonly methodNames = new ByteStrings((text) => this.names.get(text));
  /** Adds a line read by the shortcut to the class being read; one function for all of them. */
  private readonly addFastLine = (line: number, hits: number, covered: number, total: number) =>
    this.addLineValues(this.file as FileState, line, hits, covered, total);

  constructor(countLines: boolean) {
    this.scanner = new XmlScanner(this, 'cobertura');
    this.scanner.countLines = countLines;
  }

  end(): Coverage {
    this.scanner.end();
    if (!this.rootSeen) this.scanner.fail('format-mismatch', 'no <coverage> element', 0);
    const methods = this.sawMethods ? this.methods : null;
    const result = [...this.files.values()].map((state) => finishFile(state, methods));
    const coverage: Coverage = { format: 'cobertura', files: result, counters: totals(result) };
    if (this.sources.length > 0) coverage.sourceRoots = this.sources;
    return coverage;
  }

  open(name: string, attributes: XmlAttributes, depth: number): void {
    if (depth === 0) {
      if (name !== 'coverage')
        this.scanner.fail('format-mismatch', `root element <${name}> is not Cobertura's <coverage>`, -1);
      this.rootSeen = true;
      return;
    }
    switch (name) {
      case 'source':
        this.inSource = true;
        this.scanner.wantsText = true;
        this.sourceText = '';
        return;
      case 'class':
        this.openClass(attributes);
        return;
      case 'method':
        if (!this.cls) return;
        this.sawMethods = true;
        this.method = this.methods.add(
          this.names.get(this.required(attributes, 'name', name)),
          this.optionalName(attributes.get('signature')),
        );
        return;
      case 'line':
        if (this.file) this.addLine(this.file, attributes);
        return;
    }
  }

  close(name: string): void {
    if (name === 'source') {
      this.inSource = false;
      this.scanner.wantsText = false;
      const root = this.sourceText.trim();
      if (root !== '') this.sources.push(root.replaceAll('\\', '/'));
    } else if (name === 'class') {
      if (this.file && this.cls) this.closeClass(this.file, this.cls);
      this.cls = null;
      this.file = null;
    } else if (name === 'method') {
      this.method = null;
    }
  }

  text(text: string): void {
    if (this.inSource) this.sourceText += text;
  }

  fastOpen(buffer: Uint8Array, lt: number, depth: number): number {
    // Runs of usual <line>s, and whole <method>s, with the whitespace between their elements,
    // which the general path would skip as text (but not inside a <source>, whose text it keeps).
    const file = this.file;
    if (file === null || this.scanner.wantsText) return -1;
    const next = buffer[lt + 1];
    if (next === 108 /* l */)
      return this.compiledLineRun(file, buffer, lt) ?? readLineRun(buffer, lt, this.addFastLine);
    // The block's <line>s stand two levels deeper, where the general path checks the depth.
    return next === 109 /* m */ && depth + 2 < MAX_XML_DEPTH ? this.fastMethod(buffer, lt) : -1;
  }

  private openClass(attributes: XmlAttributes): void {
    const path = this.names.get(this.required(attributes, 'filename', 'class').replaceAll('\\', '/'));
    const file = this.files.get(path) ?? newFileState(path, this.arena);
    this.files.set(path, file);
    this.file = file;
    this.cls = { name: this.names.get(attributes.get('name') ?? path), firstRow: this.methods.length };
  }

  private closeClass(file: FileState, cls: { name: string; firstRow: number }): void {
    const methods = this.methods;
    file.classes.push(
      withLazyMethods({ name: cls.name, counters: emptyCounters() }, methods, cls.firstRow, methods.length),
    );
    file.methodRows.push(cls.firstRow, methods.length);
  }

  private optionalName(value: string | undefined): string | null {
    return value === undefined || value === '' ? null : this.names.get(value);
  }

  private required(attributes: XmlAttributes, attribute: string, element: string): string {
    const value = attributes.get(attribute);
    if (value === undefined) return this.scanner.fail('bad-attribute', `<${element}> lacks ${attribute}`, -1);
    return value;
  }

  /** An integer attribute read from its bytes; the string path only for floats and errors. */
  private integerAttribute(attributes: XmlAttributes, attribute: string, what: string): number {
    const value = attributes.integer(attribute);
    return value >= 0 ? value : this.number(attributes.get(attribute), what);
  }

  private number(raw: string | undefined, what: string): number {
    const trimmed = raw?.trim();
    if (trimmed === undefined || !/^\d{1,15}$/.test(trimmed)) {
      // coverlet and some gcovr versions write hits as floats such as "1.0".
      if (trimmed && /^\d{1,15}\.0+$/.test(trimmed)) return Number(trimmed);
      return this.scanner.fail('bad-number', `${what} "${(raw ?? '').slice(0, 40)}" is not a non-negative integer`, -1);
    }
    return Number(trimmed);
  }

  /** A whole usual <method> (see cobertura-methods.ts): what open, its lines and close would do. */
  private fastMethod(b: Uint8Array, lt: number): number {
    const end = readMethod(b, lt, this.methodNames);
    if (end === -1 || this.cls === null) return -1;
    const { name, signature, startLine, endLine, hit } = methodFields;
    const row = this.methods.add(name, signature === '' ? null : signature);
    if (startLine !== null && endLine !== null) {
      this.methods.addLine(row, startLine, hit ? 1 : 0);
      this.methods.addLine(row, endLine, 0);
    }
    this.sawMethods = true;
    this.method = null;
    return end;
  }

  /**
   * The run read by the compiled reader, where it can take it: lines of a class (not of a
   * <method> the general path opened) in order. Null leaves it to readLineRun.
   */
  private compiledLineRun(state: FileState, buffer: Uint8Array, lt: number): number | null {
    const compiled = this.compiled;
    if (compiled === null || this.method !== null || state.byNumber !== null) return null;
    const count = compiled.read(buffer, lt, state.packed.lastLine());
    if (count === 0) return null;
    state.packed.pushRows(compiled.rows, count);
    state.hitLines += compiled.hitLines;
    state.branchesCovered += compiled.branchesCovered;
    state.branchesTotal += compiled.branchesTotal;
    return compiled.end;
  }

  private addLine(state: FileState, attributes: XmlAttributes): void {
    const line = this.integerAttribute(attributes, 'number', 'line number');
    if (line < 1 || line > 2 ** 31 - 1) this.scanner.fail('bad-number', `line number ${line} out of range`, -1);
    const hits = this.integerAttribute(attributes, 'hits', 'hits');
    let covered = 0;
    let total = 0;
    if (this.method === null && attributes.is('branch', 'true') && attributes.get('condition-coverage')) {
      const match = /\((\d{1,9})\/(\d{1,9})\)/.exec(attributes.get('condition-coverage') ?? '');
      if (!match) this.scanner.fail('bad-attribute', 'condition-coverage is not "N% (covered/total)"', -1);
      covered = count('cobertura', match[1], 'covered conditions');
      total = count('cobertura', match[2], 'conditions');
      if (covered > total) this.scanner.fail('bad-attribute', 'more covered conditions than conditions', -1);
    }
    this.addLineValues(state, line, hits, covered, total);
  }

  /** A line of a class, or (inside a <method>) part of the method's range. */
  private addLineValues(state: FileState, line: number, hits: number, covered: number, total: number): void {
    if (this.method !== null) this.methods.addLine(this.method, line, hits);
    else addFileLine(state, line, hits, covered, total);
  }
}
