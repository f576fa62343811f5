import { counter } from '../figures/counters.ts';
import type {
  ClassCoverage,
  Counter,
  CounterKind,
  Counters,
  Coverage,
  FileCoverage,
  LineCoverage,
  MethodCoverage,
} from '../model/coverage.ts';
import { ByteStrings, bytesEqual } from '../xml/byte-strings.ts';
import { ascii, digits, digitsEnd, expect } from '../xml/fast-bytes.ts';
import { type XmlAttributes, XmlScanner } from '../xml/scanner.ts';
import { type ByteParser, type ByteParserOptions, count, fail, Interner, languageOf } from './shared.ts';

const KINDS: [string, CounterKind][] = [
  ['INSTRUCTION', 'instruction'],
  ['BRANCH', 'branch'],
  ['LINE', 'line'],
  ['COMPLEXITY', 'complexity'],
  ['METHOD', 'method'],
  ['CLASS', 'class'],
];

/** By the value's length and first letter, then checked in full: one comparison instead of six. */
function counterKind(attributes: XmlAttributes, k: number): CounterKind | undefined {
  const entry = KINDS[kindSlot(attributes.valueLength(k), attributes.valueByte(k, 0) ?? 0)];
  return entry && attributes.valueIs(k, entry[0]) ? entry[1] : undefined;
}

function kindSlot(length: number, first: number): number {
  if (length === 11) return 0;
  if (length === 6) return first === 66 /* B */ ? 1 : 4;
  if (length === 4) return 2;
  if (length === 10) return 3;
  return length === 5 ? 5 : 6;
}

const LINE_NR = ascii('line nr="');
const MI = ascii('" mi="');
const CI = ascii('" ci="');
const MB = ascii('" mb="');
const CB = ascii('" cb="');
const COUNTER_TYPE = ascii('counter type="');
const MISSED = ascii('" missed="');
const COVERED = ascii('" covered="');
const CLOSE = ascii('"/>');
const METHOD_NAME = ascii('method name="');
const DESC = ascii('" desc="');
const LINE_ATTRIBUTE = ascii('" line="');
const OPEN_END = ascii('">');

/** Where a double-quoted value starting at `at` ends, or -1 when it holds `&` or `<` or b ends first. */
function plainValueEnd(b: Uint8Array, at: number): number {
  for (let i = at; i < b.length; i++) {
    const c = b[i] as number;
    if (c === 34) return i;
    if (c === 38 || c === 60) return -1;
  }
  return -1;
}

const SHARED_LIMIT = 128;
const shared: Counter[] = [];

/**
 * Most method and class counters are small: those share one frozen object per value (a large
 * report holds millions of counters), larger ones get their own. Nothing mutates a Counter in
 * place; the freeze makes an attempt fail loudly instead of changing every sharer.
 */
function smallCounter(covered: number, missed: number): Counter {
  if (covered >= SHARED_LIMIT || missed >= SHARED_LIMIT) return counter(covered, missed);
  const slot = covered * SHARED_LIMIT + missed;
  let value = shared[slot];
  if (value === undefined) {
    value = Object.freeze(counter(covered, missed));
    shared[slot] = value;
  }
  return value;
}

/** Counters being read: filled by <counter> elements, the rest made 0/0 by completeCounters. */
function openCounters(): Counters {
  return { instruction: null, branch: null, line: null, complexity: null, method: null, class: null };
}

/** JaCoCo writes a counter element only when its total is non-zero, so an absent one is 0/0, not null. */
function completeCounters(counters: Counters): Counters {
  counters.instruction ??= smallCounter(0, 0);
  counters.branch ??= smallCounter(0, 0);
  counters.line ??= smallCounter(0, 0);
  counters.complexity ??= smallCounter(0, 0);
  counters.method ??= smallCounter(0, 0);
  counters.class ??= smallCounter(0, 0);
  return counters;
}

function jacocoCounters(): Counters {
  return completeCounters(openCounters());
}

type PackageState = { name: string; classesBySource: Map<string, ClassCoverage[]>; files: FileCoverage[] };

/**
 * JaCoCo XML: report > group* > package > (class > method > counter*, counter*) | (sourcefile > line*, counter*).
 * Counters are copied from the XML at every level, so they equal JaCoCo's own figures exactly.
 */
export function jacocoParser(options: ByteParserOptions = {}): ByteParser {
  const names = new Interner();
  /** Method names and descriptors read by the shortcut, one string per distinct value. */
  const values = new ByteStrings();
  const files: FileCoverage[] = [];
  const reportCounters = openCounters();
  let pkg: PackageState | null = null;
  let cls: ClassCoverage | null = null;
  let method: MethodCoverage | null = null;
  let sourceFile: FileCoverage | null = null;
  let lines: LineCoverage[] = [];
  let lastLine = 0;
  let seenReport = false;
  const stack: string[] = [];

  const scanner: XmlScanner = new XmlScanner(
    {
      open(name, attributes, depth) {
        const parent = depth > 0 ? stack[depth - 1] : undefined;
        stack[depth] = name;
        if (depth === 0) {
          if (name !== 'report') scanner.fail('format-mismatch', `root element <${name}> is not JaCoCo's <report>`, -1);
          seenReport = true;
          return;
        }
        switch (name) {
          case 'counter':
            addCounter(parent, attributes);
            return;
          case 'line':
            if (!sourceFile || parent !== 'sourcefile') return unexpected(name);
            addLine(attributes);
            return;
          case 'package':
            pkg = { name: required(attributes, 'name', name, false), classesBySource: new Map(), files: [] };
            return;
          case 'class': {
            if (!pkg || parent !== 'package') return unexpected(name);
            cls = { name: required(attributes, 'name', name, false), methods: [], counters: openCounters() };
            const source = attributes.get('sourcefilename') ?? '';
            const list = pkg.classesBySource.get(source);
            if (list) list.push(cls);
            else pkg.classesBySource.set(source, [cls]);
            return;
          }
          case 'method':
            if (!cls || parent !== 'class') return unexpected(name);
            method = {
              name: required(attributes, 'name', name),
              signature: required(attributes, 'desc', name),
              startLine: attributes.indexOf('line') === -1 ? null : int(attributes, 'line', 'method line') || null,
              endLine: null,
              counters: openCounters(),
            };
            cls.methods.push(method);
            return;
          case 'sourcefile': {
            if (!pkg || parent !== 'package') return unexpected(name);
            const fileName = required(attributes, 'name', name, false);
            const path = pkg.name === '' ? fileName : `${pkg.name}/${fileName}`;
            sourceFile = {
              path: names.get(path),
              language: languageOf(fileName),
              lines: [],
              classes: [],
              counters: openCounters(),
            };
            lines = [];
            lastLine = 0;
            return;
          }
          case 'group':
          case 'sessioninfo':
            return;
          default:
            return unexpected(name);
        }
      },
      fastOpen(buffer, lt, depth) {
        const parent = stack[depth - 1];
        if (buffer[lt + 1] === 108 /* l */) return parent === 'sourcefile' && sourceFile ? fastLine(buffer, lt) : -1;
        if (buffer[lt + 1] === 109 /* m */) return parent === 'class' && cls ? fastMethod(buffer, lt, depth) : -1;
        if (buffer[lt + 1] !== 99 /* c */) return -1;
        const target =
          parent === 'method'
            ? method?.counters
            : parent === 'class'
              ? cls?.counters
              : parent === 'sourcefile'
                ? sourceFile?.counters
                : parent === 'report'
                  ? reportCounters
                  : undefined;
        return target ? fastCounter(buffer, lt, target) : -1;
      },
      close(name) {
        switch (name) {
          case 'method':
            if (method) completeCounters(method.counters);
            method = null;
            return;
          case 'class':
            if (cls) completeCounters(cls.counters);
            cls = null;
            return;
          case 'sourcefile':
            if (pkg && sourceFile) {
              completeCounters(sourceFile.counters);
              sourceFile.lines = lines;
              const source = sourceFile.path.slice(pkg.name === '' ? 0 : pkg.name.length + 1);
              sourceFile.classes = pkg.classesBySource.get(source) ?? [];
              pkg.classesBySource.delete(source);
              pkg.files.push(sourceFile);
            }
            sourceFile = null;
            lines = [];
            return;
          case 'package':
            if (pkg) closePackage(pkg);
            pkg = null;
            return;
        }
      },
    },
    'jacoco',
  );
  scanner.countLines = options.countLines ?? true;

  function closePackage(state: PackageState): void {
    for (const file of state.files) files.push(file);
    // Classes without a <sourcefile> (no debug information) still belong to the report.
    for (const [source, classes] of state.classesBySource) {
      const base = source === '' ? `${classes[0]?.name ?? 'unknown'}.class` : source;
      const path = state.name === '' || source === '' ? base : `${state.name}/${base}`;
      const counters = jacocoCounters();
      for (const c of classes) addInto(counters, c.counters);
      files.push({ path: names.get(path), language: languageOf(path), lines: [], classes, counters });
    }
  }

  function unexpected(name: string): never {
    return scanner.fail('malformed-xml', `unexpected <${name}> in a JaCoCo report`, -1);
  }

  /** Values that repeat (method names, descriptors) are shared; unique ones (class names) are not remembered. */
  function required(attributes: XmlAttributes, attribute: string, element: string, repeats = true): string {
    const k = attributes.indexOf(attribute);
    if (k === -1) return scanner.fail('bad-attribute', `<${element}> lacks ${attribute}`, -1);
    return attributes.valueAt(k, repeats);
  }

  function number(raw: string | undefined, what: string): number {
    try {
      return count('jacoco', raw, what);
    } catch (error) {
      return scanner.fail((error as { code: 'bad-number' }).code, (error as { reason: string }).reason, -1);
    }
  }

  function int(attributes: XmlAttributes, attribute: string, what: string): number {
    const value = attributes.integer(attribute);
    return value >= 0 ? value : number(attributes.get(attribute), what);
  }

  /** The k-th attribute when it has the expected name (JaCoCo's own order), else a lookup by name. */
  function intAt(attributes: XmlAttributes, k: number, attribute: string, what: string): number {
    const value = k < attributes.count && attributes.nameIs(k, attribute) ? attributes.integerAt(k) : -2;
    return value >= 0 ? value : int(attributes, attribute, what);
  }

  function addLine(attributes: XmlAttributes): void {
    const nr = intAt(attributes, 0, 'nr', 'line nr');
    if (nr < 1) scanner.fail('bad-number', `line nr ${nr} is not a line number`, -1);
    if (nr <= lastLine) scanner.fail('bad-record', `line ${nr} repeated or out of order`, -1);
    lastLine = nr;
    const mi = intAt(attributes, 1, 'mi', 'mi');
    const ci = intAt(attributes, 2, 'ci', 'ci');
    const mb = intAt(attributes, 3, 'mb', 'mb');
    const cb = intAt(attributes, 4, 'cb', 'cb');
    lines.push({
      line: nr,
      hits: ci > 0 ? 1 : 0,
      branchesCovered: cb,
      branchesTotal: cb + mb,
      instructionsCovered: ci,
      instructionsMissed: mi,
    });
  }

  /**
   * `<line nr="N" mi="N" ci="N" mb="N" cb="N"/>` exactly as JaCoCo writes it, read without the
   * attribute machinery; anything else (or a line the general path would refuse) returns -1.
   */
  function fastLine(b: Uint8Array, lt: number): number {
    let i = expect(b, lt + 1, LINE_NR);
    const nr = i === -1 ? -1 : digits(b, i);
    if (nr < 1 || nr <= lastLine) return -1;
    i = expect(b, digitsEnd, MI);
    const mi = i === -1 ? -1 : digits(b, i);
    i = mi < 0 ? -1 : expect(b, digitsEnd, CI);
    const ci = i === -1 ? -1 : digits(b, i);
    i = ci < 0 ? -1 : expect(b, digitsEnd, MB);
    const mb = i === -1 ? -1 : digits(b, i);
    i = mb < 0 ? -1 : expect(b, digitsEnd, CB);
    const cb = i === -1 ? -1 : digits(b, i);
    const end = cb < 0 ? -1 : expect(b, digitsEnd, CLOSE);
    if (end === -1) return -1;
    lastLine = nr;
    lines.push({
      line: nr,
      hits: ci > 0 ? 1 : 0,
      branchesCovered: cb,
      branchesTotal: cb + mb,
      instructionsCovered: ci,
      instructionsMissed: mi,
    });
    return end;
  }

  /**
   * `<method name="…" desc="…" line="N">` (line optional) exactly as JaCoCo writes it, with no
   * reference in the values (constructors' `&lt;init&gt;` take the general path), else -1.
   */
  function fastMethod(b: Uint8Array, lt: number, depth: number): number {
    const nameStart = expect(b, lt + 1, METHOD_NAME);
    const nameEnd = nameStart === -1 ? -1 : plainValueEnd(b, nameStart);
    const descStart = nameEnd === -1 ? -1 : expect(b, nameEnd, DESC);
    const descEnd = descStart === -1 ? -1 : plainValueEnd(b, descStart);
    if (descEnd === -1 || nameEnd === nameStart) return -1;
    let startLine: number | null = null;
    let end = expect(b, descEnd, OPEN_END);
    if (end === -1) {
      const lineStart = expect(b, descEnd, LINE_ATTRIBUTE);
      const line = lineStart === -1 ? -1 : digits(b, lineStart);
      end = line < 0 ? -1 : expect(b, digitsEnd, OPEN_END);
      if (end === -1) return -1;
      startLine = line || null;
    }
    method = {
      name: values.get(b, nameStart, nameEnd),
      signature: values.get(b, descStart, descEnd),
      startLine,
      endLine: null,
      counters: openCounters(),
    };
    (cls as ClassCoverage).methods.push(method);
    stack[depth] = 'method';
    scanner.openedFast('method');
    return end;
  }

  /** `<counter type="KIND" missed="N" covered="N"/>` exactly as JaCoCo writes it, else -1. */
  function fastCounter(b: Uint8Array, lt: number, target: Counters): number {
    const typeStart = expect(b, lt + 1, COUNTER_TYPE);
    if (typeStart === -1) return -1;
    const typeEnd = b.indexOf(34, typeStart);
    if (typeEnd === -1 || typeEnd - typeStart > 11) return -1;
    const entry = KINDS[kindSlot(typeEnd - typeStart, b[typeStart] ?? 0)];
    if (!entry || !bytesEqual(b, typeStart, typeEnd, entry[0])) return -1;
    let i = expect(b, typeEnd, MISSED);
    const missed = i === -1 ? -1 : digits(b, i);
    i = missed < 0 ? -1 : expect(b, digitsEnd, COVERED);
    const covered = i === -1 ? -1 : digits(b, i);
    const end = covered < 0 ? -1 : expect(b, digitsEnd, CLOSE);
    if (end === -1) return -1;
    const value = smallCounter(covered, missed);
    const kind = entry[1];
    if (kind === 'instruction') target.instruction = value;
    else if (kind === 'branch') target.branch = value;
    else if (kind === 'line') target.line = value;
    else if (kind === 'complexity') target.complexity = value;
    else if (kind === 'method') target.method = value;
    else target.class = value;
    return end;
  }

  function addCounter(parent: string | undefined, attributes: XmlAttributes): void {
    const typeAt = attributes.count > 0 && attributes.nameIs(0, 'type') ? 0 : attributes.indexOf('type');
    const kind = typeAt === -1 ? undefined : counterKind(attributes, typeAt);
    if (!kind)
      scanner.fail('bad-attribute', `unknown counter type "${(attributes.get('type') ?? '').slice(0, 40)}"`, -1);
    const value = smallCounter(intAt(attributes, 2, 'covered', 'covered'), intAt(attributes, 1, 'missed', 'missed'));
    const target =
      parent === 'method'
        ? method?.counters
        : parent === 'class'
          ? cls?.counters
          : parent === 'sourcefile'
            ? sourceFile?.counters
            : parent === 'report'
              ? reportCounters
              : parent === 'package' || parent === 'group'
                ? null
                : unexpected('counter');
    if (!target) return;
    // One store per kind rather than target[kind]: a keyed store whose key keeps changing is slow.
    if (kind === 'instruction') target.instruction = value;
    else if (kind === 'branch') target.branch = value;
    else if (kind === 'line') target.line = value;
    else if (kind === 'complexity') target.complexity = value;
    else if (kind === 'method') target.method = value;
    else target.class = value;
  }

  return {
    write(bytes) {
      scanner.write(bytes);
    },
    end(): Coverage {
      scanner.end();
      if (!seenReport) fail('jacoco', 'format-mismatch', 'no JaCoCo <report> element');
      completeCounters(reportCounters);
      return { format: 'jacoco', files, counters: reportCounters };
    },
  };
}

function addInto(into: Counters, from: Counters): void {
  for (const kind of Object.keys(into) as CounterKind[]) {
    const a = into[kind];
    const b = from[kind];
    if (a && b) into[kind] = counter(a.covered + b.covered, a.missed + b.missed);
  }
}
