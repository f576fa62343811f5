import type {
  ClassCoverage,
  Counters,
  Coverage,
  FileCoverage,
  LineCoverage,
  MethodCoverage,
} from '../model/coverage.ts';
import { ByteStrings } from '../xml/byte-strings.ts';
import { type XmlAttributes, type XmlHandler, XmlScanner } from '../xml/scanner.ts';
import {
  completeCounters,
  countAttribute,
  counterKind,
  openCounters,
  setCounter,
  smallCounter,
  summedCounters,
} from './jacoco-counters.ts';
import {
  counterFields,
  jacocoLine,
  lineFields,
  methodFields,
  readCounter,
  readLine,
  readMethodHead,
} from './jacoco-fast.ts';
import { type ByteParser, type ByteParserOptions, fail, Interner, languageOf } from './shared.ts';

type PackageState = { name: string; classesBySource: Map<string, ClassCoverage[]>; files: FileCoverage[] };

/**
 * JaCoCo XML: report > group* > package > (class > method > counter*, counter*) | (sourcefile > line*, counter*).
 * Counters are copied from the XML at every level, so they equal JaCoCo's own figures exactly.
 */
export function jacocoParser(options: ByteParserOptions = {}): ByteParser {
  const reader = new JacocoReader(options.countLines ?? true);
  return {
    write(bytes) {
      reader.scanner.write(bytes);
    },
    end: () => reader.end(),
  };
}

/** The scanner's handler: the elements open now, and the files read so far. */
class JacocoReader implements XmlHandler {
  readonly scanner: XmlScanner;
  private readonly names = new Interner();
  /** Method names and descriptors read by the shortcut, one string per distinct value. */
  private readonly values = new ByteStrings();
  private readonly files: FileCoverage[] = [];
  private readonly reportCounters = openCounters();
  private pkg: PackageState | null = null;
  private cls: ClassCoverage | null = null;
  private method: MethodCoverage | null = null;
  private sourceFile: FileCoverage | null = null;
  private lines: LineCoverage[] = [];
  private lastLine = 0;
  private seenReport = false;
  private readonly stack: string[] = [];

  constructor(countLines: boolean) {
    this.scanner = new XmlScanner(this, 'jacoco');
    this.scanner.countLines = countLines;
  }

  end(): Coverage {
    this.scanner.end();
    if (!this.seenReport) fail('jacoco', 'format-mismatch', 'no JaCoCo <report> element');
    completeCounters(this.reportCounters);
    return { format: 'jacoco', files: this.files, counters: this.reportCounters };
  }

  open(name: string, attributes: XmlAttributes, depth: number): void {
    const parent = depth > 0 ? this.stack[depth - 1] : undefined;
    this.stack[depth] = name;
    if (depth === 0) {
      if (name !== 'report')
        this.scanner.fail('format-mismatch', `root element <${name}> is not JaCoCo's <report>`, -1);
      this.seenReport = true;
      return;
    }
    switch (name) {
      case 'counter':
        this.addCounter(parent, attributes);
        return;
      case 'line':
        if (!this.sourceFile || parent !== 'sourcefile') this.unexpected(name);
        this.addLine(attributes);
        return;
      case 'package':
        this.pkg = { name: this.required(attributes, 'name', name, false), classesBySource: new Map(), files: [] };
        return;
      case 'class':
        if (!this.pkg || parent !== 'package') this.unexpected(name);
        this.openClass(this.pkg, attributes);
        return;
      case 'method':
        if (!this.cls || parent !== 'class') this.unexpected(name);
        this.openMethod(this.cls, attributes);
        return;
      case 'sourcefile':
        if (!this.pkg || parent !== 'package') this.unexpected(name);
        this.openSourceFile(this.pkg, attributes);
        return;
      case 'group':
      case 'sessioninfo':
        return;
      default:
        this.unexpected(name);
    }
  }

  fastOpen(buffer: Uint8Array, lt: number, depth: number): number {
    const parent = this.stack[depth - 1];
    const next = buffer[lt + 1];
    if (next === 108 /* l */) return parent === 'sourcefile' && this.sourceFile ? this.fastLine(buffer, lt) : -1;
    if (next === 109 /* m */) return parent === 'class' && this.cls ? this.fastMethod(buffer, lt, depth) : -1;
    if (next !== 99 /* c */) return -1;
    const target = this.countersUnder(parent);
    return target ? this.fastCounter(buffer, lt, target) : -1;
  }

  close(name: string): void {
    switch (name) {
      case 'method':
        if (this.method) completeCounters(this.method.counters);
        this.method = null;
        return;
      case 'class':
        if (this.cls) completeCounters(this.cls.counters);
        this.cls = null;
        return;
      case 'sourcefile':
        if (this.pkg && this.sourceFile) this.closeSourceFile(this.pkg, this.sourceFile);
        this.sourceFile = null;
        this.lines = [];
        return;
      case 'package':
        if (this.pkg) this.closePackage(this.pkg);
        this.pkg = null;
        return;
    }
  }

  private openClass(pkg: PackageState, attributes: XmlAttributes): void {
    const cls: ClassCoverage = {
      name: this.required(attributes, 'name', 'class', false),
      methods: [],
      counters: openCounters(),
    };
    this.cls = cls;
    const source = attributes.get('sourcefilename') ?? '';
    const list = pkg.classesBySource.get(source);
    if (list) list.push(cls);
    else pkg.classesBySource.set(source, [cls]);
  }

  private openMethod(cls: ClassCoverage, attributes: XmlAttributes): void {
    const method: MethodCoverage = {
      name: this.required(attributes, 'name', 'method'),
      signature: this.required(attributes, 'desc', 'method'),
      startLine: attributes.indexOf('line') === -1 ? null : this.intAt(attributes, -1, 'line', 'method line') || null,
      endLine: null,
      counters: openCounters(),
    };
    this.method = method;
    cls.methods.push(method);
  }

  private openSourceFile(pkg: PackageState, attributes: XmlAttributes): void {
    const fileName = this.required(attributes, 'name', 'sourcefile', false);
    const path = pkg.name === '' ? fileName : `${pkg.name}/${fileName}`;
    this.sourceFile = {
      path: this.names.get(path),
      language: languageOf(fileName),
      lines: [],
      classes: [],
      counters: openCounters(),
    };
    this.lines = [];
    this.lastLine = 0;
  }

  /** The file takes its lines and the classes of the package that name it as their source. */
  private closeSourceFile(pkg: PackageState, sourceFile: FileCoverage): void {
    completeCounters(sourceFile.counters);
    sourceFile.lines = this.lines;
    const source = sourceFile.path.slice(pkg.name === '' ? 0 : pkg.name.length + 1);
    sourceFile.classes = pkg.classesBySource.get(source) ?? [];
    pkg.classesBySource.delete(source);
    pkg.files.push(sourceFile);
  }

  private closePackage(state: PackageState): void {
    for (const file of state.files) this.files.push(file);
    // Classes without a <sourcefile> (no debug information) still belong to the report.
    for (const [source, classes] of state.classesBySource) {
      const base = source === '' ? `${classes[0]?.name ?? 'unknown'}.class` : source;
      const path = state.name === '' || source === '' ? base : `${state.name}/${base}`;
      const counters = summedCounters(classes.map((c) => c.counters));
      this.files.push({ path: this.names.get(path), language: languageOf(path), lines: [], classes, counters });
    }
  }

  /** The counters a <counter> under `parent` fills: null where it is ignored (or its element is not open). */
  private countersUnder(parent: string | undefined): Counters | null | undefined {
    if (parent === 'method') return this.method?.counters ?? null;
    if (parent === 'class') return this.cls?.counters ?? null;
    if (parent === 'sourcefile') return this.sourceFile?.counters ?? null;
    if (parent === 'report') return this.reportCounters;
    return parent === 'package' || parent === 'group' ? null : undefined;
  }

  private unexpected(name: string): never {
    return this.scanner.fail('malformed-xml', `unexpected <${name}> in a JaCoCo report`, -1);
  }

  /** Values that repeat (method names, descriptors) are shared; unique ones (class names) are not remembered. */
  private required(attributes: XmlAttributes, attribute: string, element: string, repeats = true): string {
    const k = attributes.indexOf(attribute);
    if (k === -1) return this.scanner.fail('bad-attribute', `<${element}> lacks ${attribute}`, -1);
    return attributes.valueAt(k, repeats);
  }

  /** A count from the k-th attribute when it has the expected name (JaCoCo's own order), else by name. */
  private intAt(attributes: XmlAttributes, k: number, attribute: string, what: string): number {
    return countAttribute(this.scanner, attributes, k, attribute, what);
  }

  private addLine(attributes: XmlAttributes): void {
    const nr = this.intAt(attributes, 0, 'nr', 'line nr');
    if (nr < 1) this.scanner.fail('bad-number', `line nr ${nr} is not a line number`, -1);
    if (nr <= this.lastLine) this.scanner.fail('bad-record', `line ${nr} repeated or out of order`, -1);
    const mi = this.intAt(attributes, 1, 'mi', 'mi');
    const ci = this.intAt(attributes, 2, 'ci', 'ci');
    const mb = this.intAt(attributes, 3, 'mb', 'mb');
    const cb = this.intAt(attributes, 4, 'cb', 'cb');
    this.pushLine(nr, mi, ci, mb, cb);
  }

  private pushLine(nr: number, mi: number, ci: number, mb: number, cb: number): void {
    this.lastLine = nr;
    this.lines.push(jacocoLine(nr, mi, ci, mb, cb));
  }

  private fastLine(b: Uint8Array, lt: number): number {
    const end = readLine(b, lt, this.lastLine);
    if (end !== -1) this.pushLine(lineFields.nr, lineFields.mi, lineFields.ci, lineFields.mb, lineFields.cb);
    return end;
  }

  private fastMethod(b: Uint8Array, lt: number, depth: number): number {
    const end = readMethodHead(b, lt);
    if (end === -1) return -1;
    const { nameStart, nameEnd, descStart, descEnd, startLine } = methodFields;
    const method: MethodCoverage = {
      name: this.values.get(b, nameStart, nameEnd),
      signature: this.values.get(b, descStart, descEnd),
      startLine,
      endLine: null,
      counters: openCounters(),
    };
    this.method = method;
    (this.cls as ClassCoverage).methods.push(method);
    this.stack[depth] = 'method';
    this.scanner.openedFast('method');
    return end;
  }

  private fastCounter(b: Uint8Array, lt: number, target: Counters): number {
    const end = readCounter(b, lt);
    if (end !== -1) setCounter(target, counterFields.kind, smallCounter(counterFields.covered, counterFields.missed));
    return end;
  }

  private addCounter(parent: string | undefined, attributes: XmlAttributes): void {
    const typeAt = attributes.count > 0 && attributes.nameIs(0, 'type') ? 0 : attributes.indexOf('type');
    const kind = typeAt === -1 ? undefined : counterKind(attributes, typeAt);
    if (!kind)
      this.scanner.fail('bad-attribute', `unknown counter type "${(attributes.get('type') ?? '').slice(0, 40)}"`, -1);
    const value = smallCounter(
      this.intAt(attributes, 2, 'covered', 'covered'),
      this.intAt(attributes, 1, 'missed', 'missed'),
    );
    const target = this.countersUnder(parent);
    if (target === undefined) this.unexpected('counter');
    if (target) setCounter(target, kind, value);
  }
}
