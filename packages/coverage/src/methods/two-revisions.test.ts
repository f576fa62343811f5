import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../diff/unified.ts';
import { extractMethodsOfPath } from './extract.ts';
import { extractMethodsOfRevisions } from './two-revisions.ts';

const dir = mkdtempSync(join(tmpdir(), 'sextant-revisions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** git's own `--unified=0` hunks from base to head. */
function hunks(base: string, head: string) {
  writeFileSync(join(dir, 'base.js'), base);
  writeFileSync(join(dir, 'head.js'), head);
  let text = '';
  try {
    execFileSync('git', ['diff', '--no-index', '--unified=0', 'base.js', 'head.js'], { cwd: dir, encoding: 'utf8' });
  } catch (error) {
    text = (error as { stdout: string }).stdout; // exit 1: the files differ
  }
  return parseUnifiedDiff(text)[0]?.hunks ?? [];
}

const names = (methods: readonly { class: string | null; name: string; startLine: number; endLine: number }[]) =>
  methods.map((m) => `${m.class ?? ''}.${m.name}:${m.startLine}-${m.endLine}`);

const BASE = [
  'class Shop {',
  '  total(items) {',
  '    return items.reduce((a, b) => a + b, 0);',
  '  }',
  '  // gone soon',
  '  discount(x) {',
  '    return x * 0.9;',
  '  }',
  '}',
  'function helper(a) {',
  '  const b = a + 1;',
  '  return b;',
  '}',
  'const tail = () => 1;',
].join('\n'); // no final newline

const HEAD = [
  '// header comment',
  'class Shop {',
  '  total(items) {',
  '    return items.reduce((a, b) => a + b, 0) + 1;',
  '  }',
  '  discount(x) {',
  '    return x * 0.9;',
  '  }',
  '  refund(x) {',
  '    return -x;',
  '  }',
  '}',
  'function helper(a) {',
  '  return a + 1;',
  '}',
  'const tail = () => 2;',
  'function added() {}',
  '',
].join('\n');

// A larger pair: many hunks of every kind, so wrongly placed edits would reuse misplaced subtrees.
const manyBase = Array.from({ length: 120 }, (_, i) => `function f${i}(a) {\n  const b = a + ${i};\n  return b;\n}\n`);
const manyHead = manyBase.map((text, i) => {
  if (i % 7 === 0) return text.replace('+ ', '- ');
  if (i % 11 === 0) return text.replace(/ {2}const b = .*\n/, '').replace('return b', `return a + ${i}`);
  if (i % 13 === 0) return `${text}const extra${i} = (x) => {\n  return x;\n};\n`;
  if (i % 17 === 0) return '';
  return text;
});

describe('extractMethodsOfRevisions', () => {
  it('agrees with fresh parses over a diff of many hunks', async () => {
    const [base, head] = [manyBase.join(''), manyHead.join('')];
    const both = await extractMethodsOfRevisions(
      'm.js',
      head,
      { source: base, path: 'm.js', hunks: hunks(base, head) },
      () => true,
      () => true,
    );
    expect(names(both.base)).toEqual(names(await extractMethodsOfPath('m.js', base)));
  });

  it('finds the same base methods through the edited head tree as a fresh parse of the base', async () => {
    const diff = hunks(BASE, HEAD);
    expect(diff.length).toBeGreaterThan(3);
    const both = await extractMethodsOfRevisions(
      'a.js',
      HEAD,
      { source: BASE, path: 'a.js', hunks: diff },
      () => true,
      () => true,
    );
    expect(names(both.base)).toEqual(names(await extractMethodsOfPath('a.js', BASE)));
    expect(names(both.head)).toEqual(names(await extractMethodsOfPath('a.js', HEAD)));
    // And back: the head through the edited base tree.
    const back = await extractMethodsOfRevisions(
      'a.js',
      BASE,
      { source: HEAD, path: 'a.js', hunks: hunks(HEAD, BASE) },
      () => true,
      () => true,
    );
    expect(names(back.base)).toEqual(names(both.head));
  });

  it('skips the base when asked, and hashes only the methods the filter names', async () => {
    const only = await extractMethodsOfRevisions(
      'a.js',
      HEAD,
      { source: BASE, path: 'a.js', hunks: hunks(BASE, HEAD) },
      (start) => start === 9,
      () => false,
    );
    expect(only.base).toEqual([]);
    expect(only.head.filter((m) => m.bodyHash !== '').map((m) => m.name)).toEqual(['refund']);
  });
});
