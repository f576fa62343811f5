import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FileCoverage, LineCoverage } from './coverage.ts';
import { emptyCounters } from './coverage.ts';
import { LineArena, LineBuffer, lineColumns, withLazyLines, withPath } from './line-buffer.ts';
import { ascendingUnique } from './sorted.ts';

const line = (n: number, hits: number, covered = 0, total = 0): LineCoverage => ({
  line: n,
  hits,
  branchesCovered: covered,
  branchesTotal: total,
  instructionsCovered: null,
  instructionsMissed: null,
});

function fileOf(lines: LineCoverage[], arena = new LineArena()): FileCoverage {
  const buffer = new LineBuffer(arena);
  for (const l of lines) buffer.push(l.line, l.hits, l.branchesCovered, l.branchesTotal);
  return withLazyLines({ path: 'src/a.js', language: 'javascript', classes: [], counters: emptyCounters() }, buffer);
}

/** Every field of every line as read through `lineColumns`. */
function readColumns(file: FileCoverage): LineCoverage[] {
  const columns = lineColumns(file);
  return Array.from({ length: columns.length }, (_, i) => ({
    line: columns.line(i),
    hits: columns.hits(i),
    branchesCovered: columns.branchesCovered(i),
    branchesTotal: columns.branchesTotal(i),
    instructionsCovered: columns.instructionsCovered(i),
    instructionsMissed: columns.instructionsMissed(i),
  }));
}

describe('LineBuffer', () => {
  it('keeps each file’s lines whatever the order pushes of several files come in, across arena blocks', () => {
    // Three files filled in turns of random length, 200k lines in all: rooms move when a file
    // outgrows its room while another file's room follows it, and blocks (64k lines) fill up.
    const arena = new LineArena();
    const buffers = [new LineBuffer(arena), new LineBuffer(arena), new LineBuffer(arena)];
    const expected: number[][] = [[], [], []];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let pushed = 0; pushed < 200_000; ) {
      const which = Math.floor(random() * 3);
      const run = 1 + Math.floor(random() * 300);
      for (let i = 0; i < run; i++, pushed++) {
        const number = (expected[which] as number[]).length + 1;
        (buffers[which] as LineBuffer).push(number, number * 3 + which, which, which * 2);
        (expected[which] as number[]).push(number);
      }
    }
    buffers.forEach((buffer, which) => {
      const numbers = expected[which] as number[];
      expect(buffer.length).toBe(numbers.length);
      expect(buffer.lastLine()).toBe(numbers.length);
      const made = buffer.lines();
      expect(made.map((l) => l.line)).toEqual(numbers);
      expect(made.every((l) => l.hits === l.line * 3 + which && l.branchesCovered === which)).toBe(true);
      expect(made.every((l) => l.branchesTotal === which * 2 && l.instructionsCovered === null)).toBe(true);
    });
  });

  it('keeps hits up to 2^53 - 1 exactly, beside the 32-bit fields when they do not fit', () => {
    const counts = [0, 1, 2 ** 31 - 1, 2 ** 31, 5_000_000_000, Number.MAX_SAFE_INTEGER];
    const file = fileOf(counts.map((hits, i) => line(i + 1, hits, i % 2, 1)));
    expect(readColumns(file).map((l) => l.hits)).toEqual(counts);
    expect(lineColumns(file).sum(1, 6, () => true)).toMatchObject({ lines: 6, hit: 5, branchesCovered: 3 });
    expect(file.lines.map((l) => l.hits)).toEqual(counts);
  });

  it('finds the first line at or after a number as a scan would', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { maxLength: 60 }), fc.nat(520), (raw, wanted) => {
        const numbers = [...raw].sort((a, b) => a - b);
        const file = fileOf(numbers.map((n) => line(n, n % 3)));
        const scanned = numbers.findIndex((n) => n >= wanted);
        expect(lineColumns(file).firstAtLeast(wanted)).toBe(scanned === -1 ? numbers.length : scanned);
      }),
    );
  });
});

describe('sum over a range', () => {
  const lineArb = fc.record({
    // Beside small counts, hits a 32-bit field cannot hold, kept beside the block.
    hits: fc.oneof(fc.nat(3), fc.constantFrom(2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER)),
    covered: fc.nat(2),
    extra: fc.nat(2),
    instructions: fc.option(fc.nat(4), { nil: null }),
  });

  it('equals a scan of the line objects, packed or not; instructions only when every line has them', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 80 }), { maxLength: 40 }),
        fc.array(lineArb, { minLength: 40, maxLength: 40 }),
        fc.integer({ min: 0, max: 90 }),
        fc.integer({ min: 0, max: 90 }),
        fc.integer({ min: 2, max: 5 }),
        (raw, values, first, last, modulus) => {
          const lines = [...raw]
            .sort((a, b) => a - b)
            .map((n, i) => {
              const v = values[i] as (typeof values)[number];
              const l = line(n, v.hits, v.covered, v.covered + v.extra);
              return { ...l, instructionsCovered: v.instructions, instructionsMissed: v.instructions };
            });
          const keep = (n: number) => n % modulus !== 0;
          const kept = lines.filter((l) => l.line >= first && l.line <= last && keep(l.line));
          const expected = {
            lines: kept.length,
            hit: kept.filter((l) => l.hits > 0).length,
            branchesCovered: kept.reduce((a, l) => a + l.branchesCovered, 0),
            branchesTotal: kept.reduce((a, l) => a + l.branchesTotal, 0),
          };
          const packed = fileOf(lines);
          expect(lineColumns(packed).sum(first, last, keep)).toEqual({
            ...expected,
            instructionsCovered: null,
            instructionsMissed: null,
          });
          const everyLine = kept.every((l) => l.instructionsCovered !== null);
          const instructions = everyLine ? kept.reduce((a, l) => a + (l.instructionsCovered ?? 0), 0) : null;
          const objects = { ...fileOf([]), lines };
          expect(lineColumns(objects).sum(first, last, keep)).toEqual({
            ...expected,
            instructionsCovered: instructions,
            instructionsMissed: instructions,
          });
        },
      ),
    );
  });
});

describe('withLazyLines', () => {
  const lines = [line(2, 0), line(5, 3, 1, 2), line(9, 1)];

  it('reads the same lines packed and as objects, and makes them once', () => {
    const file = fileOf(lines);
    expect(readColumns(file)).toEqual(lines);
    expect(file.lines).toEqual(lines);
    expect(file.lines).toBe(file.lines);
    expect(readColumns(file)).toEqual(lines);
  });

  it('shows the lines to a spread copy, to JSON and to structured clone', () => {
    const file = fileOf(lines);
    expect({ ...file }.lines).toEqual(lines);
    expect((JSON.parse(JSON.stringify(fileOf(lines))) as FileCoverage).lines).toEqual(lines);
    expect(structuredClone(fileOf(lines)).lines).toEqual(lines);
    expect(Object.keys(fileOf(lines))).toEqual(['path', 'language', 'lines', 'classes', 'counters']);
  });

  it('reads lines assigned later, not the packed ones', () => {
    const file = fileOf(lines);
    const replaced = [line(1, 4)];
    file.lines = replaced;
    expect(file.lines).toBe(replaced);
    expect(readColumns(file)).toEqual(replaced);
  });

  it('withPath renames a copy that reads the same lines, and leaves the original as it was', () => {
    const file = fileOf(lines);
    const copy = withPath(file, 'lib/a.js');
    expect(copy.path).toBe('lib/a.js');
    expect(file.path).toBe('src/a.js');
    expect(readColumns(copy)).toEqual(lines);
    expect(copy.lines).toEqual(lines);
    expect(file.lines).toEqual(lines);
    const eager = withPath({ ...file, lines: [line(3, 1)] }, 'b.js');
    expect(readColumns(eager)).toEqual([line(3, 1)]);
  });
});

describe('ascendingUnique', () => {
  it('returns ascending lines as they are, and sorts and dedupes the others', () => {
    const ascending = [1, 4, 9];
    expect(ascendingUnique(ascending)).toBe(ascending);
    expect(ascendingUnique([4, 1, 4, 9, 1])).toEqual([1, 4, 9]);
    expect(ascendingUnique([])).toEqual([]);
  });
});
