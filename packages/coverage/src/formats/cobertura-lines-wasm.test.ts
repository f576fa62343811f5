import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCompiledLineReader } from '../node/compiled.ts';
import { coberturaParser } from './cobertura.ts';
import { readLineRun } from './cobertura-lines.ts';
import { CompiledLineRuns } from './cobertura-lines-wasm.ts';

// The compiled reader of runs of Cobertura <line>s (assembly/cobertura-lines.ts) against
// readLineRun, which it stands in for: the lines it takes must be the ones readLineRun takes,
// with the same values, and where it stops early readLineRun must read the rest from there.

const loaded = loadCompiledLineReader();
const encode = (text: string) => new TextEncoder().encode(text);
type Row = [number, number, number, number];
const MAX_INT32 = 2 ** 31 - 1;
/** Lines a call of the compiled reader takes at most (assembly/cobertura-lines.ts's OUTPUT_LINES). */
const OUTPUT_LINES = 4096;
/** Room behind the runs: every line starts more than ROOM_AFTER (160) bytes before the end. */
const PADDING = `${' '.repeat(200)}</lines>`;

function jsRun(b: Uint8Array, lt: number): { rows: Row[]; end: number } {
  const rows: Row[] = [];
  const end = readLineRun(b, lt, (line, hits, covered, total) => rows.push([line, hits, covered, total]));
  return { rows, end };
}

function compiledRun(b: Uint8Array, lt: number, lastLine = 0, reader = CompiledLineRuns.open()) {
  if (reader === null) throw new Error('the compiled line reader is not installed');
  const count = reader.read(b, lt, lastLine);
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) rows.push([...reader.rows.subarray(i * 4, i * 4 + 4)] as Row);
  const tallies = [reader.hitLines, reader.branchesCovered, reader.branchesTotal];
  return { rows, end: count > 0 ? reader.end : -1, tallies };
}

function skipSpace(b: Uint8Array, at: number): number {
  while (at < b.length && [32, 9, 10, 13].includes(b[at] as number)) at++;
  return at;
}

/** The first rows the compiled reader may take: in order from `lastLine`, hits within 32 bits, a call's worth. */
function takeable(rows: Row[], lastLine = 0): Row[] {
  let previous = lastLine;
  let count = 0;
  for (const [line, hits] of rows) {
    if (line <= previous || hits > MAX_INT32 || count === OUTPUT_LINES) break;
    previous = line;
    count++;
  }
  return rows.slice(0, count);
}

/** Bytes a line needs after its start for the compiled reader to read it (assembly's ROOM_AFTER). */
const ROOM_AFTER = 160;

/**
 * The compiled reader on b from 0 against readLineRun, as the Cobertura parser uses them. It may
 * stop before a line without room after it, which `roomEverywhere` says none lacks.
 */
function expectAgreement(b: Uint8Array, roomEverywhere = false): void {
  const js = jsRun(b, 0);
  const compiled = compiledRun(b, 0);
  const expected = takeable(js.rows);
  if (compiled.rows.length < expected.length) {
    expect(roomEverywhere).toBe(false);
    const next = compiled.rows.length === 0 ? 0 : skipSpace(b, compiled.end);
    expect(next + ROOM_AFTER).toBeGreaterThan(b.length);
  }
  expect(compiled.rows).toEqual(expected.slice(0, compiled.rows.length));
  const hit = compiled.rows.filter(([, hits]) => hits > 0).length;
  const covered = compiled.rows.reduce((sum, row) => sum + row[2], 0);
  const total = compiled.rows.reduce((sum, row) => sum + row[3], 0);
  expect(compiled.tallies).toEqual([hit, covered, total]);
  if (compiled.rows.length === js.rows.length) expect(compiled.end).toBe(js.end);
  else if (compiled.rows.length > 0) {
    const rest = jsRun(b, skipSpace(b, compiled.end));
    expect(rest.rows).toEqual(js.rows.slice(compiled.rows.length));
    expect(rest.end).toBe(js.end);
  }
}

const usual = (number: string, hits: string, tail = '') => `<line number="${number}" hits="${hits}"${tail}/>`;
const SPELLINGS = [
  usual('1', '0'),
  usual('2', '3', ' branch="false"'),
  usual('3', '12', ' branch="true" condition-coverage="50% (1/2)"'),
  usual('4', '7', ' branch="true" condition-coverage="66.66666666666666% (2/3)"'),
  usual('5', '0', ' branch="true" condition-coverage="% (0/0)"'),
  usual('006', '000', ' branch="false"'),
  usual('7', String(MAX_INT32)),
  usual('999999999', '1', ' branch="true" condition-coverage="100.00000000000000000000% (999999999/999999999)"'),
  usual(String(MAX_INT32), '1'),
];

describe('the compiled Cobertura line reader', () => {
  it('is built by npm install and installed by the Node side', () => {
    expect(loaded).toBe(true);
    expect(CompiledLineRuns.open()).not.toBeNull();
  });

  it('takes every usual spelling with the values readLineRun reads, whatever whitespace is between', () => {
    for (const gap of ['', ' ', '\n            ', '\r\n\t']) {
      const b = encode(SPELLINGS.join(gap) + PADDING);
      const compiled = compiledRun(b, 0);
      expect(compiled.rows).toHaveLength(SPELLINGS.length);
      expect(compiled.rows).toEqual(jsRun(b, 0).rows);
      expect(compiled.end).toBe(jsRun(b, 0).end);
      expect(compiled.tallies).toEqual([6, 1 + 2 + 999999999, 2 + 3 + 999999999]);
    }
  });

  it.each([
    ['a NUL between lines', `\0${usual('2', '1')}`],
    ['more covered conditions than conditions', usual('2', '1', ' branch="true" condition-coverage="100% (3/2)"')],
    ['10-digit covered conditions', usual('2', '1', ' branch="true" condition-coverage="50% (0000000001/2)"')],
    ['10-digit conditions', usual('2', '1', ' branch="true" condition-coverage="50% (1/0000000002)"')],
    ['line number 0', usual('0', '1')],
    ['a 25-byte percentage', usual('2', '1', ` branch="true" condition-coverage="${'1'.repeat(25)}% (1/2)"`)],
    ['no closing ">"', usual('2', '1').replace('/>', '/ ')],
    ['branch="False"', usual('2', '1', ' branch="False"')],
    ['a 16-digit line number', usual('0000000000000002', '1')],
    ['16-digit hits', usual('2', '0000000000000001')],
    ['an empty line number', usual('', '1')],
    ['hits written as a float', usual('2', '1.0')],
    ['single quotes', usual('2', '1').replaceAll('"', "'")],
  ])('refuses what readLineRun refuses: %s', (_, second) => {
    const b = encode(`${usual('1', '1')}\n${second}\n${usual('3', '1')}${PADDING}`);
    expect(compiledRun(b, 0).rows).toEqual([[1, 1, 0, 0]]);
    expect(jsRun(b, 0).rows).toEqual([[1, 1, 0, 0]]);
    expect(compiledRun(b, skipSpace(b, compiledRun(b, 0).end)).rows).toEqual([]);
  });

  it('leaves a line out of order, hits above 2^31 - 1 and lines past a call’s worth to readLineRun', () => {
    const outOfOrder = encode(usual('5', '1') + usual('9', '1') + usual('9', '2') + usual('10', '1') + PADDING);
    expect(compiledRun(outOfOrder, 0).rows).toEqual([
      [5, 1, 0, 0],
      [9, 1, 0, 0],
    ]);
    expect(compiledRun(outOfOrder, 0, 5).rows).toEqual([]);
    expectAgreement(outOfOrder, true);
    const bigHits = encode(usual('1', '1') + usual('2', String(MAX_INT32 + 1)) + PADDING);
    expect(compiledRun(bigHits, 0).rows).toEqual([[1, 1, 0, 0]]);
    expect(jsRun(bigHits, 0).rows[1]).toEqual([2, MAX_INT32 + 1, 0, 0]);
    expectAgreement(bigHits, true);
    const long = encode(
      Array.from({ length: OUTPUT_LINES + 10 }, (_, i) => usual(String(i + 1), '1')).join('\n') + PADDING,
    );
    const first = compiledRun(long, 0);
    expect(first.rows).toHaveLength(OUTPUT_LINES);
    expect(compiledRun(long, skipSpace(long, first.end), OUTPUT_LINES).rows[0]).toEqual([OUTPUT_LINES + 1, 1, 0, 0]);
    expectAgreement(long, true);
  });

  it('reads no line that starts within 160 bytes of the buffer’s end, which readLineRun reads', () => {
    const run = SPELLINGS.slice(0, 3).join('\n');
    const b = encode(`${run}\n</lines>`);
    const compiled = compiledRun(b, 0);
    expect(compiled.rows.length).toBeLessThan(3);
    expect(jsRun(b, 0).rows).toHaveLength(3);
    expectAgreement(b);
  });

  it('copies a buffer once, and a buffer again after forget (the caller may reuse its chunk)', () => {
    const reader = CompiledLineRuns.open();
    const b = encode(usual('1', '5') + PADDING);
    expect(compiledRun(b, 0, 0, reader).rows).toEqual([[1, 5, 0, 0]]);
    b[usual('1', '').length - 3] = 0x37;
    expect(compiledRun(b, 0, 0, reader).rows).toEqual([[1, 5, 0, 0]]);
    reader?.forget();
    expect(compiledRun(b, 0, 0, reader).rows).toEqual([[1, 7, 0, 0]]);
  });

  it('serves parsers that take turns chunk by chunk (a server parses two uploads at once)', () => {
    const report = (hits: number) =>
      encode(
        `<coverage><packages><package name="p"><classes><class name="c" filename="c.js"><lines>\n${Array.from(
          { length: 300 },
          (_, i) => usual(String(i + 1), String((i * hits) % 5)),
        ).join('\n')}\n</lines></class></classes></package></packages></coverage>`,
      );
    const [a, b] = [report(1), report(3)];
    const alone = (bytes: Uint8Array) => {
      const parser = coberturaParser();
      parser.write(bytes);
      return parser.end();
    };
    const [first, second] = [coberturaParser(), coberturaParser()];
    for (let at = 0; at < a.length || at < b.length; at += 1000) {
      if (at < a.length) first.write(a.slice(at, at + 1000));
      if (at < b.length) second.write(b.slice(at, at + 1000));
    }
    const [fromA, fromB] = [first.end(), second.end()];
    expect(fromA).toEqual(alone(a));
    expect(fromB).toEqual(alone(b));
    expect(fromA.files[0]?.lines.map((l) => l.hits)).not.toEqual(fromB.files[0]?.lines.map((l) => l.hits));
  });

  it('grows its memory for a large buffer, and reads the next run there', () => {
    const lines = Array.from({ length: 80_000 }, (_, i) => usual(String(i + 1), String(i % 3)));
    const b = encode(`${lines.join('\n')}${PADDING}`);
    expect(b.length).toBeGreaterThan(2 * 1024 * 1024);
    const reader = CompiledLineRuns.open();
    let lt = 0;
    let lastLine = 0;
    let read = 0;
    for (;;) {
      const { rows, end } = compiledRun(b, lt, lastLine, reader);
      if (rows.length === 0) break;
      expect(rows[0]).toEqual([read + 1, read % 3, 0, 0]);
      read += rows.length;
      lastLine = (rows.at(-1) as Row)[0];
      lt = skipSpace(b, end);
    }
    expect(read).toBe(80_000);
  });
});

/** Bytes that the spellings turn on, put in anywhere. */
const PIECES = [
  '<',
  '/',
  '>',
  '"',
  "'",
  ' ',
  '\n',
  '=',
  '%',
  '(',
  ')',
  '.',
  '0',
  '9',
  '1234567890123456',
  'X',
  'é',
  '\0',
];
const line = fc
  .tuple(
    fc.integer({ min: 1, max: 1000 }),
    fc.oneof(fc.nat({ max: 1000 }), fc.constant(MAX_INT32), fc.constant(MAX_INT32 + 1)),
    fc.constantFrom('plain', 'false', 'conditions'),
    fc.nat({ max: 5 }),
    fc.nat({ max: 5 }),
    fc.constantFrom('', ' ', '\n    ', '\t', '\r\n'),
  )
  .map(([number, hits, kind, covered, total, gap]) => {
    const percent = total === 0 ? 0 : (covered / total) * 100;
    const tail =
      kind === 'plain'
        ? ''
        : kind === 'false'
          ? ' branch="false"'
          : ` branch="true" condition-coverage="${percent}% (${covered}/${total})"`;
    return { number, text: usual(String(number), String(hits), tail) + gap };
  });
const mutation = fc.record({
  at: fc.nat(),
  drop: fc.nat({ max: 3 }),
  piece: fc.oneof(fc.constant(''), fc.constantFrom(...PIECES)),
});

describe('the compiled Cobertura line reader (property)', () => {
  it('takes what readLineRun takes, in order, and readLineRun reads the rest from where it stops', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        fc.array(mutation, { maxLength: 3 }),
        (lines, sorted, mutations) => {
          const ordered = sorted ? [...lines].sort((a, b) => a.number - b.number) : lines;
          let text = ordered.map((l) => l.text).join('');
          for (const { at, drop, piece } of mutations) {
            const where = at % (text.length + 1);
            text = text.slice(0, where) + piece + text.slice(where + drop);
          }
          expectAgreement(encode(text + PADDING), true);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
