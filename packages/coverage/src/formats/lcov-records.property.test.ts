import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Coverage } from '../model/coverage.ts';
import { parseCoverage } from './parser.ts';

// The LCOV parser builds each record's model at its end_of_record, and a later record for the same
// path starts from that model. Checked here against a direct summation of the records, as lcov adds
// them: DA hits per line, BRDA taken per (line, block, branch), FNDA hits per function name; and a
// path with no DA line in any of its records left out with its functions and branches ("empty files").

type Fn = { name: string; line: number; endLine: number | null };
type LcovRecordSpec = {
  path: string;
  crlf: boolean;
  fns: Fn[];
  /** FNDA records as [name, hits]: for the FN names in their order, in another order, or for others. */
  fnda: [string, number][];
  da: [number, number][];
  brda: [number, string, string, number | null][];
  brdaFirst: boolean;
};

const fnName = fc.constantFrom('main', 'helper', '(anonymous_0)', 'f,g', 'x1', 'é日', '2fast');
const count = fc.oneof(
  fc.nat({ max: 5 }),
  fc.constantFrom(0, 2 ** 31, 2 ** 40, 123_456_789_012_345, 1_234_567_890_123_456),
);
const record: fc.Arbitrary<LcovRecordSpec> = fc
  .record({
    path: fc.constantFrom('src/a.c', 'src/b.c', 'lib/日本.js'),
    crlf: fc.boolean(),
    fns: fc.array(
      fc.record({
        name: fnName,
        line: fc.integer({ min: 1, max: 20 }),
        endLine: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
      }),
      { maxLength: 4 },
    ),
    fndaOrder: fc.constantFrom('fn order', 'reversed', 'none'),
    fndaHits: fc.array(count, { minLength: 4, maxLength: 4 }),
    extraFnda: fc.array(fc.tuple(fnName, count), { maxLength: 2 }),
    da: fc.array(fc.tuple(fc.integer({ min: 1, max: 15 }), count), { maxLength: 10 }),
    sortDa: fc.boolean(),
    brda: fc.array(
      fc.tuple(
        fc.integer({ min: 0, max: 15 }),
        fc.constantFrom('0', '1', '12', 'x'),
        fc.constantFrom('0', '1', 'y', 'z'),
        fc.option(fc.nat({ max: 3 }), { nil: null }),
      ),
      { maxLength: 6 },
    ),
    brdaFirst: fc.boolean(),
  })
  .map(({ fndaOrder, fndaHits, extraFnda, sortDa, da, ...rest }) => {
    const inOrder = rest.fns.map((fn, i): [string, number] => [fn.name, fndaHits[i] ?? 0]);
    const fnda = fndaOrder === 'none' ? [] : fndaOrder === 'reversed' ? inOrder.reverse() : inOrder;
    return { ...rest, fnda: [...fnda, ...extraFnda], da: sortDa ? [...da].sort((a, b) => a[0] - b[0]) : da };
  });

function tracefile(records: LcovRecordSpec[]): string {
  return records
    .map((r) => {
      const brda = r.brda.map(([line, block, branch, taken]) => `BRDA:${line},${block},${branch},${taken ?? '-'}`);
      const da = r.da.map(([line, hits]) => `DA:${line},${hits}`);
      return [
        'TN:',
        `SF:${r.path}`,
        ...r.fns.map((fn) => `FN:${fn.line},${fn.endLine === null ? '' : `${fn.endLine},`}${fn.name}`),
        ...r.fnda.map(([name, hits]) => `FNDA:${hits},${name}`),
        ...(r.brdaFirst ? [...brda, ...da] : [...da, ...brda]),
        'end_of_record',
      ].join(r.crlf ? '\r\n' : '\n');
    })
    .join('\n')
    .concat('\n');
}

const add = (a: number, b: number) => Math.min(Number.MAX_SAFE_INTEGER, a + b);

type Summed = {
  lines: Map<number, number>;
  branches: Map<string, { line: number; id: string; hits: number }>;
  functions: Map<string, { startLine: number | null; endLine: number | null; hits: number }>;
};

/** The records added up per path, in the order the paths first appear; a path without DA lines left out, as lcov does. */
function summed(records: LcovRecordSpec[]): Map<string, Summed> {
  const files = new Map<string, Summed>();
  for (const r of records) {
    let file = files.get(r.path);
    if (!file) {
      file = { lines: new Map(), branches: new Map(), functions: new Map() };
      files.set(r.path, file);
    }
    for (const fn of r.fns) {
      const known = file.functions.get(fn.name);
      if (known) {
        known.startLine ??= fn.line;
        known.endLine ??= fn.endLine;
      } else file.functions.set(fn.name, { startLine: fn.line, endLine: fn.endLine, hits: 0 });
    }
    for (const [name, hits] of r.fnda) {
      const known = file.functions.get(name);
      if (known) known.hits = add(known.hits, hits);
      else file.functions.set(name, { startLine: null, endLine: null, hits });
    }
    for (const [line, hits] of r.da) file.lines.set(line, add(file.lines.get(line) ?? 0, hits));
    for (const [line, block, branch, taken] of r.brda) {
      const id = `${block},${branch}`;
      const key = `${line}|${id}`;
      const known = file.branches.get(key);
      file.branches.set(key, { line, id, hits: add(known?.hits ?? 0, taken ?? 0) });
    }
  }
  for (const [path, file] of files) if (file.lines.size === 0) files.delete(path);
  return files;
}

const byLineThenId = (a: { line: number; id: string }, b: { line: number; id: string }) =>
  a.line - b.line || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function expectSummed(coverage: Coverage, expected: Map<string, Summed>): void {
  expect(coverage.files.map((f) => f.path)).toEqual([...expected.keys()]);
  const totals = { line: [0, 0], branch: [0, 0], method: [0, 0] };
  for (const file of coverage.files) {
    const sums = expected.get(file.path) as Summed;
    const branches = [...sums.branches.values()];
    const lines = [...sums.lines]
      .sort((a, b) => a[0] - b[0])
      .map(([line, hits]) => {
        const on = branches.filter((b) => b.line === line);
        return {
          line,
          hits,
          branchesCovered: on.filter((b) => b.hits > 0).length,
          branchesTotal: on.length,
          instructionsCovered: null,
          instructionsMissed: null,
        };
      });
    expect(file.lines).toEqual(lines);
    expect([...(file.branches ?? [])].sort(byLineThenId)).toEqual(branches.sort(byLineThenId));
    const methods = [...sums.functions].map(([name, fn]) => [name, fn.startLine, fn.endLine, fn.hits > 0 ? 1 : 0]);
    expect(
      file.classes.flatMap((c) => c.methods.map((m) => [m.name, m.startLine, m.endLine, m.counters.method?.covered])),
    ).toEqual(methods);
    const figures = {
      line: [lines.filter((l) => l.hits > 0).length, lines.length],
      branch: [branches.filter((b) => b.hits > 0).length, branches.length],
      method: [methods.filter((m) => m[3] === 1).length, methods.length],
    };
    for (const kind of ['line', 'branch', 'method'] as const) {
      const [covered, total] = figures[kind] as [number, number];
      expect(file.counters[kind]).toEqual({ covered, missed: total - covered });
      totals[kind] = [(totals[kind][0] ?? 0) + covered, (totals[kind][1] ?? 0) + total];
    }
  }
  for (const kind of ['line', 'branch', 'method'] as const) {
    const [covered, total] = totals[kind] as [number, number];
    expect(coverage.counters[kind]).toEqual({ covered, missed: total - covered });
  }
}

describe('LCOV records (property)', () => {
  it('add up per path as lcov does, however the records for a path are split and ordered', () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 6 }), (records) => {
        expectSummed(parseCoverage(tracefile(records), { format: 'lcov' }), summed(records));
      }),
      { numRuns: 400 },
    );
  });
});
