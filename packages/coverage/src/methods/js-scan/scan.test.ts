import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { label, treeSitterAnswers } from '../../../test/fixtures/tree-sitter-answer.ts';
import { extractMethods } from '../extract.ts';
import { HASH_ALL, type HashFilter } from '../types.ts';
import { scanScript } from './scan.ts';

const treeSitter = treeSitterAnswers('javascript');

/**
 * One construct per source, with the methods the naming rules give it (class-qualified, in line
 * order). `rejected`: valid JavaScript that tree-sitter's grammar reads with an error node; the
 * scanner must still give tree-sitter's answer.
 */
const SUPPORTED: { title: string; source: string; names: string[]; rejected?: true }[] = [
  {
    title: 'function declarations, expressions, generators and async functions',
    source:
      'function a() {}\nconst b = function () {};\nconst c = function named() {};\nfunction* d() { yield 1; }\n' +
      'const e = function* () {};\nasync function f() { await g(); }\nconst h = async function () {};\nlet i = async () => {};\n',
    names: ['a', 'b', 'c', 'd', 'e', 'f', 'h', 'i'],
  },
  {
    title: 'arrows with concise and block bodies',
    source:
      'const a = x => x + 1;\nconst b = (x, y) => { return x * y; };\nconst c = async x => x;\n' +
      'const d = () => ({ k: 1 });\nconst e = async(1) / 2;\n',
    names: ['a', 'b', 'c', 'd'],
  },
  {
    title: 'nested arrows belong to the outermost one',
    source: 'const curry = a => b => c => a + b + c;\nmodule.exports = a => b => a;\n',
    names: ['curry', 'exports'],
  },
  {
    title: 'arrows in a ternary are not bound',
    source:
      'const pick = flag ? x => x : y => y * 2;\nconst other = flag ? function () {} : null;\n' +
      'function f(c) { return c ? x => x : y => y; }\n',
    names: ['(anonymous)', '(anonymous)', '(anonymous)', 'f'],
  },
  {
    title: 'concise arrow bodies ended by automatic semicolon insertion',
    source:
      'const a = x => x + 1\nconst b = y => y\n  .map(z => z)\n  .filter(Boolean)\nconst c = () => 1\n' +
      'foo(() => 2)\nconst d = () =>\n  3\nfunction e() {}\n',
    names: ['a', 'b', 'c', '(anonymous)', 'd', 'e'],
  },
  {
    title: 'class declarations and anonymous and named class expressions',
    source: 'class A { m() {} }\nconst B = class { n() {} };\nconst C = class Named extends A { o() {} };\n',
    names: ['A.m', '(anonymous).n', 'Named.o'],
  },
  {
    title: 'nested classes',
    source:
      'class Outer {\n  m() { class Inner { n() {} } return Inner; }\n  static Nested = class { k() {} };\n' +
      '  p() { return new (class Local { q() {} })(); }\n}\n',
    names: ['Outer.m', 'Outer.Inner.n', 'Outer.(anonymous).k', 'Outer.p', 'Outer.Local.q'],
  },
  {
    title: 'static, async, get, set and generator methods, and methods named like modifiers',
    source:
      'class M {\n  static s() {}\n  async a() {}\n  get g() { return 1; }\n  set g(v) {}\n  *gen() {}\n' +
      '  async *ag() {}\n  static async *sag() {}\n  constructor() {}\n  static() {}\n  get() {}\n  async() {}\n}\n',
    names: ['M.s', 'M.a', 'M.g', 'M.g', 'M.gen', 'M.ag', 'M.sag', 'M.constructor', 'M.static', 'M.get', 'M.async'],
  },
  {
    title: 'computed keys and private members',
    source: "class I {\n  [Symbol.iterator]() {}\n  ['x' + 1]() {}\n  #m() {}\n  #f = () => {};\n  static #s() {}\n}\n",
    names: ['I.[Symbol.iterator]', "I.['x' + 1]", 'I.#m', 'I.#f', 'I.#s'],
  },
  {
    title: 'static blocks',
    source:
      'class S {\n  static {\n    const f = () => 1;\n    function g() {}\n    run(() => 2);\n  }\n  static x = 1;\n}\n',
    names: ['S.f', 'S.g', 'S.(anonymous)'],
  },
  {
    title: 'class fields without semicolons',
    source:
      "class F {\n  a = 1\n  b = () => 2\n  c = function () {}\n  static d = x => x\n  e\n  f = 2;\n  ['g'] = () => {}\n" +
      "  h() {}\n  'i' = function () {}\n  #j = () => {}\n  k() {}\n  *l() {}\n}\n",
    names: ['F.b', 'F.c', 'F.d', "F.['g']", 'F.h', "F.'i'", 'F.#j', 'F.k', 'F.l'],
  },
  {
    title: 'a line starting with [ continues a concise arrow body (no semicolon inserted)',
    source: "class F {\n  static d = x => x\n  ['e'] = () => {}\n  f\n}\n",
    names: ['F.d', "F.x\n  ['e']"],
  },
  {
    title: 'object literal methods, pairs with string, number and computed keys, shorthand',
    source:
      'const o = {\n  m() {},\n  async n() {},\n  get p() { return 1; },\n  *q() {},\n  short,\n' +
      "  'str': function () {},\n  42: () => {},\n  [k]: () => {},\n  t: a ? b : c,\n  r: x => x,\n};\n",
    names: ['m', 'n', 'p', 'q', "'str'", '42', '[k]', 'r'],
  },
  {
    title: 'assignment targets name the function after their last dot (compound assignments do not)',
    source:
      'a.b.c = function () {};\nexports.x = () => {};\na[0] = function () {};\n(x || y).z = function () {};\n' +
      'this.m = function () {};\na = b = function () {};\nmodule.exports.y = async () => {};\na[b.c] = () => {};\n' +
      'n += () => {};\n',
    names: ['c', 'x', 'a[0]', 'z', 'm', 'b', 'y', 'c]', '(anonymous)'],
  },
  {
    title: 'a function expression that is called is not bound',
    source:
      '(function () { function inner() {} }).call(this);\n(function named() {})();\n' +
      'var v = function () { return 1; }();\nconst w = function own() {}.call(null);\nx = (function () {})();\n',
    names: ['(anonymous)', 'inner', 'named', '(anonymous)', 'own', '(anonymous)'],
  },
  {
    title: 'top-level IIFEs with named functions inside',
    source:
      '(function (root) {\n  function helper() {}\n  root.api = function () {};\n  const arrow = () => {};\n' +
      '  go(() => {});\n})(this);\n!function () { var x = function () {}; }();\n(() => { function inside() {} })();\n',
    names: ['(anonymous)', 'helper', 'api', 'arrow', '(anonymous)', 'x', '(anonymous)', 'inside'],
  },
  {
    title: 'defaults in destructuring patterns and parameters bind no name',
    source:
      'const { f = () => 1 } = o;\nfunction g({ h = () => 2 }) {}\nconst r = ({ q = n => n }) => q;\n' +
      'const [a = function () {}] = list;\nlet { s: t = () => 3 } = o;\n({ u = () => 4 } = o);\n',
    names: ['(anonymous)', 'g', 'r', '(anonymous)', '(anonymous)', '(anonymous)'],
  },
  // biome-ignore-start lint/suspicious/noTemplateCurlyInString: JavaScript source text, not templates
  {
    title: 'template literals with braces and nested templates in substitutions',
    source:
      'const t = `a ${ { k: 1 }.k } b ${ `nested ${ x => x } }` } c \\` }`;\n' +
      "const f = () => `${ function inner() { return '}'; } }`;\nfunction g() { return `}${'{'}` + `\\${`; }\n" +
      'const u = `${ { m() { return `{`; } }.m() }`;\n',
    names: ['(anonymous)', 'f', 'inner', 'g', 'm'],
  },
  // biome-ignore-end lint/suspicious/noTemplateCurlyInString: JavaScript source text, not templates
  {
    title: 'regex literals after (, =, return, and division after ), ] and names',
    source:
      'const a = /[/{\'"]/.test(s);\nconst b = f(/[//]\\/\\/{/);\nconst c = x => /}/.test(x);\n' +
      "function d() { return /{'/g; }\nconst e = (a) / 2; function j() { return '/'; }\n" +
      'const h = arr[0] / 2; function k() { return 1 / 2; }\nconst i = n / 2 / m; function l() {}\n',
    names: ['c', 'd', 'j', 'k', 'l'],
  },
  {
    title: 'comments between the tokens of a method header and around braces',
    source:
      '/* lead */ function /* a */ f /* b */ ( /* c */ ) /* d */ { // e {\n  return 1; /* } */\n} // }\n' +
      'class C { /* x */ static /* y */ async /* z */ m /* w */ () {} // {\n  get /* g */ g() {}\n}\n' +
      'const o = { k /* c */ : /* d */ function () {} };\nx /* c */ . /* d */ y = function () {};\n',
    names: ['f', 'C.m', 'C.g', 'k', ' /* d */ y'],
  },
  {
    title: 'export default of a nameless function',
    source: 'export default function () { return 1; }\nexport function named() {}\n',
    names: ['(anonymous)', 'named'],
  },
  {
    title: 'export default of a nameless class',
    source: 'export default class { m() {} }\n',
    names: ['(anonymous).m'],
  },
  {
    title: 'export lists with keywords as names',
    source: 'const a = 1, b = 2;\nexport { a as function, b as class };\nfunction after() {}\n',
    names: ['after'],
    rejected: true,
  },
  {
    title: 'export default of an object, an arrow and named declarations',
    source: 'export default { m() {}, n: () => 1 };\nexport const f = () => {};\nexport async function g() {}\n',
    names: ['m', 'n', 'f', 'g'],
  },
  {
    title: 'labels and blocks after case',
    source:
      'outer: for (const x of xs) { inner: { break inner; } continue outer; }\nswitch (k) {\n' +
      "  case 1: { const f = () => 1; break; }\n  case 'a': function g() {}\n  default: { h(function () {}); }\n}\n",
    names: ['f', 'g', '(anonymous)'],
  },
  {
    title: 'a regex right after an if or while condition',
    source: "if (a) /}/.test(b);\nwhile (x) /{/.exec(y);\nfunction f() { if (a) /'/.test(b); return 1; }\n",
    names: ['f'],
  },
  {
    title: 'a hashbang line',
    source: '#!/usr/bin/env node\nconst f = () => 1;\n',
    names: ['f'],
  },
  {
    title: 'CRLF line endings',
    source:
      'function a() {\r\n  return 1;\r\n}\r\nconst b = x =>\r\n  x\r\nconst c = 2\r\nclass D {\r\n  e = 1\r\n  f() {}\r\n}\r\n',
    names: ['a', 'b', 'D.f'],
  },
  {
    title: 'non-ASCII names and strings',
    source:
      "const s = '😀 naïve';\nconst café = () => 'é';\nfunction 日本() { return '😀'; }\n" +
      "const o = { 'ключ': function () {}, π: () => 3.14 };\nclass Ñ { método() {} }\n",
    names: ['café', '日本', "'ключ'", 'π', 'Ñ.método'],
  },
  {
    title: 'functions in parameter patterns (bound to no name) and declared patterns (named by the pattern)',
    source:
      'const g = ({ a: b = () => 1, c = function () {} }) => b;\nfunction h({ d: e = () => 2 }, [f = () => 3]) { return e; }\n' +
      'const [x, y] = function () { return [1, 2]; }();\nconst { z } = function () {};\nlet w = (m = () => 1, [n] = [() => 2]) => m;\n',
    names: ['g', 'h', '(anonymous)', '{ z }', 'w'],
  },
];

/**
 * Valid JavaScript the scanner currently hands over (message in the comment): tree-sitter reads
 * it cleanly, so the scanner could. Move a case to SUPPORTED once the scanner handles it.
 */
const KNOWN_GAPS: { title: string; source: string }[] = [
  // 'line break after a modifier'
  { title: 'a getter whose name is on the next line', source: 'class C {\n  get // line\n  g() {}\n}\n' },
  // 'line break after a modifier'
  { title: 'a field named static before a method', source: 'class C {\n  static\n  j() {}\n}\n' },
  // 'assignment target'
  { title: 'a field value continued by a line starting with [', source: "class C {\n  f = 2\n  ['g'] = () => {}\n}\n" },
  // 'function in a pattern or literal': an object literal or a pattern, unknown when the arrow is read
  { title: 'an assignment as an object literal value', source: 'const o = { a: b = () => 1 };\n' },
];

describe('scanScript', () => {
  it.each(SUPPORTED)('$title: same methods as tree-sitter', ({ source, names, rejected }) => {
    const expected = treeSitter(source);
    expect(expected.hasError, 'tree-sitter reads the source without an error').toBe(rejected === true);
    expect(expected.methods.map(label)).toEqual(names);
    const scanned = scanScript(source, HASH_ALL);
    expect(scanned).toEqual({ methods: expected.methods });
  });

  it.each(KNOWN_GAPS)(
    "known gap, $title: handed over, and extractMethods gives tree-sitter's answer",
    async ({ source }) => {
      const expected = treeSitter(source);
      expect(expected.hasError).toBe(false);
      expect(scanScript(source, HASH_ALL)).toHaveProperty('unsupported');
      expect(await extractMethods('javascript', source)).toEqual(expected.methods);
    },
  );

  it('hashes only the methods the filter asks for, as tree-sitter does', () => {
    const source = SUPPORTED.map((c) => c.source).find((s) => s.startsWith('class M {')) as string;
    const hashed: HashFilter = (start) => start % 2 === 0;
    const expected = treeSitter(source, hashed).methods;
    expect(new Set(expected.map((m) => m.bodyHash === '')).size, 'some hashed, some not').toBe(2);
    expect(scanScript(source, hashed)).toEqual({ methods: expected });
  });
});

const HANDED_OVER: { title: string; source: string }[] = [
  { title: 'JSX', source: 'const a = <div>{x}</div>;\nfunction f() {}\n' },
  { title: 'a class decorator', source: '@dec\nclass A { m() {} }\n' },
  { title: 'a method decorator', source: 'class A {\n  @dec m() {}\n}\n' },
  { title: 'an unterminated string', source: "const s = 'abc\nfunction f() {}\n" },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text, not a template
  { title: 'an unterminated template', source: 'const t = `abc ${x}\nfunction f() {}\n' },
  { title: 'an unterminated comment', source: 'function g() {}\n/* never closed\nfunction f() {}\n' },
  { title: 'an unclosed brace', source: 'function f() {\n  if (x) {\n}\n' },
  { title: 'an extra closing brace', source: 'function f() {}\n}\nfunction g() {}\n' },
];

describe('scanScript hands over what it does not model', () => {
  it.each(HANDED_OVER)('$title: unsupported, and extractMethods falls back to tree-sitter', async ({ source }) => {
    expect(scanScript(source, HASH_ALL)).toHaveProperty('unsupported');
    expect(await extractMethods('javascript', source)).toEqual(treeSitter(source).methods);
  });
});

const ROOT = resolve(import.meta.dirname, '../../../../..');
const LIBRARIES = ['echarts/lib', 'zrender/lib'].map((lib) => join(ROOT, 'node_modules', lib));

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => join(e.parentPath, e.name));
}

describe('scanScript on real code', () => {
  it('agrees with tree-sitter on every echarts and zrender file it scans, and hands over fewer than 1%', async ({
    annotate,
  }) => {
    const files = LIBRARIES.flatMap(jsFiles).sort();
    expect(files.length, `echarts and zrender are installed under ${ROOT}/node_modules`).toBeGreaterThan(500);
    const handedOver: string[] = [];
    const different: string[] = [];
    let compared = 0;
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      const scanned = scanScript(source, HASH_ALL);
      const name = relative(ROOT, file);
      if ('unsupported' in scanned) {
        handedOver.push(`${name}: ${scanned.unsupported} at ${scanned.at}`);
        continue;
      }
      const expected = treeSitter(source).methods;
      compared += expected.length;
      if (JSON.stringify(scanned.methods) !== JSON.stringify(expected)) different.push(name);
    }
    const counts = `${files.length} files: ${handedOver.length} handed over, ${different.length} different, ${compared} methods compared`;
    await annotate(counts);
    expect(different, `${counts}; files that differ`).toEqual([]);
    expect(handedOver.length, `${counts}:\n${handedOver.join('\n')}`).toBeLessThan(files.length / 100);
    expect(compared, counts).toBeGreaterThan(1000);
  }, 120_000);
});
