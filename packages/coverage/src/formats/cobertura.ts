import { branchCounter, counter, lineCounter } from '../figures/counters.ts';
import {
  type ClassCoverage,
  type Coverage,
  emptyCounters,
  type FileCoverage,
  type LineCoverage,
} from '../model/coverage.ts';
import { LineArena, LineBuffer, withLazyLines } from '../model/line-buffer.ts';
import { MethodTable, withLazyMethods } from '../model/method-table.ts';
import { ByteStrings } from '../xml/byte-strings.ts';
import { MAX_XML_DEPTH, type XmlAttributes, XmlScanner } from '../xml/scanner.ts';
import { readLineRun } from './cobertura-lines.ts';
import { CompiledLineRuns } from './cobertura-lines-wasm.ts';
import { methodFields, readMethod } from './cobertura-methods.ts';
import { totals } from './lcov.ts';
import { type ByteParser, type ByteParserOptions, count, Interner, languageOf, newLine } from './shared.ts';

/** Bound once: under a CommonJS transform (tsx) each use of an imported name is a getter call. */
const makeLine = newLine;

/**
 * A file's lines in the order read, packed until a line arrives out of order or again (several
 * classes of one file; tools write each class's lines ascending), then as objects with an index
 * by number.
 */
type FileState = {
  path: string;
  packed: LineBuffer;
  lines: LineCoverage[] | null;
  byNumber: Map<number, LineCoverage> | null;
  classes: ClassCoverage[];
  /** Where each class's rows of the method table begin and end, two numbers per class. */
  methodRows: number[];
  /** Tallies of the lines while they arrive in order (no index): the counters without a pass at the end. */
  hitLines: number;
  branchesCovered: number;
  branchesTotal: number;
};

/**
 * Cobertura XML (coverage.py, gcovr, c8/istanbul, coverlet). Lines come from each class's
 * <lines>; a line listed by several classes of one file (coverlet's nested classes) counts once,
 * with the highest hits. Branches come from condition-coverage="50% (1/2)". Counters: line and
 * branch from the line data, method from <method> elements (covered when any of its lines ran;
 * null when the report lists none); instruction, complexity and class are null. The report
 * keeps the <sources> roots for path mapping.
 */
export function coberturaParser(options: ByteParserOptions = {}): ByteParser {
  const names = new Interner();
  const optionalName = (value: string | undefined) => (value === undefined || value === '' ? null : names.get(value));
  const files = new Map<string, FileState>();
  const arena = new LineArena();
  const sources: string[] = [];
  let file: FileState | null = null;
  /** The class being read: its name and its first row in the method table. */
  let cls: { name: string; firstRow: number } | null = null;
  const methods = new MethodTable();
  /** The method table's row of the <method> being read by the general path. */
  let method: number | null = null;
  let inSource = false;
  let sourceText = '';
  let sawMethods = false;
  let rootSeen = false;
  const compiled = CompiledLineRuns.open();

  const scanner: XmlScanner = new XmlScanner(
    {
      open(name, attributes, depth) {
        if (depth === 0) {
          if (name !== 'coverage')
            scanner.fail('format-mismatch', `root element <${name}> is not Cobertura's <coverage>`, -1);
          rootSeen = true;
          return;
        }
        switch (name) {
          case 'source':
            inSource = true;
            scanner.wantsText = true;
            sourceText = '';
            return;
          case 'class': {
            const path = names.get(required(attributes, 'filename', name).replaceAll('\\', '/'));
            file = files.get(path) ?? {
              path,
              packed: new LineBuffer(arena),
              lines: null,
              byNumber: null,
              classes: [],
              methodRows: [],
              hitLines: 0,
              branchesCovered: 0,
              branchesTotal: 0,
            };
            files.set(path, file);
            cls = { name: names.get(attributes.get('name') ?? path), firstRow: methods.length };
            return;
          }
          case 'method':
            if (!cls) return;
            sawMethods = true;
            method = methods.add(
              names.get(required(attributes, 'name', name)),
              optionalName(attributes.get('signature')),
            );
            return;
          case 'line':
            if (file) addLine(file, attributes);
            return;
        }
      },
      close(name) {
        if (name === 'source') {
          inSource = false;
          scanner.wantsText = false;
          const root = sourceText.trim();
          if (root !== '') sources.push(root.replaceAll('\\', '/'));
        } else if (name === 'class') {
          if (file && cls) {
            const counters = emptyCounters();
            file.classes.push(withLazyMethods({ name: cls.name, counters }, methods, cls.firstRow, methods.length));
            file.methodRows.push(cls.firstRow, methods.length);
          }
          cls = null;
          file = null;
        } else if (name === 'method') {
          method = null;
        }
      },
      text(text) {
        if (inSource) sourceText += text;
      },
      fastOpen(buffer, lt, depth) {
        // Runs of usual <line>s, and whole <method>s, with the whitespace between their elements,
        // which the general path would skip as text (but not inside a <source>, whose text it keeps).
        if (file === null || scanner.wantsText) return -1;
        const next = buffer[lt + 1];
        if (next === 108 /* l */) return compiledLineRun(file, buffer, lt) ?? readLineRun(buffer, lt, addFastLine);
        // The block's <line>s stand two levels deeper, where the general path checks the depth.
        return next === 109 /* m */ && depth + 2 < MAX_XML_DEPTH ? fastMethod(buffer, lt) : -1;
      },
    },
    'cobertura',
  );
  scanner.countLines = options.countLines ?? true;

  function required(attributes: XmlAttributes, attribute: string, element: string): string {
    const value = attributes.get(attribute);
    if (value === undefined) return scanner.fail('bad-attribute', `<${element}> lacks ${attribute}`, -1);
    return value;
  }

  /** An integer attribute read from its bytes; the string path only for floats and errors. */
  function integerAttribute(attributes: XmlAttributes, attribute: string, what: string): number {
    const value = attributes.integer(attribute);
    return value >= 0 ? value : number(attributes.get(attribute), what);
  }

  function number(raw: string | undefined, what: string): number {
    const trimmed = raw?.trim();
    if (trimmed === undefined || !/^\d{1,15}$/.test(trimmed)) {
      // coverlet and some gcovr versions write hits as floats such as "1.0".
      if (trimmed && /^\d{1,15}\.0+$/.test(trimmed)) return Number(trimmed);
      return scanner.fail('bad-number', `${what} "${(raw ?? '').slice(0, 40)}" is not a non-negative integer`, -1);
    }
    return Number(trimmed);
  }

  const methodNames = new ByteStrings((text) => names.get(text));

  /** A whole usual <method> (see cobertura-methods.ts): what open, its lines and close would do. */
  function fastMethod(b: Uint8Array, lt: number): number {
    const end = readMethod(b, lt, methodNames);
    if (end === -1 || cls === null) return -1;
    const { name, signature, startLine, endLine, hit } = methodFields;
    const row = methods.add(name, signature === '' ? null : signature);
    if (startLine !== null && endLine !== null) {
      methods.addLine(row, startLine, hit ? 1 : 0);
      methods.addLine(row, endLine, 0);
    }
    sawMethods = true;
    method = null;
    return end;
  }

  /**
   * The run read by the compiled reader, where it can take it: lines of a class (not of a
   * <method> the general path opened) in order. Null leaves it to readLineRun.
   */
  function compiledLineRun(state: FileState, buffer: Uint8Array, lt: number): number | null {
    if (compiled === null || method !== null || state.byNumber !== null) return null;
    const count = compiled.read(buffer, lt, state.packed.lastLine());
    if (count === 0) return null;
    state.packed.pushRows(compiled.rows, count);
    state.hitLines += compiled.hitLines;
    state.branchesCovered += compiled.branchesCovered;
    state.branchesTotal += compiled.branchesTotal;
    return compiled.end;
  }

  /** Adds a line read by the shortcut to the class being read; one function for all of them. */
  const addFastLine = (line: number, hits: number, covered: number, total: number) =>
    addLineValues(file as FileState, line, hits, covered, total);

  function addLine(state: FileState, attributes: XmlAttributes): void {
    const line = integerAttribute(attributes, 'number', 'line number');
    if (line < 1 || line > 2 ** 31 - 1) scanner.fail('bad-number', `line number ${line} out of range`, -1);
    const hits = integerAttribute(attributes, 'hits', 'hits');
    let covered = 0;
    let total = 0;
    if (method === null && attributes.is('branch', 'true') && attributes.get('condition-coverage')) {
      const match = /\((\d{1,9})\/(\d{1,9})\)/.exec(attributes.get('condition-coverage') ?? '');
      if (!match) scanner.fail('bad-attribute', 'condition-coverage is not "N% (covered/total)"', -1);
      covered = count('cobertura', match[1], 'covered conditions');
      total = count('cobertura', match[2], 'conditions');
      if (covered > total) scanner.fail('bad-attribute', 'more covered conditions than conditions', -1);
    }
    addLineValues(state, line, hits, covered, total);
  }

  /** A line of a class, or (inside a <method>) part of the method's range. */
  function addLineValues(state: FileState, line: number, hits: number, covered: number, total: number): void {
    if (method !== null) {
      methods.addLine(method, line, hits);
      return;
    }
    if (state.byNumber === null) {
      const packed = state.packed;
      if (line > packed.lastLine()) {
        packed.push(line, hits, covered, total);
        if (hits > 0) state.hitLines++;
        state.branchesCovered += covered;
        state.branchesTotal += total;
        return;
      }
      state.lines = packed.lines();
      state.byNumber = new Map(state.lines.map((l) => [l.line, l]));
    }
    const existing = state.byNumber.get(line);
    if (existing) {
      existing.hits = Math.max(existing.hits, hits);
      if (total > existing.branchesTotal || (total === existing.branchesTotal && covered > existing.branchesCovered)) {
        existing.branchesTotal = total;
        existing.branchesCovered = covered;
      }
      return;
    }
    const entry = makeLine(line, hits);
    entry.branchesCovered = covered;
    entry.branchesTotal = total;
    (state.lines as LineCoverage[]).push(entry);
    state.byNumber.set(line, entry);
  }

  return {
    write(bytes) {
      compiled?.forget();
      scanner.write(bytes);
    },
    end(): Coverage {
      scanner.end();
      if (!rootSeen) scanner.fail('format-mismatch', 'no <coverage> element', 0);
      const result: FileCoverage[] = [];
      for (const state of files.values()) {
        const lines = state.lines?.sort((a, b) => a.line - b.line) ?? null;
        const counters = emptyCounters();
        if (lines === null) {
          counters.line = counter(state.hitLines, state.packed.length - state.hitLines);
          counters.branch = counter(state.branchesCovered, state.branchesTotal - state.branchesCovered);
        } else {
          counters.line = lineCounter(lines);
          counters.branch = branchCounter(lines);
        }
        if (sawMethods) {
          let covered = 0;
          let all = 0;
          state.classes.forEach((c, i) => {
            const first = state.methodRows[i * 2] as number;
            const end = state.methodRows[i * 2 + 1] as number;
            const ran = methods.covered(first, end);
            c.counters.method = counter(ran, end - first - ran);
            covered += ran;
            all += end - first;
          });
          counters.method = counter(covered, all - covered);
        }
        const path = state.path;
        const language = languageOf(path);
        const classes = state.classes;
        result.push(
          lines === null
            ? withLazyLines({ path, language, classes, counters }, state.packed)
            : { path, language, lines, classes, counters },
        );
      }
      const coverage: Coverage = { format: 'cobertura', files: result, counters: totals(result) };
      if (sources.length > 0) coverage.sourceRoots = sources;
      return coverage;
    },
  };
}
