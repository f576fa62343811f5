import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catchError } from '../../test/fixtures/catch-error.ts';
import { parseCoverage } from '../formats/parser.ts';
import type { Coverage } from '../model/coverage.ts';
import { type ClassSpec, jacocoXml } from './jacoco-run.fixture.ts';
import { mergeCoverage } from './merge.ts';

/** Per path, line → hits; lines above 8 also get two BRDA branches, taken hits % 3 and hits % 2 times. */
const lcov = (records: Record<string, Record<number, number>>) =>
  parseCoverage(
    Object.entries(records)
      .map(
        ([path, lines]) =>
          `SF:${path}\n${Object.entries(lines)
            .map(([l, h]) => `DA:${l},${h}\n${Number(l) > 8 ? `BRDA:${l},0,0,${h % 3}\nBRDA:${l},0,1,${h % 2}\n` : ''}`)
            .join('')}end_of_record\n`,
      )
      .join(''),
  );

const arbitraryReport = fc
  .dictionary(
    fc.constantFrom('a.c', 'b.c', 'dir/c.c'),
    fc.dictionary(fc.integer({ min: 1, max: 12 }).map(String), fc.integer({ min: 0, max: 5 }), { minKeys: 1 }),
    { minKeys: 1 },
  )
  .map((records) => lcov(records as Record<string, Record<number, number>>));

const lineCoverage = (coverage: Coverage) => coverage.counters.line;

describe('mergeCoverage', () => {
  it('adds hits per line; a line is covered when any run covered it', () => {
    const merged = mergeCoverage([lcov({ 'a.c': { 1: 0, 2: 3 } }), lcov({ 'a.c': { 1: 2, 3: 0 }, 'b.c': { 1: 1 } })]);
    expect(merged.files.map((f) => f.path)).toEqual(['a.c', 'b.c']);
    expect(merged.files[0]?.lines.map((l) => [l.line, l.hits])).toEqual([
      [1, 2],
      [2, 3],
      [3, 0],
    ]);
    expect(merged.counters.line).toEqual({ covered: 3, missed: 1 });
  });

  it('adds LCOV branches one by one, by block and branch id, as lcov -a does', () => {
    const run = (taken: [string, string]) =>
      parseCoverage(`SF:a.c\nDA:3,1\nBRDA:3,0,0,${taken[0]}\nBRDA:3,0,1,${taken[1]}\nBRDA:9,0,0,-\nend_of_record\n`);
    const merged = mergeCoverage([run(['1', '0']), run(['0', '4'])]);
    const file = merged.files[0];
    expect(file?.branches).toEqual([
      { line: 3, id: '0,0', hits: 1 },
      { line: 3, id: '0,1', hits: 4 },
      { line: 9, id: '0,0', hits: 0 },
    ]);
    expect(file?.lines).toEqual([
      { line: 3, hits: 2, branchesCovered: 2, branchesTotal: 2, instructionsCovered: null, instructionsMissed: null },
    ]);
    // lcov counts the branch on line 9 (no DA there) in the file's branches, without making it a line.
    expect(merged.counters.branch).toEqual({ covered: 2, missed: 1 });
    expect(merged.bounds).toBeUndefined();
  });

  it('bounds a JaCoCo line whose runs covered different amounts: at least the larger, at most the sum', () => {
    const run = (ci: number, mi: number) =>
      parseCoverage(jacocoXml([{ name: 'p/A', methods: [{ name: 'a', line: 1, rows: [{ nr: 1, ci, mi }] }] }]));
    const merged = mergeCoverage([run(1, 3), run(2, 2)]);
    expect(merged.files[0]?.lines[0]).toMatchObject({
      hits: 2,
      instructionsCovered: 2,
      instructionsMissed: 2,
      bounds: { instruction: { coveredAtMost: 3 } },
    });
    expect(merged.counters.instruction).toEqual({ covered: 2, missed: 2 });
    expect(merged.bounds).toEqual({ instruction: { coveredAtMost: 3 } });
    // Lines and methods are exact whatever the instructions: covered if any run covered them.
    expect(merged.counters.line).toEqual({ covered: 1, missed: 0 });
    expect(merged.counters.method).toEqual({ covered: 1, missed: 0 });
  });

  it('keeps a JaCoCo class without code (an interface of constants) at 0/0, not a missed class', () => {
    const run = (ci: number) =>
      parseCoverage(
        jacocoXml([
          { name: 'p/A', methods: [{ name: 'a', line: 1, rows: [{ nr: 1, ci, mi: 2 - ci }] }] },
          { name: 'p/Shape', methods: [] },
        ]),
      );
    const merged = mergeCoverage([run(0), run(2)]);
    const shape = merged.files[0]?.classes.find((c) => c.name === 'p/Shape');
    expect(shape?.counters.class).toEqual({ covered: 0, missed: 0 });
    expect(merged.counters.class).toEqual({ covered: 1, missed: 0 });
  });

  it('counts a JaCoCo line shared by two methods once in its class, and pins a method by the rest of its file', () => {
    // a() spans lines 1-2; a lambda sits on line 2. Run one covers line 1, run two line 2 and the lambda.
    const run = (first: boolean): ClassSpec[] => [
      {
        name: 'p/A',
        methods: [
          {
            name: 'a',
            line: 1,
            rows: [
              first ? { nr: 1, ci: 2, mi: 0 } : { nr: 1, ci: 0, mi: 2 },
              { nr: 2, ci: first ? 0 : 2, mi: first ? 2 : 0 },
            ],
          },
          { name: 'lambda$a$0', line: 2, rows: [{ nr: 2, ci: first ? 0 : 1, mi: first ? 1 : 0 }] },
        ],
      },
    ];
    const merged = mergeCoverage([parseCoverage(jacocoXml(run(true))), parseCoverage(jacocoXml(run(false)))]);
    const cls = merged.files[0]?.classes[0];
    // JaCoCo: both source lines covered, each counted once (the sum over methods would say 3 lines).
    expect(cls?.counters.line).toEqual({ covered: 2, missed: 0 });
    expect(cls?.bounds).toBeUndefined();
    const a = cls?.methods.find((m) => m.name === 'a');
    // Its instructions are the file's 5 less the lambda's 1 (exact in both runs' union: 4 of 4)...
    expect(a?.counters.instruction).toEqual({ covered: 4, missed: 0 });
    // ...but which of its lines ran is not in the XML when a line is shared: 1 or 2 of 2.
    expect(a?.counters.line).toEqual({ covered: 1, missed: 1 });
    expect(a?.bounds).toEqual({ line: { coveredAtMost: 2 } });
  });

  it('gives a JaCoCo method its own lines when nothing else starts among them and every run’s sums agree', () => {
    // a() has lines 1-3, b() and its lambda line 5. Run one covers lines 1-2 of a, run two lines 2-3: JaCoCo says 3 of 3.
    const run = (covered: number[]): ClassSpec[] => [
      {
        name: 'p/A',
        methods: [
          {
            name: 'a',
            line: 1,
            rows: [1, 2, 3].map((nr) => ({ nr, ci: covered.includes(nr) ? 1 : 0, mi: covered.includes(nr) ? 0 : 1 })),
          },
          { name: 'b', line: 5, rows: [{ nr: 5, ci: 0, mi: 2 }] },
          // A lambda sharing b's line: LINE totals no longer add up in the class, so only a's own lines can tell.
          { name: 'lambda$b$0', line: 5, rows: [{ nr: 5, ci: 0, mi: 1 }] },
        ],
      },
    ];
    const merged = mergeCoverage([parseCoverage(jacocoXml(run([1, 2]))), parseCoverage(jacocoXml(run([2, 3])))]);
    const a = merged.files[0]?.classes[0]?.methods.find((m) => m.name === 'a');
    expect(a?.counters.line).toEqual({ covered: 3, missed: 0 });
    expect(a?.counters.instruction).toEqual({ covered: 3, missed: 0 });
    expect(a?.bounds).toBeUndefined();
  });

  it('derives JaCoCo complexity from merged branches: exact when one run covered them all, else bounded', () => {
    const run = (cb: number) =>
      parseCoverage(
        jacocoXml([
          { name: 'p/A', methods: [{ name: 'a', line: 1, rows: [{ nr: 1, ci: 3, mi: 0, cb, mb: 2 - cb }] }] },
        ]),
      );
    // Both branches in one run: complexity 1 (method) + 1 (2 covered branches - 1) = 2 of 2.
    const all = mergeCoverage([run(2), run(1)]);
    expect(all.counters.complexity).toEqual({ covered: 2, missed: 0 });
    expect(all.bounds).toBeUndefined();
    // One branch each: the same one (complexity 1) or both (2); the XML cannot tell.
    const either = mergeCoverage([run(1), run(1)]);
    expect(either.counters.complexity).toEqual({ covered: 1, missed: 1 });
    expect(either.bounds).toEqual({ branch: { coveredAtMost: 2 }, complexity: { coveredAtMost: 2 } });
  });

  it('merges JaCoCo reports whose complexity disagrees (not JaCoCo’s own) the same in either order', () => {
    const xml = jacocoXml([
      { name: 'p/A', methods: [{ name: 'a', line: 1, rows: [{ nr: 1, ci: 3, mi: 0, cb: 2, mb: 0 }] }] },
    ]);
    const honest =
      '<counter type="COMPLEXITY" missed="0" covered="2"/><counter type="METHOD" missed="0" covered="1"/></method>';
    expect(xml).toContain(honest);
    const doctored = xml.replace(honest, honest.replace('missed="0" covered="2"', 'missed="1" covered="1"'));
    const [a, b] = [parseCoverage(xml), parseCoverage(doctored)];
    const method = (merged: Coverage) => merged.files[0]?.classes[0]?.methods[0];
    const ab = mergeCoverage([a, b]);
    expect(ab).toEqual(mergeCoverage([b, a]));
    expect(method(ab)?.counters.complexity).toEqual({ covered: 1, missed: 1 });
    expect(method(ab)?.bounds?.complexity).toEqual({ coveredAtMost: 2 });
  });

  it('reads bounds back when a merged report is merged again', () => {
    const run = (ci: number) =>
      parseCoverage(jacocoXml([{ name: 'p/A', methods: [{ name: 'a', line: 1, rows: [{ nr: 1, ci, mi: 6 - ci }] }] }]));
    const [a, b, c] = [run(1), run(2), run(3)];
    const left = mergeCoverage([mergeCoverage([a, b]), c]);
    expect(left).toEqual(mergeCoverage([a, mergeCoverage([b, c])]));
    expect(left.counters.instruction).toEqual({ covered: 3, missed: 3 });
    expect(left.bounds).toEqual({ instruction: { coveredAtMost: 6 } });
  });

  it('refuses to merge different formats or nothing', () => {
    const go = parseCoverage('mode: set\na.go:1.1,1.5 1 1\n');
    expect(catchError(() => mergeCoverage([go, lcov({ 'a.c': { 1: 1 } })])).code).toBe('format-mismatch');
    expect(catchError(() => mergeCoverage([])).code).toBe('empty-input');
  });

  it('is commutative', () => {
    fc.assert(
      fc.property(arbitraryReport, arbitraryReport, (a, b) => {
        expect(mergeCoverage([a, b])).toEqual(mergeCoverage([b, a]));
      }),
    );
  });

  it('is associative', () => {
    fc.assert(
      fc.property(arbitraryReport, arbitraryReport, arbitraryReport, (a, b, c) => {
        expect(mergeCoverage([mergeCoverage([a, b]), c])).toEqual(mergeCoverage([a, mergeCoverage([b, c])]));
      }),
    );
  });

  it('leaves line coverage unchanged when a report is merged with itself', () => {
    fc.assert(
      fc.property(arbitraryReport, (a) => {
        expect(lineCoverage(mergeCoverage([a, a]))).toEqual(lineCoverage(a));
      }),
    );
  });
});
