import { describe, expect, it } from 'vitest';
import type { Counter } from '../../src/index.ts';
import { readCoverageFile } from '../../src/node/index.ts';
import { fixturePath, parseGoFuncTotal, parseGoHtmlFiles, readFixture } from './tool-output.ts';

// Go 1.19: two test binaries built with -coverpkg=./..., so each block is listed once per binary;
// `go tool cover -func` merges them and prints the statement percentage with one decimal.
// The same arithmetic as cmd/cover: 100 * covered / total statements, printed with %.1f.
function percent(statements: Counter): string {
  return ((100 * statements.covered) / (statements.covered + statements.missed)).toFixed(1);
}

describe.each(['set', 'count', 'atomic'])('Go cover profile, %s mode', (mode) => {
  it('lists blocks more than once, as several test binaries write them', () => {
    const blocks = readFixture(`go/cover-${mode}.out`).trim().split('\n').slice(1);
    const distinct = new Set(blocks.map((block) => block.slice(0, block.lastIndexOf(' '))));
    expect(distinct.size).toBeLessThan(blocks.length);
  });

  it('has the statement total `go tool cover -func` prints', async () => {
    const coverage = await readCoverageFile(fixturePath(`go/cover-${mode}.out`));
    expect(percent(coverage.counters.instruction!)).toBe(parseGoFuncTotal(readFixture(`go/cover-${mode}-func.txt`)));
  });

  it('has each file’s statement percentage `go tool cover -html` lists', async () => {
    const coverage = await readCoverageFile(fixturePath(`go/cover-${mode}.out`));
    const files = Object.fromEntries(coverage.files.map((f) => [f.path, percent(f.counters.instruction!)]));
    expect(files).toEqual(parseGoHtmlFiles(readFixture(`go/cover-${mode}-html-files.txt`)));
  });
});
