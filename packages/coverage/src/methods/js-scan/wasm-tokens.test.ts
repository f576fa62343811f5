import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCompiledTokenizer } from '../../node/compiled.ts';
import { HASH_ALL } from '../types.ts';
import { JsTokens } from './js-tokens.ts';
import { scanScript } from './scan.ts';
import { TOO_MANY, type Tokens, type TokensMark, Unsupported } from './tokens.ts';
import { compiledTokenizer, preferWasmTokens, WasmTokens, writeUnits } from './wasm-tokens.ts';

loadCompiledTokenizer();
const compiled = compiledTokenizer();

/** What a tokenizer answers to a sequence of calls: every token's fields, marks, failures, comments. */
function drive(tokens: Tokens, calls: readonly number[]): string[] {
  const log: string[] = [];
  const marks: TokensMark[] = [];
  const token = (i: number) =>
    `${i}: ${tokens.kind[i]} ${tokens.punct[i]} ${tokens.start[i]}-${tokens.end[i]} ${tokens.newline[i]} of ${tokens.count}`;
  for (const call of calls) {
    try {
      if (call < 4) log.push(token(tokens.next(call % 2 === 0)));
      else if (call === 4) log.push(token(tokens.continueTemplate()));
      else if (call === 5) {
        marks.push(tokens.mark());
        log.push(`mark ${JSON.stringify(marks.at(-1))}`);
      } else {
        const mark = marks.pop();
        if (mark) tokens.reset(mark);
        log.push(`reset to ${tokens.count}`);
      }
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      log.push(`unsupported: ${error.message}`);
      break;
    }
  }
  log.push(JSON.stringify(tokens.comments()));
  return log;
}

const both = (source: string, calls: readonly number[]) => {
  if (!compiled) throw new Error('tokens.wasm is not built');
  return { js: drive(new JsTokens(source), calls), wasm: drive(new WasmTokens(source, compiled), calls) };
};

/** Pieces of JavaScript, whole and broken, that the tokenizer must read alike either way. */
const PIECES = [
  'a',
  'bc',
  '$_',
  'é',
  'ä\u00a0',
  '1',
  '0x1F',
  '1e-3',
  '.5',
  '1_000n',
  '0b1',
  '2a',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\u2028',
  '\u3000',
  '/',
  '/=',
  '//c',
  '/* c */',
  '/*\n*/',
  '*/',
  '/[/]/g',
  '*',
  '**=',
  '`',
  '`t${',
  '${',
  '}',
  '{',
  '(',
  ')',
  '[',
  ']',
  "'s'",
  '"d"',
  "'\\'",
  '"\\\r\n"',
  '\\',
  '#',
  '#p',
  '#!x\n',
  '=',
  '=>',
  '===',
  '>>>=',
  '<',
  '<<=',
  '?',
  '?.',
  '?.5',
  '??=',
  '!',
  '!==',
  '+',
  '++',
  '-',
  '&&=',
  '|',
  '^',
  '%',
  ';',
  ',',
  ':',
  '~',
  '@',
  '...',
  '..',
  '\u0001',
  '\u007f',
  '\u0000',
  '\ud83d\ude00',
  '\ud800',
  'x\udc00',
];
const sources = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join(''));
/** 0-3: next (even: a regex allowed), 4: continueTemplate, 5: mark, 6: reset to the last mark. */
const calls = fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 60 });

describe('the compiled tokenizer (assembly/tokens.ts)', () => {
  afterEach(() => preferWasmTokens(true));

  it('is built by npm install', () => {
    expect(compiled, 'packages/coverage/dist/tokens.wasm (scripts/build.mjs)').not.toBeNull();
  });

  it('answers every sequence of calls exactly as js-tokens.ts does, failures included', () => {
    fc.assert(
      fc.property(sources, calls, (source, sequence) => {
        const { js, wasm } = both(source, sequence);
        expect(wasm).toEqual(js);
      }),
      { numRuns: 3000 },
    );
  });

  it('fails as tokens.ts does, with its messages', () => {
    const failures = ['#', '\\u0061', '1a', "'open", '`open', '/* open', '/open', '\u0001']
      .map((source) => both(source, [0]).wasm.at(-2))
      .map((line) => line?.replace(/^unsupported: /, ''));
    expect(failures).toEqual([
      '#',
      'escape in a word',
      'number',
      'unterminated string',
      'unterminated template',
      'unterminated comment',
      'unterminated regex',
      'character 1',
    ]);
  });

  it('reads large sources alike, and fails alike for a caller that reads on past the end', () => {
    const source = `${';'.repeat(5000)}${'/**/'.repeat(3000)}${'// line\n'.repeat(2000)}x`;
    const sequence = [5, ...Array.from({ length: 4000 }, () => 1), 6, ...Array.from({ length: 5100 }, () => 1)];
    const { js, wasm } = both(source, sequence);
    expect(js.at(-2)).toMatch(/^5099: 0 /);
    expect(JSON.parse(js.at(-1) as string)).toHaveLength(5000);
    expect(wasm).toEqual(js);
    const runaway = both(
      'x',
      Array.from({ length: 100 }, () => 1),
    );
    expect(runaway.js.at(-2)).toBe(`unsupported: ${TOO_MANY}`);
    expect(runaway.wasm).toEqual(runaway.js);
  });

  it('scans a source over a million characters in an instance of its own, leaving the kept one small', () => {
    const source = 'function f(a) { return a + 1; } // filler\n'.repeat(30_000);
    const kept = compiledTokenizer()?.memory.buffer.byteLength ?? 0;
    expect(source.length * 17, 'the big source would grow the kept instance').toBeGreaterThan(kept);
    preferWasmTokens(false);
    const js = scanScript(source, HASH_ALL);
    preferWasmTokens(true);
    const wasm = scanScript(source, HASH_ALL);
    expect(wasm).toEqual(js);
    expect('methods' in wasm && wasm.methods).toHaveLength(30_000);
    expect(compiledTokenizer()?.memory.buffer.byteLength).toBe(kept);
  });

  it('copies a source into its memory alike with and without the Buffer of Node', () => {
    const source = 'a\u00e9\u2028\ud83d\ude00\ud800x\udc00\u0000z';
    const [native, portable] = [undefined, null].map((buffer) => {
      const memory = new ArrayBuffer(64);
      writeUnits(memory, 8, source, buffer);
      return [...new Uint16Array(memory, 8, source.length)];
    });
    expect(native).toEqual(Array.from({ length: source.length }, (_, i) => source.charCodeAt(i)));
    expect(portable).toEqual(native);
  });

  it('gives the scanner the same methods and hand-overs on real code (echarts, zrender, this repository)', () => {
    const root = resolve(import.meta.dirname, '../../../../..');
    const files = (dir: string, extension: string) =>
      readdirSync(dir, { withFileTypes: true, recursive: true })
        .filter(
          (e) => e.isFile() && e.name.endsWith(extension) && !relative(dir, e.parentPath).includes('node_modules'),
        )
        .map((e) => join(e.parentPath, e.name));
    const corpus = [
      ...files(join(root, 'node_modules/echarts/lib/chart'), '.js'),
      ...files(join(root, 'node_modules/zrender/lib'), '.js'),
      ...['coverage', 'server', 'cli'].flatMap((p) => files(join(root, 'packages', p, 'src'), '.ts')),
    ];
    expect(corpus.length).toBeGreaterThan(500);
    const differ: string[] = [];
    for (const file of corpus) {
      const source = readFileSync(file, 'utf8');
      const typescript = file.endsWith('.ts');
      preferWasmTokens(false);
      const js = scanScript(source, HASH_ALL, typescript);
      preferWasmTokens(true);
      const wasm = scanScript(source, HASH_ALL, typescript);
      if (JSON.stringify(wasm) !== JSON.stringify(js)) differ.push(relative(root, file));
    }
    expect(differ).toEqual([]);
  }, 60_000);
});
