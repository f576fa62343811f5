import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COVERAGE_ERROR_CODES, CoverageError } from '../errors.ts';
import type { Counter, Coverage } from '../model/coverage.ts';
import { lineColumns } from '../model/line-buffer.ts';
import { loadCompiledLineReader } from '../node/compiled.ts';
import { preferCompiledLineReader } from './cobertura-lines-wasm.ts';
import { createCoverageParser } from './parser.ts';

// The reports the real tools wrote (fixtures/), broken at random: bytes flipped, cut, dropped,
// repeated elsewhere, and markup, numbers and record keys put in. Whatever comes of it, a parser
// gives either a coherent model or a CoverageError, never another exception, and the same one
// however the bytes are chunked: the first fault in reading order is the one named. Cobertura's
// runs of lines are read by the compiled reader where it can, and by JavaScript alone in chunks.

loadCompiledLineReader();

const REPORTS = [
  'jacoco/jacoco.xml',
  'jacoco/jacoco-main.xml',
  'js/cobertura-coverage.xml',
  'c/gcovr-cobertura.xml',
  'python/coverage.xml',
  'js/clover.xml',
  'js/lcov.info',
  'c/lcov.info',
  'lcov/edge-01.info',
  'js/coverage-final.json',
  'python/coverage.json',
  'go/cover-set.out',
  'go/cover-atomic.out',
] as const;

const report = (path: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/${path}`, import.meta.url)));
const REPORT_BYTES = REPORTS.map(report);

/** What the formats' grammars turn on, put in anywhere. */
const PIECES = [
  '<',
  '>',
  '/>',
  '"',
  "'",
  '&',
  '&amp;',
  '&#0;',
  '&#x110000;',
  '&lol;',
  ']]>',
  '<!--',
  '-->',
  '<?x?>',
  '<![CDATA[',
  '<!DOCTYPE x [<!ENTITY a "b">]>',
  '\0',
  '\n',
  '\r',
  '-1',
  '999999999999999999999',
  '1e309',
  'NaN',
  '0.5',
  ',',
  ':',
  '{',
  '}',
  '[',
  ']',
  '\\',
  'é',
  '\uffff',
  '../',
  'DA:',
  'SF:',
  'end_of_record',
  'BRDA:1,0,0,-',
  'FN:',
  'FNDA:',
  'mode: set',
  '=',
  'hits="',
  'number="',
  'nr="',
  'num="',
  '<line ',
  '</line>',
  '<class ',
  '</class>',
  '<method ',
  '<lines>',
  '</lines>',
  '<file ',
  '"executed_lines": [',
  'null',
  'true',
].map((piece) => new TextEncoder().encode(piece));

type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'cut'; at: number }
  | { kind: 'insert'; at: number; piece: number }
  | { kind: 'drop'; at: number; length: number }
  | { kind: 'repeat'; at: number; from: number; length: number }
  | { kind: 'digit'; at: number; digit: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip'), at: fc.nat(), bit: fc.nat({ max: 7 }) }),
  fc.record({ kind: fc.constant('cut'), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert'), at: fc.nat(), piece: fc.nat({ max: PIECES.length - 1 }) }),
  fc.record({ kind: fc.constant('drop'), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('repeat'), at: fc.nat(), from: fc.nat(), length: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ kind: fc.constant('digit'), at: fc.nat(), digit: fc.nat({ max: 9 }) }),
) as fc.Arbitrary<Mutation>;

function splice(bytes: Uint8Array, at: number, remove: number, insert: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length - remove + insert.length);
  out.set(bytes.subarray(0, at));
  out.set(insert, at);
  out.set(bytes.subarray(at + remove), at + insert.length);
  return out;
}

function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
  const at = m.at % (bytes.length + 1);
  switch (m.kind) {
    case 'flip': {
      const out = bytes.slice();
      if (at < out.length) out[at] = (out[at] as number) ^ (1 << m.bit);
      return out;
    }
    case 'cut':
      return bytes.subarray(0, at);
    case 'insert':
      return splice(bytes, at, 0, PIECES[m.piece] as Uint8Array);
    case 'drop':
      return splice(bytes, at, Math.min(m.length, bytes.length - at), new Uint8Array(0));
    case 'repeat': {
      const from = m.from % (bytes.length + 1);
      return splice(bytes, at, 0, bytes.slice(from, from + m.length));
    }
    case 'digit': {
      const out = bytes.slice();
      const c = out[at];
      if (c !== undefined && c >= 0x30 && c <= 0x39) out[at] = 0x30 + m.digit;
      return out;
    }
  }
}

type Outcome = { model: string } | { error: string };

/**
 * The report parsed from chunks of `size` bytes (the first 16 KiB are held back to detect the
 * format), Cobertura's lines read with the compiled reader or without.
 */
function parseInChunks(bytes: Uint8Array, size: number, compiledLines = true): Outcome {
  let coverage: Coverage;
  preferCompiledLineReader(compiledLines);
  try {
    const parser = createCoverageParser('auto');
    for (let at = 0; at < bytes.length; at += size) parser.write(bytes.slice(at, at + size));
    coverage = parser.end();
  } catch (error) {
    if (!(error instanceof CoverageError)) throw error;
    expect(COVERAGE_ERROR_CODES).toContain(error.code);
    return { error: error.message };
  } finally {
    preferCompiledLineReader(true);
  }
  expectCoherent(coverage);
  return { model: JSON.stringify(coverage) };
}

const counterIsSound = (c: Counter | null) =>
  c === null || (Number.isSafeInteger(c.covered) && Number.isSafeInteger(c.missed) && c.covered >= 0 && c.missed >= 0);

/** One entry per line, ascending; hits and branch counts whole and not negative; counters sound. */
function expectCoherent(coverage: Coverage): void {
  for (const counter of Object.values(coverage.counters)) expect(counterIsSound(counter)).toBe(true);
  for (const file of coverage.files) {
    for (const counter of Object.values(file.counters)) expect(counterIsSound(counter)).toBe(true);
    const lines = lineColumns(file);
    let previous = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines.line(i);
      const covered = lines.branchesCovered(i);
      expect(line).toBeGreaterThan(previous);
      expect(Number.isSafeInteger(lines.hits(i)) && lines.hits(i) >= 0).toBe(true);
      expect(covered >= 0 && covered <= lines.branchesTotal(i)).toBe(true);
      previous = line;
    }
  }
}

describe('reports of the real tools, broken at random (property)', () => {
  it.each(REPORTS.map((path, index) => [path, index] as const))(
    '%s: a coherent model or a CoverageError, the same in one piece and in chunks',
    (_, index) => {
      const original = REPORT_BYTES[index] as Uint8Array;
      fc.assert(
        fc.property(
          fc.array(mutation, { minLength: 1, maxLength: 4 }),
          fc.integer({ min: 1, max: 4096 }),
          (ms, size) => {
            const broken = ms.reduce(mutate, original);
            expect(parseInChunks(broken, size, false)).toEqual(parseInChunks(broken, broken.length + 1));
          },
        ),
        { numRuns: 120 },
      );
    },
  );

  it('names the first fault in reading order: markup broken before a broken character, then the character itself', () => {
    const original = REPORT_BYTES[0] as Uint8Array;
    const text = new TextDecoder().decode(original);
    const late = original.length - 40;
    const brokenByte = original.slice();
    brokenByte[late] = 0xff;
    const at = text.indexOf('<package');
    const withBoth = splice(brokenByte, at, 0, new TextEncoder().encode('<a/>'));
    for (const size of [64, 1000, withBoth.length]) {
      expect(parseInChunks(withBoth, size)).toEqual({
        error: `<input>:1:${at + 1}: unexpected <a> in a JaCoCo report (malformed-xml)`,
      });
      expect(parseInChunks(brokenByte, size)).toEqual({
        error: `<input> at byte ${late}: the report is not valid UTF-8 (not-utf8)`,
      });
    }
  });
});
