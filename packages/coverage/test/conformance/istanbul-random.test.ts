import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCoverageMap, type FileCoverageData } from 'istanbul-lib-coverage';
import { createContext } from 'istanbul-lib-report';
import { create } from 'istanbul-reports';
import { afterAll, describe, expect, it } from 'vitest';
import { type Counter, type Coverage, mergeCoverage, parseCoverage } from '../../src/index.ts';

// Seeded coverage-final.json files against istanbul-lib-coverage itself (what nyc, c8 and jest
// total with): statements spanning lines, several on a line, branches on lines where no statement
// starts, functions never called; one run and two runs of the same code merged; and the Clover XML
// and LCOV that istanbul-reports writes of them.

type Loc = { start: { line: number; column: number }; end: { line: number; column: number } };

function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const int = (n: number) => Math.floor(next() * n);
  const chance = (p: number) => next() < p;
  const loc = (): Loc => {
    const line = 1 + int(20);
    return { start: { line, column: int(10) }, end: { line: line + (chance(0.3) ? int(3) : 0), column: int(30) } };
  };
  return { int, chance, loc };
}

/** The maps of a few files, and runs of them with random counts. */
function randomCode(seed: number) {
  const { int, chance, loc } = generator(seed);
  const shapes = ['/p/a.js', '/p/b.js', '/p/dir/c.js'].map((path) => {
    const statementMap = Object.fromEntries(Array.from({ length: 1 + int(12) }, (_, i) => [String(i), loc()]));
    const fnMap = Object.fromEntries(
      Array.from({ length: int(4) }, (_, i) => {
        const at = loc();
        return [String(i), { name: `fn${i}`, decl: at, loc: at, line: at.start.line }];
      }),
    );
    const branchMap = Object.fromEntries(
      Array.from({ length: int(4) }, (_, i) => {
        const at = loc();
        const outcomes = Array.from({ length: 1 + int(3) }, loc);
        return [String(i), { loc: at, type: 'if', locations: outcomes, line: at.start.line }];
      }),
    );
    return { path, statementMap, fnMap, branchMap };
  });
  const count = () => (chance(0.45) ? 0 : int(50));
  const run = (): Record<string, FileCoverageData> =>
    Object.fromEntries(
      shapes.map((shape) => [
        shape.path,
        {
          ...structuredClone(shape),
          s: Object.fromEntries(Object.keys(shape.statementMap).map((id) => [id, count()])),
          f: Object.fromEntries(Object.keys(shape.fnMap).map((id) => [id, count()])),
          b: Object.fromEntries(
            Object.entries(shape.branchMap).map(([id, branch]) => [id, branch.locations.map(count)]),
          ),
        } as unknown as FileCoverageData,
      ]),
    );
  return run;
}

const figure = (c: Counter | null) => c && { covered: c.covered, total: c.covered + c.missed };

function istanbulTotals(runs: Record<string, FileCoverageData>[]) {
  const map = createCoverageMap(runs[0]);
  for (const other of runs.slice(1)) map.merge(other);
  const summary = map.getCoverageSummary();
  const pick = (kind: 'lines' | 'statements' | 'functions' | 'branches') => ({
    covered: summary[kind].covered,
    total: summary[kind].total,
  });
  return { line: pick('lines'), statement: pick('statements'), method: pick('functions'), branch: pick('branches') };
}

const SEEDS = Array.from({ length: 40 }, (_, i) => 7 + i * 104729);
const written = mkdtempSync(join(tmpdir(), 'sextant-istanbul-reports-'));
afterAll(() => rmSync(written, { recursive: true, force: true }));

/** What istanbul-reports writes of one run, in a format of its own, parsed by us. */
function asWritten(json: Record<string, FileCoverageData>, reporter: 'clover' | 'lcovonly', file: string): Coverage {
  const dir = mkdtempSync(join(written, `${reporter}-`));
  create(reporter).execute(createContext({ dir, coverageMap: createCoverageMap(json) }));
  return parseCoverage(readFileSync(join(dir, file)));
}

describe('random coverage-final.json against istanbul-lib-coverage', () => {
  it.each(SEEDS)('seed %i: one run and two runs merged total as istanbul totals them', (seed) => {
    const run = randomCode(seed);
    const runs = [run(), run()];
    const parsed = runs.map((json) => parseCoverage(JSON.stringify(json)));
    const ours = (c: (typeof parsed)[number]) => ({
      line: figure(c.counters.line),
      method: figure(c.counters.method),
      branch: figure(c.counters.branch),
    });
    const theirs = (json: Record<string, FileCoverageData>[]) => {
      const { line, method, branch } = istanbulTotals(json);
      return { line, method, branch };
    };
    expect(ours(parsed[0] as (typeof parsed)[number])).toEqual(theirs(runs.slice(0, 1)));
    expect(figure((parsed[0] as (typeof parsed)[number]).counters.instruction)).toEqual(
      istanbulTotals(runs.slice(0, 1)).statement,
    );
    for (const [reporter, file] of [
      ['clover', 'clover.xml'],
      ['lcovonly', 'lcov.info'],
    ] as const) {
      expect([reporter, ours(asWritten(runs[0] as Record<string, FileCoverageData>, reporter, file))]).toEqual([
        reporter,
        theirs(runs.slice(0, 1)),
      ]);
    }
    const merged = mergeCoverage(parsed);
    expect(ours(merged)).toEqual(theirs(runs));
    // Lines, functions and branches merge exactly; statements are not kept one by one.
    expect([merged.bounds?.line, merged.bounds?.method, merged.bounds?.branch]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});
