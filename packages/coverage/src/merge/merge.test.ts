import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catchError } from '../../test/fixtures/catch-error.ts';
import { parseCoverage } from '../formats/parser.ts';
import type { Coverage } from '../model/coverage.ts';
import { mergeCoverage } from './merge.ts';

const lcov = (records: Record<string, Record<number, number>>) =>
  parseCoverage(
    Object.entries(records)
      .map(
        ([path, lines]) =>
          `SF:${path}\n${Object.entries(lines)
            .map(([l, h]) => `DA:${l},${h}\n`)
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

  it('merges JaCoCo lines: instructions covered = max per line, capped at the line total', () => {
    const report = (ci: number, mi: number) =>
      parseCoverage(
        `<report name="r"><package name="p"><sourcefile name="A.java"><line nr="1" mi="${mi}" ci="${ci}" mb="0" cb="0"/></sourcefile></package></report>`,
      );
    const merged = mergeCoverage([report(1, 3), report(3, 1)]);
    expect(merged.files[0]?.lines[0]).toMatchObject({ hits: 2, instructionsCovered: 3, instructionsMissed: 1 });
    expect(merged.counters.instruction).toEqual({ covered: 3, missed: 1 });
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
