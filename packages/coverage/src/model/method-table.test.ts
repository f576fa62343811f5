import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ClassCoverage, emptyCounters, type MethodCoverage } from './coverage.ts';
import { MethodTable, withLazyMethods } from './method-table.ts';

type Row = { name: string; signature: string | null; lines: { line: number; hits: number }[] };

/** The method a row's lines make: its range, and covered when any line ran. */
function expected(row: Row): MethodCoverage {
  const counters = emptyCounters();
  const ran = row.lines.some((l) => l.hits > 0) ? 1 : 0;
  counters.method = { covered: ran, missed: 1 - ran };
  const numbers = row.lines.map((l) => l.line);
  return {
    name: row.name,
    signature: row.signature,
    startLine: numbers.length > 0 ? Math.min(...numbers) : null,
    endLine: numbers.length > 0 ? Math.max(...numbers) : null,
    counters,
  };
}

const rowArb = fc.record({
  name: fc.string({ maxLength: 4 }),
  signature: fc.option(fc.string({ maxLength: 4 }), { nil: null }),
  lines: fc.array(fc.record({ line: fc.integer({ min: 1, max: 500 }), hits: fc.nat(2) }), { maxLength: 5 }),
});

describe('MethodTable', () => {
  it('makes each row the method its lines describe, and counts the rows that ran', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 80 }), fc.nat(80), (rows, split) => {
        const table = new MethodTable();
        for (const row of rows) {
          const index = table.add(row.name, row.signature);
          for (const { line, hits } of row.lines) table.addLine(index, line, hits);
        }
        const cut = Math.min(split, rows.length);
        expect(table.methods(0, rows.length)).toEqual(rows.map(expected));
        expect(table.methods(cut, rows.length)).toEqual(rows.slice(cut).map(expected));
        const ran = rows.slice(0, cut).filter((r) => r.lines.some((l) => l.hits > 0)).length;
        expect(table.covered(0, cut)).toBe(ran);
      }),
    );
  });
});

describe('withLazyMethods', () => {
  const table = new MethodTable();
  for (const name of ['a', 'b', 'c']) table.add(name, null);
  table.addLine(1, 7, 1);
  const lazy = (): ClassCoverage => withLazyMethods({ name: 'C', counters: emptyCounters() }, table, 1, 3);

  it('gives the rows’ methods on reading, once, and to a spread copy, JSON and structured clone', () => {
    const cls = lazy();
    const methods = table.methods(1, 3);
    expect(cls.methods).toEqual(methods);
    expect(cls.methods).toBe(cls.methods);
    expect({ ...lazy() }.methods).toEqual(methods);
    expect((JSON.parse(JSON.stringify(lazy())) as ClassCoverage).methods).toEqual(methods);
    expect(structuredClone(lazy()).methods).toEqual(methods);
    expect(Object.keys(lazy())).toEqual(['name', 'methods', 'counters']);
  });

  it('keeps methods assigned later', () => {
    const cls = lazy();
    cls.methods = [];
    expect(cls.methods).toEqual([]);
  });
});
