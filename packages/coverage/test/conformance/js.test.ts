import { describe, expect, it } from 'vitest';
import type { Counter, Coverage } from '../../src/index.ts';
import { readCoverageFile } from '../../src/node/index.ts';
import {
  type Figure,
  fixturePath,
  parseIstanbulTextSummary,
  parseLcovSummary,
  readFixture,
  readFixtureJson,
  xmlAttribute,
} from './tool-output.ts';

// c8 12 over a Node program: one run written as Istanbul JSON, LCOV, Cobertura and Clover, with
// c8's own json-summary and text-summary as the reference figures.
type IstanbulFigures = Record<'lines' | 'statements' | 'functions' | 'branches', { total: number; covered: number }>;
const summary = readFixtureJson<Record<string, IstanbulFigures>>('js/coverage-summary.json');
const textSummary = parseIstanbulTextSummary(readFixture('js/c8-text-summary.txt'));

function figure(counter: Counter | null): Figure | null {
  return counter && { covered: counter.covered, total: counter.covered + counter.missed };
}

function istanbul(figures: IstanbulFigures) {
  const pick = (kind: keyof IstanbulFigures) => ({ covered: figures[kind].covered, total: figures[kind].total });
  return {
    statements: pick('statements'),
    branches: pick('branches'),
    functions: pick('functions'),
    lines: pick('lines'),
  };
}

function ours(counters: Coverage['counters']) {
  return {
    statements: figure(counters.instruction),
    branches: figure(counters.branch),
    functions: figure(counters.method),
    lines: figure(counters.line),
  };
}

describe('Istanbul coverage-final.json made by c8', () => {
  it('has the totals of c8’s json-summary and text-summary', async () => {
    const coverage = await readCoverageFile(fixturePath('js/coverage-final.json'));
    expect(ours(coverage.counters)).toEqual(istanbul(summary.total!));
    expect(ours(coverage.counters)).toEqual(textSummary);
  });

  it('has each file’s figures from the json-summary', async () => {
    const coverage = await readCoverageFile(fixturePath('js/coverage-final.json'));
    const files = Object.fromEntries(coverage.files.map((f) => [f.path, ours(f.counters)]));
    const { total: _, ...theirs } = summary;
    expect(files).toEqual(Object.fromEntries(Object.entries(theirs).map(([path, f]) => [path, istanbul(f)])));
  });
});

describe('LCOV made by c8', () => {
  it('has the totals `lcov --summary` prints, which are c8’s', async () => {
    const coverage = await readCoverageFile(fixturePath('js/lcov.info'));
    const lcov = parseLcovSummary(readFixture('js/lcov-summary.txt'));
    const { statements: _, ...figures } = ours(coverage.counters);
    expect(figures).toEqual(lcov);
    const { statements: __, ...c8 } = textSummary;
    expect(figures).toEqual(c8);
  });
});

describe('Cobertura XML made by c8', () => {
  it('has the totals on its root element, which are c8’s', async () => {
    const coverage = await readCoverageFile(fixturePath('js/cobertura-coverage.xml'));
    const xml = readFixture('js/cobertura-coverage.xml');
    const root = {
      lines: {
        covered: xmlAttribute(xml, 'coverage', 'lines-covered'),
        total: xmlAttribute(xml, 'coverage', 'lines-valid'),
      },
      branches: {
        covered: xmlAttribute(xml, 'coverage', 'branches-covered'),
        total: xmlAttribute(xml, 'coverage', 'branches-valid'),
      },
    };
    const { lines, branches, functions } = ours(coverage.counters);
    expect({ lines, branches }).toEqual(root);
    expect({ lines, branches, functions }).toEqual({
      lines: textSummary.lines,
      branches: textSummary.branches,
      functions: textSummary.functions,
    });
  });
});

describe('Clover XML made by c8', () => {
  it('has the project <metrics> it states, which are c8’s', async () => {
    const coverage = await readCoverageFile(fixturePath('js/clover.xml'));
    const xml = readFixture('js/clover.xml');
    const metric = (covered: string, total: string) => ({
      covered: xmlAttribute(xml, 'metrics', covered),
      total: xmlAttribute(xml, 'metrics', total),
    });
    const { statements, branches, functions, lines } = ours(coverage.counters);
    expect({ statements, branches, functions }).toEqual({
      statements: metric('coveredstatements', 'statements'),
      branches: metric('coveredconditionals', 'conditionals'),
      functions: metric('coveredmethods', 'methods'),
    });
    expect({ statements, branches, functions, lines }).toEqual(textSummary);
  });
});

// Each format names files its own way (absolute, or relative to a <source> root): files are matched
// to the json-summary's absolute paths by suffix.
describe.each([
  { report: 'lcov.info', kinds: ['lines', 'branches', 'functions'] },
  { report: 'cobertura-coverage.xml', kinds: ['lines', 'branches', 'functions'] },
  { report: 'clover.xml', kinds: ['statements', 'branches', 'functions', 'lines'] },
] as const)('$report made by c8, file by file', ({ report, kinds }) => {
  it('has each file’s figures from the json-summary', async () => {
    const coverage = await readCoverageFile(fixturePath(`js/${report}`));
    const { total: _, ...files } = summary;
    const pick = (figures: ReturnType<typeof ours>) => Object.fromEntries(kinds.map((kind) => [kind, figures[kind]]));
    const theirs = Object.fromEntries(Object.entries(files).map(([path, f]) => [path, pick(istanbul(f))]));
    const mine = Object.fromEntries(
      coverage.files.map((f) => {
        const path = Object.keys(files).find((absolute) => absolute.endsWith(`/${f.path.replace(/^\/+/, '')}`));
        return [path ?? f.path, pick(ours(f.counters))];
      }),
    );
    expect(mine).toEqual(theirs);
  });
});
