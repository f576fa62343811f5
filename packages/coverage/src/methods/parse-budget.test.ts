import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractJob } from '../node/method-extraction.ts';
import { parseMethods } from './extract.ts';
import { ParseBudgetExceeded, setParseBudgetBase } from './parse-budget.ts';

// A Java file broken by the mutation fuzzing of the method extractors: long runs of `[` where
// tree-sitter's error recovery takes seconds (about 6 s here without a budget).
const broken = readFileSync(join(import.meta.dirname, 'testdata', 'BrokenDriver.java'), 'utf8');
const wellFormed = readFileSync(join(import.meta.dirname, 'testdata', 'Shapes.java'), 'utf8');
const lines = (text: string) => text.split('\n').map((_, i) => i + 1);

describe('the parse budget', () => {
  let before = 0;
  afterEach(() => {
    setParseBudgetBase(before);
  });

  it('stops tree-sitter on source it cannot recover from in time, and leaves well-formed source alone', async () => {
    before = setParseBudgetBase(100);
    await expect(parseMethods('java', broken)).rejects.toBeInstanceOf(ParseBudgetExceeded);
    expect((await parseMethods('java', wellFormed)).length).toBeGreaterThan(3);
  });

  it('makes the file’s methods unknown, not the extraction fail', async () => {
    before = setParseBudgetBase(100);
    const changed = (path: string, text: string) => ({
      path,
      oldPath: null,
      status: 'added' as const,
      binary: false,
      lines: lines(text),
      hunks: [],
      deletions: [],
      diffCoverShiftFrom: null,
    });
    expect(await extractJob({ file: changed('p/Driver.java', broken), head: broken, base: null })).toEqual({
      head: [],
      base: [],
      unparsed: true,
    });
    const found = await extractJob({ file: changed('p/Shapes.java', wellFormed), head: wellFormed, base: null });
    expect(found.unparsed).toBeUndefined();
    expect(found.head.length).toBeGreaterThan(3);
  });
});
