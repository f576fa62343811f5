import { counter, lineCounter } from '../figures/counters.ts';
import { type Coverage, emptyCounters, type FileCoverage, type LineCoverage } from '../model/coverage.ts';
import { totals } from './lcov.ts';
import { LineSplitter } from './lines.ts';
import { count, fail, Interner, lineNumber, newLine, type TextParser } from './shared.ts';

type Block = { startLine: number; endLine: number; statements: number; hits: number };

const BLOCK = /^(.+):(\d+)\.(\d+),(\d+)\.(\d+) (\d+) (\d+)$/;

/**
 * Go cover profiles. The same block listed by several test binaries is one block: in set mode
 * its count is the maximum, in count/atomic mode the counts add (as `go tool cover` merges).
 * Counters: instruction = statements (the figure `go tool cover -func` prints), line = lines
 * spanned by blocks with statements; a line's hits are the maximum over the blocks touching it.
 * Branch, complexity, method and class are null.
 */
export function goParser(): TextParser {
  const names = new Interner();
  const files = new Map<string, Map<string, Block>>();
  let mode: string | null = null;

  const splitter = new LineSplitter('go', (text, lineNo) => {
    if (text.trim() === '') return;
    if (mode === null) {
      const header = /^mode:\s*(set|count|atomic)\s*$/.exec(text);
      if (!header?.[1]) fail('go', 'bad-record', 'a Go profile starts with "mode: set|count|atomic"', { line: lineNo });
      mode = header[1];
      return;
    }
    if (text.startsWith('mode:')) {
      // Concatenated profiles repeat the header; the mode must agree.
      if (text.replace(/^mode:\s*/, '').trim() !== mode)
        fail('go', 'bad-record', 'profiles with different modes', { line: lineNo });
      return;
    }
    const match = BLOCK.exec(text);
    if (!match) fail('go', 'bad-record', 'not a "file:l.c,l.c statements count" block', { line: lineNo });
    const at = { line: lineNo };
    const [, file = '', sl, sc, el, ec, st, cnt] = match;
    const startLine = lineNumber('go', sl, 'start line', at);
    const endLine = lineNumber('go', el, 'end line', at);
    if (endLine < startLine || endLine - startLine > 1_000_000)
      fail('go', 'bad-record', 'block range is inverted or absurd', at);
    const statements = count('go', st, 'statement count', at);
    const hits = count('go', cnt, 'count', at);
    const path = names.get(file);
    let blocks = files.get(path);
    if (!blocks) {
      blocks = new Map();
      files.set(path, blocks);
    }
    const key = `${sl}.${sc},${el}.${ec}`;
    const block = blocks.get(key);
    if (block) {
      if (block.statements !== statements)
        fail('go', 'bad-record', 'the same block with different statement counts', at);
      block.hits = mode === 'set' ? Math.max(block.hits, hits) : Math.min(Number.MAX_SAFE_INTEGER, block.hits + hits);
    } else blocks.set(key, { startLine, endLine, statements, hits });
  });

  return {
    write(text) {
      splitter.write(text);
    },
    end(): Coverage {
      splitter.end();
      if (mode === null) fail('go', 'empty-input', 'no mode line');
      const result: FileCoverage[] = [];
      for (const [path, blocks] of files) result.push(toFile(path, [...blocks.values()]));
      return { format: 'go', files: result, counters: totals(result) };
    },
  };
}

function toFile(path: string, blocks: Block[]): FileCoverage {
  const byLine = new Map<number, LineCoverage>();
  let covered = 0;
  let total = 0;
  for (const block of blocks) {
    total += block.statements;
    if (block.hits > 0) covered += block.statements;
    if (block.statements === 0) continue;
    for (let line = block.startLine; line <= block.endLine; line++) {
      const entry = byLine.get(line);
      if (entry) entry.hits = Math.max(entry.hits, block.hits);
      else byLine.set(line, newLine(line, block.hits));
    }
  }
  const lines = [...byLine.values()].sort((a, b) => a.line - b.line);
  const counters = emptyCounters();
  counters.instruction = counter(covered, total - covered);
  counters.line = lineCounter(lines);
  return { path, language: 'go', lines, classes: [], counters };
}
