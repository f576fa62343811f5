import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { filterShape, filterValues, headlineSql, pageSql, type RiskPage } from './page-reads.ts';
import type { RiskFilter } from './repository.ts';

// The risk reads are built once per shape and kept (page-reads.ts): a statement's text must depend on
// nothing but its shape, or a cached text would answer another filter. Each filter below is built
// with two sets of values; one shape must give one text, and every placeholder must have a value.

const dialect = new PgDialect();
const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

const setFilters = (bits: number) => [...bits.toString(2)].filter((b) => b === '1').length;

/** Every combination of up to three set filters, and all of them, each with two sets of values. */
function filters(): [RiskFilter, RiskFilter][] {
  const out: [RiskFilter, RiskFilter][] = [];
  for (let bits = 0; bits < 1 << 9; bits++) {
    if (setFilters(bits) > 3 && bits !== (1 << 9) - 1) continue;
    const on = (i: number) => (bits & (1 << i)) !== 0;
    const make = (v: 0 | 1): RiskFilter => ({
      appIds: on(0) ? (v ? [A, B] : []) : null,
      mine: false,
      assignedToMe: false,
      ...(on(1) ? { version: v ? 'v2' : 'v1' } : {}),
      ...(on(2) ? { testType: v ? 2 : 1 } : {}),
      ...(on(3) ? { author: v ? 'bob_%' : 'ann' } : {}),
      ...(on(4) ? { authorIdentities: { emails: v ? ['a@x', 'b@x'] : ['c@x'], names: on(5) ? ['ann'] : [] } } : {}),
      ...(on(6) ? { assigneeId: v ? A : B } : {}),
      ...(on(7) ? { kind: v ? 'exception' : 'coverage' } : {}),
      ...(on(8) ? { ids: v ? [A] : [A, B] } : {}),
      ...(bits % 3 === 0 ? {} : { state: bits % 3 === 1 ? ['pending', 'observing'] : ['judged'] }),
    });
    out.push([make(0), make(1)]);
  }
  return out;
}

const text = (build: () => ReturnType<typeof headlineSql>, values: Record<string, unknown>) => {
  const { sql, params } = dialect.sqlToQuery(build());
  // Every placeholder has a value (fillPlaceholders would throw at the call otherwise).
  for (const p of params) {
    const name = (p as { name?: unknown }).name;
    if (typeof name === 'string') expect(values, name).toHaveProperty(name);
  }
  return sql;
};

describe('risk statements built once per shape', () => {
  it('give one text per shape, whatever the values', () => {
    const page: RiskPage = { page: 1, perPage: 20, sortBy: 'severity', sortDesc: true };
    const textsByShape = new Map<string, string>();
    for (const [one, other] of filters()) {
      expect(filterShape(one)).toBe(filterShape(other));
      for (const items of ['overdue', 'rest', 'all'] as const) {
        for (const deep of [false, true]) {
          const values = { ...filterValues(one), limit: 1, offset: 0, overdueLimit: 1 };
          const a = text(() => pageSql(one, page, items, deep, true), values);
          const b = text(() => pageSql(other, { ...page, page: 9 }, items, deep, true), values);
          expect(b).toBe(a);
        }
      }
      const headline = text(() => headlineSql(one), filterValues(one));
      expect(text(() => headlineSql(other), filterValues(other))).toBe(headline);
      textsByShape.set(filterShape(one), headline);
    }
    // Different shapes are different statements.
    expect(new Set(textsByShape.values()).size).toBe(textsByShape.size);
  });

  it('keep values out of the text', () => {
    const f: RiskFilter = { appIds: [A], version: "v1' or true --", mine: false, assignedToMe: false };
    const built = dialect.sqlToQuery(headlineSql(f)).sql;
    expect(built).not.toContain('v1');
    expect(built).not.toContain(A);
    expect(filterValues(f)).toMatchObject({ appIds: [A], version: "v1' or true --" });
  });
});
