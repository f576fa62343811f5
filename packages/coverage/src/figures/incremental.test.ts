import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChangedFile } from '../diff/unified.ts';
import type { SourceMethod } from '../methods/types.ts';
import type { Counters, Coverage, LineCoverage, MethodCoverage } from '../model/coverage.ts';
import { changedMethods, type FileMethods, incrementalCoverage, LineOwners } from './incremental.ts';

/** The head methods `incrementalCoverage` takes, from a test's head and base methods. */
const heads = (methods: ReadonlyMap<string, FileMethods>) => new Map([...methods].map(([path, m]) => [path, m.head]));

const changedFile = (path: string, lines: number[]): ChangedFile => ({
  path,
  oldPath: null,
  status: 'modified',
  binary: false,
  lines,
  hunks: [],
  deletions: [],
  diffCoverShiftFrom: null,
});

const source = (
  cls: string,
  name: string,
  signature: string | null,
  startLine: number,
  endLine: number,
): SourceMethod => ({
  class: cls,
  name,
  signature,
  startLine,
  endLine,
  bodyHash: `${name}${startLine}`,
});

const c = (covered: number, missed: number) => ({ covered, missed });
const jacocoCounters = (instruction: number[], line: number[], method: number[]): Counters => ({
  instruction: c(instruction[0] ?? 0, instruction[1] ?? 0),
  branch: c(0, 0),
  line: c(line[0] ?? 0, line[1] ?? 0),
  complexity: c(method[0] ?? 0, method[1] ?? 0),
  method: c(method[0] ?? 0, method[1] ?? 0),
  class: c(0, 0),
});
const reportMethod = (name: string, signature: string, startLine: number, counters: Counters): MethodCoverage => ({
  name,
  signature,
  startLine,
  endLine: null,
  counters,
});

// A JaCoCo-shaped report of pkg/Shop.java (lines 1-40): what JaCoCo writes for a class with an
// overload pair, a lambda, a constructor and an anonymous class.
const shopReport: Coverage = {
  format: 'jacoco',
  counters: jacocoCounters([0, 0], [0, 0], [0, 0]),
  files: [
    {
      path: 'src/pkg/Shop.java',
      language: 'java',
      lines: [],
      counters: jacocoCounters([0, 0], [0, 0], [0, 0]),
      classes: [
        {
          name: 'pkg/Shop',
          counters: jacocoCounters([0, 0], [0, 0], [0, 0]),
          methods: [
            reportMethod('<init>', '()V', 3, jacocoCounters([3, 0], [1, 0], [1, 0])),
            reportMethod('price', '(I)I', 6, jacocoCounters([4, 2], [1, 1], [1, 0])),
            reportMethod('price', '(D)D', 11, jacocoCounters([0, 5], [0, 2], [0, 1])),
            reportMethod('lambda$price$0', '(I)I', 7, jacocoCounters([2, 0], [1, 0], [1, 0])),
            reportMethod('run', '()V', 20, jacocoCounters([0, 3], [0, 1], [0, 1])),
          ],
        },
        {
          name: 'pkg/Shop$1',
          counters: jacocoCounters([0, 0], [0, 0], [0, 0]),
          methods: [reportMethod('call', '()V', 16, jacocoCounters([0, 4], [0, 2], [0, 1]))],
        },
      ],
    },
  ],
};

const shopHead: SourceMethod[] = [
  source('pkg/Shop', '<init>', '()V', 2, 4),
  source('pkg/Shop', 'price', '(I)I', 5, 9),
  source('pkg/Shop', 'price', '(D)D', 10, 13),
  source('pkg/Shop', 'run', '()V', 14, 22),
  source('pkg/Shop$1', 'call', '()V', 15, 18),
];

describe('changedMethods', () => {
  it('lists head methods holding a changed line, added when absent at base', () => {
    const methods = new Map<string, FileMethods>([
      ['src/pkg/Shop.java', { head: shopHead, base: shopHead.filter((m) => m.signature !== '(D)D') }],
    ]);
    const changed = changedMethods([changedFile('src/pkg/Shop.java', [1, 7, 11, 16])], methods);
    expect(changed.map((m) => [m.class, m.name, m.signature, m.status, m.changedLines])).toEqual([
      ['pkg/Shop', 'price', '(I)I', 'modified', [7]],
      ['pkg/Shop', 'price', '(D)D', 'added', [11]],
      ['pkg/Shop', 'run', '()V', 'modified', [16]],
      ['pkg/Shop$1', 'call', '()V', 'modified', [16]],
    ]);
  });

  it('joins the pieces of one JVM method into one entry', () => {
    const head = [
      source('pkg/E', '<clinit>', '()V', 1, 1),
      source('pkg/E', 'f', '()V', 2, 4),
      source('pkg/E', '<clinit>', '()V', 5, 6),
    ];
    const changed = changedMethods([changedFile('E.java', [1, 6])], new Map([['E.java', { head, base: head }]]));
    expect(changed.map((m) => [m.name, m.startLine, m.endLine, m.changedLines])).toEqual([['<clinit>', 1, 6, [1, 6]]]);
  });

  it('ignores deleted and binary files and files without methods', () => {
    const methods = new Map([['a.java', { head: shopHead, base: [] }]]);
    const deleted = { ...changedFile('a.java', [7]), status: 'deleted' as const };
    const binary = { ...changedFile('a.java', [7]), binary: true };
    expect(changedMethods([deleted, binary, changedFile('other.java', [7])], methods)).toEqual([]);
  });
});

describe('incrementalCoverage with JaCoCo', () => {
  const methods = new Map<string, FileMethods>([['src/pkg/Shop.java', { head: shopHead, base: shopHead }]]);

  it('sums the matched report methods, lambdas with their enclosing method, each report method once', () => {
    const changed = changedMethods([changedFile('src/pkg/Shop.java', [7, 11, 16])], methods);
    const result = incrementalCoverage(changed, shopReport, heads(methods));
    const byName = new Map(result.methods.map((m) => [`${m.class}.${m.name}${m.signature}`, m]));
    // price(I)I: its own 4/2 instructions plus lambda$price$0's 2/0.
    expect(byName.get('pkg/Shop.price(I)I')?.counters.instruction).toEqual(c(6, 2));
    expect(byName.get('pkg/Shop.price(I)I')?.covered).toBe(true);
    expect(byName.get('pkg/Shop.price(D)D')?.counters.line).toEqual(c(0, 2));
    expect(byName.get('pkg/Shop.price(D)D')?.covered).toBe(false);
    // Line 16 is in run() and in the anonymous class's call(): each keeps its own report method.
    expect(byName.get('pkg/Shop.run()V')?.counters.instruction).toEqual(c(0, 3));
    expect(byName.get('pkg/Shop$1.call()V')?.counters.instruction).toEqual(c(0, 4));
    // Totals over price(I)I, lambda, price(D)D, run, call: instructions 6/14, methods 2 of 5,
    // classes: pkg/Shop ran, pkg/Shop$1 did not.
    expect(result.totals.instruction).toEqual(c(6, 14));
    expect(result.totals.line).toEqual(c(2, 6));
    expect(result.totals.method).toEqual(c(2, 3));
    expect(result.totals.class).toEqual(c(1, 1));
    expect(result.totals.branch).toEqual(c(0, 0));
  });

  it('falls back to report methods starting in the range when the descriptor is unknown', () => {
    const head = shopHead.map((m) => ({ ...m, signature: null }));
    const local = new Map<string, FileMethods>([['src/pkg/Shop.java', { head, base: head }]]);
    const changed = changedMethods([changedFile('src/pkg/Shop.java', [12])], local);
    const [only] = incrementalCoverage(changed, shopReport, heads(local)).methods;
    expect(only?.counters.instruction).toEqual(c(0, 5));
  });

  it('a changed field initialiser stands for every constructor, each counted once in the totals', () => {
    const ctor = (signature: string, line: number, covered: number) =>
      reportMethod(
        '<init>',
        signature,
        line,
        jacocoCounters([covered, 4 - covered], [1, 0], [covered > 0 ? 1 : 0, covered > 0 ? 0 : 1]),
      );
    const report: Coverage = {
      ...shopReport,
      files: [
        {
          ...(shopReport.files[0] as Coverage['files'][number]),
          classes: [{ name: 'pkg/T', counters: shopReport.counters, methods: [ctor('()V', 6, 4), ctor('(I)V', 9, 0)] }],
        },
      ],
    };
    const head = [
      source('pkg/T', '<init>', null, 2, 2),
      source('pkg/T', '<init>', null, 3, 3),
      source('pkg/T', '<init>', '()V', 5, 7),
      source('pkg/T', '<init>', '(I)V', 8, 10),
    ];
    const local = new Map<string, FileMethods>([['src/pkg/Shop.java', { head, base: head }]]);
    const result = incrementalCoverage(
      changedMethods([changedFile('src/pkg/Shop.java', [2, 3])], local),
      report,
      heads(local),
    );
    expect(result.methods.map((m) => m.counters.instruction)).toEqual([c(4, 4), c(4, 4)]);
    expect(result.totals.instruction).toEqual(c(4, 4));
    expect(result.totals.method).toEqual(c(1, 1));
  });

  it('totals of no changed methods are zeros for JaCoCo, not absent', () => {
    const result = incrementalCoverage([], shopReport, heads(methods));
    expect(result.totals.line).toEqual(c(0, 0));
    expect(result.totals.class).toEqual(c(0, 0));
  });
});

describe('incrementalCoverage from lines (LCOV, Cobertura, Go, coverage.py …)', () => {
  const line = (n: number, hits: number, branchesCovered = 0, branchesTotal = 0): LineCoverage => ({
    line: n,
    hits,
    branchesCovered,
    branchesTotal,
    instructionsCovered: null,
    instructionsMissed: null,
  });
  const report: Coverage = {
    format: 'lcov',
    counters: { instruction: null, branch: c(1, 1), line: c(3, 2), complexity: null, method: c(1, 1), class: null },
    files: [
      {
        path: 'lib/cart.js',
        language: 'javascript',
        lines: [line(2, 1), line(3, 1, 1, 2), line(4, 0), line(8, 1), line(9, 0)],
        classes: [],
        counters: { instruction: null, branch: c(1, 1), line: c(3, 2), complexity: null, method: null, class: null },
      },
    ],
  };
  const head = [source('', 'add', null, 1, 10), source('', 'inner', null, 7, 9)].map((m) => ({ ...m, class: null }));
  const methods = new Map<string, FileMethods>([['lib/cart.js', { head, base: [head[0] as SourceMethod] }]]);

  it('counts the lines of a method without the lines of functions nested in it', () => {
    const changed = changedMethods([changedFile('lib/cart.js', [3, 9])], methods);
    const result = incrementalCoverage(changed, report, heads(methods));
    expect(result.methods.map((m) => [m.name, m.status, m.counters.line, m.counters.branch, m.covered])).toEqual([
      ['add', 'modified', c(2, 1), c(1, 1), true],
      ['inner', 'added', c(1, 1), c(0, 0), true],
    ]);
    expect(result.totals).toEqual({
      instruction: null,
      branch: c(1, 1),
      line: c(3, 2),
      complexity: null,
      method: c(2, 0),
      class: null,
    });
  });

  it("takes the method counter from the report's own function records when it has them", () => {
    const fnda0: MethodCoverage = {
      name: 'inner',
      signature: null,
      startLine: 7,
      endLine: null,
      counters: { instruction: null, branch: null, line: null, complexity: null, method: c(0, 1), class: null },
    };
    const file = report.files[0];
    if (!file) throw new Error('fixture');
    const withFunctions: Coverage = {
      ...report,
      files: [{ ...file, classes: [{ name: 'lib/cart.js', methods: [fnda0], counters: report.counters }] }],
    };
    const changed = changedMethods([changedFile('lib/cart.js', [9])], methods);
    const inner = incrementalCoverage(changed, withFunctions, heads(methods)).methods.find((m) => m.name === 'inner');
    // Line 8 ran (the declaration), but LCOV's FNDA says the function never did.
    expect(inner?.counters.method).toEqual(c(0, 1));
    expect(inner?.covered).toBe(false);
  });

  it('a method with no measured lines is unmeasured and not covered', () => {
    const changed = changedMethods([changedFile('lib/other.js', [1])], new Map([['lib/other.js', { head, base: [] }]]));
    const [first] = incrementalCoverage(changed, report, heads(methods)).methods;
    expect(first?.measured).toBe(false);
    expect(first?.covered).toBe(false);
  });
});

describe('changedMethods with deleted lines', () => {
  const head = [source('pkg/A', 'first', '()V', 3, 8), source('pkg/A', 'second', '()V', 10, 14)];
  const methods = new Map([['A.java', { head, base: head }]]);
  const removed = (after: number): ChangedFile => ({
    ...changedFile('A.java', []),
    deletions: [{ after, oldStart: after + 1, count: 2 }],
  });

  it('counts a method whose only change is removed body lines as modified, with no changed lines', () => {
    expect(changedMethods([removed(5)], methods).map((m) => [m.name, m.status, m.changedLines])).toEqual([
      ['first', 'modified', []],
    ]);
  });
  it('does not count lines removed between methods or at a method’s edge', () => {
    expect(changedMethods([removed(8)], methods)).toEqual([]);
    expect(changedMethods([removed(9)], methods)).toEqual([]);
    expect(changedMethods([removed(14)], methods)).toEqual([]);
  });

  it('finds the methods that lost body lines as a scan of every deletion does, in any order', () => {
    const span = fc.record({ start: fc.integer({ min: 1, max: 60 }), length: fc.integer({ min: 0, max: 15 }) });
    fc.assert(
      fc.property(fc.array(span, { maxLength: 12 }), fc.array(fc.nat(80), { maxLength: 12 }), (spans, afters) => {
        const found = spans.map(({ start, length }, i) => source('X', `m${i}`, null, start, start + length));
        const file: ChangedFile = {
          ...changedFile('x.js', []),
          deletions: afters.map((after) => ({ after, oldStart: after + 1, count: 1 })),
        };
        const lost = (m: SourceMethod) => afters.some((after) => m.startLine <= after && after + 1 <= m.endLine);
        const changed = changedMethods([file], new Map([['x.js', { head: found, base: found }]]));
        const names = (methods: readonly SourceMethod[]) => methods.map((m) => m.name).sort();
        expect(names(changed)).toEqual(names(found.filter(lost)));
      }),
    );
  });
});

describe('LineOwners', () => {
  const naive = (methods: SourceMethod[], line: number): string | null => {
    let best: SourceMethod | null = null;
    for (const m of methods) {
      const holds = m.startLine <= line && line <= m.endLine;
      if (holds && (!best || m.endLine - m.startLine < best.endLine - best.startLine)) best = m;
    }
    return best && `${best.class ?? ''}\u0000${best.name}\u0000${best.signature ?? ''}`;
  };
  const method = fc
    .record({ start: fc.integer({ min: 1, max: 40 }), length: fc.integer({ min: 0, max: 20 }), name: fc.string() })
    .map(
      ({ start, length, name }): SourceMethod => ({
        class: null,
        name,
        signature: null,
        startLine: start,
        endLine: start + length,
        bodyHash: '',
      }),
    );

  it('names the innermost method of every line (the first listed among equal ranges), as a scan would', () => {
    fc.assert(
      fc.property(fc.array(method, { maxLength: 12 }), (methods) => {
        const owners = new LineOwners(methods);
        for (let line = 0; line <= 62; line++) {
          const key = naive(methods, line);
          expect(owners.keyAt(line)).toBe(key);
          const owner = methods.find((m) => `\u0000${m.name}\u0000` === key);
          expect(owners.idAt(line)).toBe(owner ? owners.idOf(owner) : -1);
        }
      }),
    );
  });
});
