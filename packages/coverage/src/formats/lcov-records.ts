import type { LineArena } from '../model/line-buffer.ts';
import type { BranchIds } from './lcov-branch-ids.ts';
import { type LcovDone, type LcovFunction, LcovRecord } from './lcov-file.ts';
import type { Interner } from './shared.ts';
import { count, fail, lineNumber, MAX_COUNT } from './shared.ts';

/** What the record handlers share: the files by path, the open record, the BRDA ids. */
export type LcovState = {
  /** Each path's finished file, or for a path that came again, its own LcovRecord (see there). */
  records: Map<string, LcovDone | LcovRecord>;
  /** The record being read, while inside SF … end_of_record; else null. */
  current: LcovRecord | null;
  /** The reused record for a path's first SF. */
  record: LcovRecord;
  sawRecord: boolean;
  names: Interner;
  branchIds: BranchIds;
  /** Where the finished files' lines are packed. */
  arena: LineArena;
};

const at = (lineNo: number) => ({ line: lineNo });

function hitCount(raw: string | undefined, lineNo: number): number {
  if (raw?.startsWith('-')) fail('lcov', 'bad-number', `negative count "${raw?.slice(0, 40)}"`, at(lineNo));
  return count('lcov', raw?.trim(), 'count', at(lineNo));
}

export function addFunctionHits(file: LcovRecord, name: string, hits: number): void {
  const fn = file.functions.get(name);
  if (fn) fn.hits = Math.min(MAX_COUNT, fn.hits + hits);
  else file.functions.set(name, { startLine: null, endLine: null, hits });
}

export function addFunction(file: LcovRecord, name: string, start: number, end: number | null): LcovFunction {
  let fn = file.functions.get(name);
  if (fn) {
    fn.startLine ??= start;
    fn.endLine ??= end;
  } else {
    fn = { startLine: start, endLine: end, hits: 0 };
    file.functions.set(name, fn);
  }
  return fn;
}

/**
 * Any record as text, with every check and its error: the path for what the byte scanner's
 * fast paths leave (SF, end_of_record, lcov 2 records, anything unusual or wrong).
 */
export function handleRecord(state: LcovState, text: string, lineNo: number): void {
  if (text === '' || text.trim() === '') return;
  const colon = text.indexOf(':');
  const tag = colon === -1 ? text.trim() : text.slice(0, colon);
  const value = colon === -1 ? '' : text.slice(colon + 1);
  if (tag === 'end_of_record') {
    const record = state.current;
    if (!record) fail('lcov', 'bad-record', 'end_of_record without SF', at(lineNo));
    if (record === state.record) state.records.set(record.path, record.finish(state.branchIds, state.arena));
    state.current = null;
    return;
  }
  if (tag === 'TN' || tag === 'VER') return;
  if (tag === 'SF') {
    if (state.current) fail('lcov', 'bad-record', 'SF inside a record (missing end_of_record)', at(lineNo));
    if (value === '') fail('lcov', 'bad-record', 'SF without a path', at(lineNo));
    state.sawRecord = true;
    const path = state.names.get(value);
    const known = state.records.get(path);
    if (known === undefined) state.current = state.record.begin(path, undefined, state.branchIds);
    else if (known instanceof LcovRecord) state.current = known.resume();
    else {
      state.current = new LcovRecord(16).begin(path, known, state.branchIds);
      state.records.set(path, state.current);
    }
    return;
  }
  const file = state.current;
  if (!file) fail('lcov', 'bad-record', `${tag} outside a record`, at(lineNo));
  const fields = value.split(',');
  switch (tag) {
    case 'DA': {
      if (fields.length < 2) fail('lcov', 'bad-record', 'DA needs line,count', at(lineNo));
      file.addLine(lineNumber('lcov', fields[0], 'DA line', at(lineNo)), hitCount(fields[1], lineNo));
      return;
    }
    case 'FN': {
      // FN:<line>,<name> or (lcov 2) FN:<line>,<end line>,<name>
      if (fields.length < 2) fail('lcov', 'bad-record', 'FN needs line,name', at(lineNo));
      const start = lineNumber('lcov', fields[0], 'FN line', at(lineNo));
      const withEnd = fields.length >= 3 && /^\d+$/.test(fields[1] ?? '');
      const end = withEnd ? lineNumber('lcov', fields[1], 'FN end line', at(lineNo)) : null;
      addFunction(file, state.names.get(fields.slice(withEnd ? 2 : 1).join(',')), start, end);
      return;
    }
    case 'FNDA': {
      if (fields.length < 2) fail('lcov', 'bad-record', 'FNDA needs count,name', at(lineNo));
      const hits = hitCount(fields[0], lineNo);
      addFunctionHits(file, state.names.get(fields.slice(1).join(',')), hits);
      return;
    }
    case 'FNL': {
      // lcov 2: FNL:<index>,<line>[,<end line>]
      const start = lineNumber('lcov', fields[1], 'FNL line', at(lineNo));
      const end = fields[2] === undefined ? null : lineNumber('lcov', fields[2], 'FNL end line', at(lineNo));
      file.functionIndex.set(`${fields[0]}`, `${start},${end ?? ''}`);
      return;
    }
    case 'FNA': {
      // lcov 2: FNA:<index>,<count>,<name>
      const range = file.functionIndex.get(`${fields[0]}`);
      if (range === undefined) fail('lcov', 'bad-record', 'FNA without its FNL', at(lineNo));
      const hits = hitCount(fields[1], lineNo);
      const [start, end] = range.split(',');
      const name = state.names.get(fields.slice(2).join(','));
      if (file.functions.has(name)) addFunctionHits(file, name, hits);
      else file.functions.set(name, { startLine: Number(start), endLine: end ? Number(end) : null, hits });
      return;
    }
    case 'BRDA': {
      if (fields.length < 4) fail('lcov', 'bad-record', 'BRDA needs line,block,branch,taken', at(lineNo));
      // lcov itself accepts BRDA line 0: coverage.py 6.5 writes it for arcs leaving a function.
      const line = fields[0] === '0' ? 0 : lineNumber('lcov', fields[0], 'BRDA line', at(lineNo));
      const taken = fields[3] === '-' ? 0 : hitCount(fields[3], lineNo);
      const block = state.branchIds.of(fields[1] ?? '');
      file.addBranch(line, block, state.branchIds.of(fields.slice(2, -1).join(',')), taken);
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
}
