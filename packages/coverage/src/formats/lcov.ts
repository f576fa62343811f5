import {
  type ClassCoverage,
  type Counters,
  type Coverage,
  emptyCounters,
  type FileCoverage,
  type LineCoverage,
  type MethodCoverage,
} from '../model/coverage.ts';
import { LineSplitter } from './lines.ts';
import {
  count,
  counter,
  fail,
  Interner,
  languageOf,
  lineCounter,
  lineNumber,
  MAX_LINE,
  newLine,
  sortedLines,
  sumCounters,
  type TextParser,
} from './shared.ts';

type Record = {
  path: string;
  lines: Map<number, LineCoverage>;
  functions: Map<string, { startLine: number | null; endLine: number | null; hits: number }>;
  /** LCOV 2 FNL/FNA index → function name. */
  functionIndex: Map<string, string>;
  branches: Map<string, number>;
};

/**
 * LCOV tracefiles. Counters: line (DA), branch (BRDA), method (FN/FNDA); the rest are null.
 * The summary records (LF/LH, BRF/BRH, FNF/FNH) are checked for sanity but the figures come
 * from the data records, as `lcov --summary` computes them. Records for the same SF merge.
 */
export function lcovParser(): TextParser {
  const names = new Interner();
  const records = new Map<string, Record>();
  let current: Record | null = null;
  let sawRecord = false;

  const at = (lineNo: number) => ({ line: lineNo });
  const splitter = new LineSplitter('lcov', (text, lineNo) => {
    if (current && fastLine(current, text)) return;
    if (text === '' || text.trim() === '') return;
    const colon = text.indexOf(':');
    const tag = colon === -1 ? text.trim() : text.slice(0, colon);
    const value = colon === -1 ? '' : text.slice(colon + 1);
    if (tag === 'end_of_record') {
      if (!current) fail('lcov', 'bad-record', 'end_of_record without SF', at(lineNo));
      current = null;
      return;
    }
    if (tag === 'TN' || tag === 'VER') return;
    if (tag === 'SF') {
      if (current) fail('lcov', 'bad-record', 'SF inside a record (missing end_of_record)', at(lineNo));
      if (value === '') fail('lcov', 'bad-record', 'SF without a path', at(lineNo));
      sawRecord = true;
      const path = names.get(value);
      current = records.get(path) ?? {
        path,
        lines: new Map(),
        functions: new Map(),
        functionIndex: new Map(),
        branches: new Map(),
      };
      records.set(path, current);
      return;
    }
    if (!current) fail('lcov', 'bad-record', `${tag} outside a record`, at(lineNo));
    const fields = value.split(',');
    const record = current;
    switch (tag) {
      case 'DA': {
        if (fields.length < 2) fail('lcov', 'bad-record', 'DA needs line,count', at(lineNo));
        const line = lineNumber('lcov', fields[0], 'DA line', at(lineNo));
        const hits = hitCount(fields[1], lineNo);
        const existing = record.lines.get(line);
        if (existing) existing.hits = Math.min(Number.MAX_SAFE_INTEGER, existing.hits + hits);
        else record.lines.set(line, newLine(line, hits));
        return;
      }
      case 'FN': {
        // FN:<line>,<name> or (lcov 2) FN:<line>,<end line>,<name>
        if (fields.length < 2) fail('lcov', 'bad-record', 'FN needs line,name', at(lineNo));
        const start = lineNumber('lcov', fields[0], 'FN line', at(lineNo));
        const withEnd = fields.length >= 3 && /^\d+$/.test(fields[1] ?? '');
        const end = withEnd ? lineNumber('lcov', fields[1], 'FN end line', at(lineNo)) : null;
        const name = names.get(fields.slice(withEnd ? 2 : 1).join(','));
        const fn = record.functions.get(name);
        if (fn) {
          fn.startLine ??= start;
          fn.endLine ??= end;
        } else record.functions.set(name, { startLine: start, endLine: end, hits: 0 });
        return;
      }
      case 'FNDA': {
        if (fields.length < 2) fail('lcov', 'bad-record', 'FNDA needs count,name', at(lineNo));
        const hits = hitCount(fields[0], lineNo);
        const name = names.get(fields.slice(1).join(','));
        const fn = record.functions.get(name);
        if (fn) fn.hits = Math.min(Number.MAX_SAFE_INTEGER, fn.hits + hits);
        else record.functions.set(name, { startLine: null, endLine: null, hits });
        return;
      }
      case 'FNL': {
        // lcov 2: FNL:<index>,<line>[,<end line>]
        const start = lineNumber('lcov', fields[1], 'FNL line', at(lineNo));
        const end = fields[2] === undefined ? null : lineNumber('lcov', fields[2], 'FNL end line', at(lineNo));
        record.functionIndex.set(`${fields[0]}`, `${start},${end ?? ''}`);
        return;
      }
      case 'FNA': {
        // lcov 2: FNA:<index>,<count>,<name>
        const range = record.functionIndex.get(`${fields[0]}`);
        if (range === undefined) fail('lcov', 'bad-record', 'FNA without its FNL', at(lineNo));
        const hits = hitCount(fields[1], lineNo);
        const [start, end] = range.split(',');
        const name = names.get(fields.slice(2).join(','));
        const fn = record.functions.get(name);
        if (fn) fn.hits = Math.min(Number.MAX_SAFE_INTEGER, fn.hits + hits);
        else record.functions.set(name, { startLine: Number(start), endLine: end ? Number(end) : null, hits });
        return;
      }
      case 'BRDA': {
        if (fields.length < 4) fail('lcov', 'bad-record', 'BRDA needs line,block,branch,taken', at(lineNo));
        // lcov itself accepts BRDA line 0: coverage.py 6.5 writes it for arcs leaving a function.
        const line = fields[0] === '0' ? 0 : lineNumber('lcov', fields[0], 'BRDA line', at(lineNo));
        const taken = fields[3] === '-' ? 0 : hitCount(fields[3], lineNo);
        const key = `${line},${fields[1]},${fields.slice(2, -1).join(',')}`;
        record.branches.set(key, Math.min(Number.MAX_SAFE_INTEGER, (record.branches.get(key) ?? 0) + taken));
        return;
      }
      case 'LF':
      case 'LH':
      case 'BRF':
      case 'BRH':
      case 'FNF':
      case 'FNH':
        count('lcov', value.trim(), tag, at(lineNo));
        return;
      default:
        fail('lcov', 'bad-record', `unknown LCOV record "${tag.slice(0, 20)}"`, at(lineNo));
    }
  });

  function hitCount(raw: string | undefined, lineNo: number): number {
    if (raw?.startsWith('-')) fail('lcov', 'bad-number', `negative count "${raw?.slice(0, 40)}"`, at(lineNo));
    return count('lcov', raw?.trim(), 'count', at(lineNo));
  }

  return {
    write(text) {
      splitter.write(text);
    },
    end(): Coverage {
      splitter.end();
      if (current)
        fail('lcov', 'unexpected-eof', `record for ${(current as Record).path} lacks end_of_record`, {
          line: splitter.lineNumber,
        });
      if (!sawRecord) fail('lcov', 'empty-input', 'no SF records');
      const files = [...records.values()].map(toFile);
      return { format: 'lcov', files, counters: totals(files) };
    },
  };
}

/** Digits of text[start, end) as a number; -1 when empty, not all digits, or above 2^53. */
function digits(text: string, start: number, end: number): number {
  if (end <= start || end - start > 16) return -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return Number.isSafeInteger(value) ? value : -1;
}

/**
 * The common well-formed `DA:<line>,<count>[,<checksum>]` record without splitting or
 * allocating; anything unusual returns false and takes the checked path with its errors.
 */
function fastLine(record: Record, text: string): boolean {
  if (text.charCodeAt(0) !== 68 || text.charCodeAt(1) !== 65 || text.charCodeAt(2) !== 58) return false;
  const comma = text.indexOf(',', 3);
  if (comma === -1) return false;
  let end = text.indexOf(',', comma + 1);
  if (end === -1) end = text.length;
  const line = digits(text, 3, comma);
  const hits = digits(text, comma + 1, end);
  if (line < 1 || line > MAX_LINE || hits < 0) return false;
  const existing = record.lines.get(line);
  if (existing) existing.hits = Math.min(Number.MAX_SAFE_INTEGER, existing.hits + hits);
  else record.lines.set(line, newLine(line, hits));
  return true;
}

function toFile(record: Record): FileCoverage {
  // As `lcov --summary`: every BRDA counts in the file's branches, but only DA lines are coverable
  // lines, so a branch on a line without DA (line 0 above) is in no line's data.
  let branchesCovered = 0;
  for (const [key, taken] of record.branches) {
    if (taken > 0) branchesCovered++;
    const entry = record.lines.get(Number(key.slice(0, key.indexOf(','))));
    if (!entry) continue;
    entry.branchesTotal++;
    if (taken > 0) entry.branchesCovered++;
  }
  const lines = sortedLines(record.lines);
  const methods: MethodCoverage[] = [...record.functions].map(([name, fn]) => ({
    name,
    signature: null,
    startLine: fn.startLine,
    endLine: fn.endLine,
    counters: { ...emptyCounters(), method: counter(fn.hits > 0 ? 1 : 0, fn.hits > 0 ? 0 : 1) },
  }));
  const classes: ClassCoverage[] =
    methods.length > 0 ? [{ name: record.path, methods, counters: emptyCounters() }] : [];
  const counters: Counters = emptyCounters();
  counters.line = lineCounter(lines);
  counters.branch = counter(branchesCovered, record.branches.size - branchesCovered);
  counters.method = sumCounters(methods.map((m) => m.counters.method)) ?? counter(0, 0);
  if (classes[0]) classes[0].counters = { ...counters };
  return { path: record.path, language: languageOf(record.path), lines, classes, counters };
}

export function totals(files: readonly FileCoverage[]): Counters {
  const counters = emptyCounters();
  for (const kind of Object.keys(counters) as (keyof Counters)[]) {
    counters[kind] = sumCounters(files.map((f) => f.counters[kind]));
  }
  return counters;
}
