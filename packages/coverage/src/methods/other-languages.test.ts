import { describe, expect, it } from 'vitest';
import { extractMethods, extractMethodsOfPath } from './extract.ts';
import { languageOfPath } from './language.ts';

const summary = async (...args: Parameters<typeof extractMethods>) =>
  (await extractMethods(...args)).map((m) => [m.class, m.name, m.startLine, m.endLine]);

describe('methods of other languages', () => {
  it('TypeScript: class members, bound arrows, callbacks folded into their function', async () => {
    const source = [
      'export class Account {', // 1
      '  constructor(private balance: number) {}',
      '  deposit(amount: number): number {',
      '    return [amount].map((a) => a + this.balance)[0];',
      '  }', // 5
      '  get total() { return this.balance; }',
      '  reset = () => { this.balance = 0; };',
      '}',
      'function helper(x: number) {',
      '  return function inner() { return x; };', // 10
      '}',
      'const twice = (x: number) => x * 2;',
      "describe('suite', () => { it('case', () => {}); });",
    ].join('\n');
    expect(await summary('typescript', source)).toEqual([
      ['Account', 'constructor', 2, 2],
      ['Account', 'deposit', 3, 5],
      ['Account', 'total', 6, 6],
      ['Account', 'reset', 7, 7],
      [null, 'helper', 9, 11],
      [null, 'inner', 10, 10],
      [null, 'twice', 12, 12],
      [null, '(anonymous)', 13, 13],
    ]);
  });

  it('JavaScript and TSX use the same rules', async () => {
    expect(await summary('javascript', 'module.exports.add = function (a, b) {\n  return a + b;\n};\n')).toEqual([
      [null, 'add', 1, 3],
    ]);
    const tsx = 'export function Badge({ n }: { n: number }) {\n  return <b onClick={() => n}>{n}</b>;\n}\n';
    expect(await summary('tsx', tsx)).toEqual([[null, 'Badge', 1, 3]]);
  });

  it('Python: decorators start the range, classes nest, lambdas stay inside', async () => {
    const source = [
      'class Outer:', // 1
      '    class Inner:',
      '        def ping(self):',
      '            return 1',
      '    @staticmethod', // 5
      '    def make(x):',
      '        key = lambda v: v',
      '        return key(x)',
      'def free():',
      '    pass', // 10
    ].join('\n');
    expect(await summary('python', source)).toEqual([
      ['Outer.Inner', 'ping', 3, 4],
      ['Outer', 'make', 5, 8],
      [null, 'free', 9, 10],
    ]);
  });

  it('Go: receivers name the class, function literals stay inside', async () => {
    const source = [
      'package shop',
      'type Cart struct{ items []int }',
      'func (c *Cart) Add(n int) {',
      '\tdo := func() { c.items = append(c.items, n) }',
      '\tdo()', // 5
      '}',
      'func (c Cart) Len() int { return len(c.items) }',
      'func New() *Cart { return &Cart{} }',
    ].join('\n');
    expect(await summary('go', source)).toEqual([
      ['Cart', 'Add', 3, 6],
      ['Cart', 'Len', 7, 7],
      [null, 'New', 8, 8],
    ]);
  });

  it('C and C++: pointer declarators, qualified names, constructors, lambdas inside', async () => {
    expect(await summary('c', 'static int *find(int *a, int n)\n{\n  return a + n;\n}\nvoid noop(void) {}\n')).toEqual([
      [null, 'find', 1, 4],
      [null, 'noop', 5, 5],
    ]);
    const cpp = [
      'namespace shop {',
      'class Cart {',
      ' public:',
      '  Cart(int n) : n_(n) {}',
      '  ~Cart() {}', // 5
      '  int size() const { auto f = [this]() { return n_; }; return f(); }',
      '  int n_;',
      '};',
      'int Cart::total(int price) { return price * n_; }',
      'template <typename T> T twice(T v) { return v + v; }', // 10
      '}',
    ].join('\n');
    expect(await summary('cpp', cpp)).toEqual([
      ['Cart', 'Cart', 4, 4],
      ['Cart', '~Cart', 5, 5],
      ['Cart', 'size', 6, 6],
      ['Cart', 'total', 9, 9],
      [null, 'twice', 10, 10],
    ]);
  });

  it('Kotlin: JVM class names, constructors and init blocks as <init>, top-level functions in FileKt', async () => {
    const source = [
      'package com.shop',
      'class Cart(val size: Int) {',
      '  init { require(size >= 0) }',
      '  constructor(name: String) : this(name.length) {}',
      '  fun grow(n: Int): Int { val f = { x: Int -> x + n }; return f(size) }', // 5
      '  companion object { fun empty() = Cart(0) }',
      '  inner class Line { fun price() = 1 }',
      '}',
      'object Registry { fun all() = listOf<Cart>() }',
      'fun cartOf(n: Int) = Cart(n)', // 10
    ].join('\n');
    const methods = await extractMethods('kotlin', source, 'src/main/kotlin/com/shop/carts.kt');
    expect(methods.map((m) => [m.class, m.name, m.startLine, m.endLine])).toEqual([
      ['com/shop/Cart', '<init>', 2, 2],
      ['com/shop/Cart', '<init>', 3, 3],
      ['com/shop/Cart', '<init>', 4, 4],
      ['com/shop/Cart', 'grow', 5, 5],
      ['com/shop/Cart$Companion', '<init>', 6, 6],
      ['com/shop/Cart$Companion', 'empty', 6, 6],
      ['com/shop/Cart$Line', '<init>', 7, 7],
      ['com/shop/Cart$Line', 'price', 7, 7],
      ['com/shop/Registry', '<init>', 9, 9],
      ['com/shop/Registry', 'all', 9, 9],
      ['com/shop/CartsKt', 'cartOf', 10, 10],
    ]);
  });

  it('Kotlin: enum entries with a body are classes of their own, abstract members have no code', async () => {
    const source = [
      'enum class Color(val rgb: Int) {',
      '  RED(1) { override fun warm() = true },',
      '  BLUE(2);',
      '  open fun warm() = false',
      '}',
      'interface Shape { fun area(): Double; fun name() = "shape" }',
    ].join('\n');
    const methods = await extractMethods('kotlin', source, 'Color.kt');
    expect(methods.map((m) => [m.class, m.name, m.startLine])).toEqual([
      ['Color', '<init>', 1],
      ['Color$RED', 'warm', 2],
      ['Color', 'warm', 4],
      ['Shape', 'name', 6],
    ]);
  });

  it('hashes bodies so that comments and layout do not count, code does', async () => {
    const f = async (source: string) => (await extractMethods('java', source)).find((m) => m.name === 'f');
    const a = await f('class A { int f() { return 1; } }');
    const b = await f('class A {\n  // why\n  int f() {\n    /* one */ return 1;\n  }\n}');
    const c = await f('class A { int f() { return 2; } }');
    expect(a?.bodyHash).toMatch(/^[0-9a-f]{40}$/);
    expect(b?.bodyHash).toBe(a?.bodyHash);
    expect(c?.bodyHash).not.toBe(a?.bodyHash);
  });

  it('hashes JavaScript, Python, Go and C bodies without their comments, nested ones included', async () => {
    const hashes = async (language: Parameters<typeof extractMethods>[0], source: string) =>
      (await extractMethods(language, source)).map((m) => `${m.name}:${m.bodyHash}`);
    const js = (note: string, value: string) =>
      `/** doc ${note} */\nfunction f() {\n  // ${note}\n  const g = () => { /* ${note} */ return ${value}; };\n  return g();\n}\n`;
    expect(await hashes('javascript', js('a', '1'))).toEqual(await hashes('javascript', js('b b', '1')));
    expect(await hashes('javascript', js('a', '1'))).not.toEqual(await hashes('javascript', js('a', '2')));
    const py = (note: string) => `def f():\n    # ${note}\n    return 1  # ${note}\n`;
    expect(await hashes('python', py('x'))).toEqual(await hashes('python', py('y y')));
    const go = (note: string) => `package p\nfunc F() int {\n\t// ${note}\n\treturn 1 /* ${note} */\n}\n`;
    expect(await hashes('go', go('x'))).toEqual(await hashes('go', go('yy')));
    const c = (note: string, value: string) => `int f(void) {\n  /* ${note} */ return ${value}; // ${note}\n}\n`;
    expect(await hashes('c', c('x', '1'))).toEqual(await hashes('c', c('yy', '1')));
    expect(await hashes('c', c('x', '1'))).not.toEqual(await hashes('c', c('x', '3')));
    // A comment's text must not leak into the hash: the bodies differ only by a comment's place.
    const moved = await hashes('javascript', 'function f() {\n  return 1; // x\n}\n');
    expect(moved).toEqual(await hashes('javascript', 'function f() {\n  // x\n  return 1;\n}\n'));
  });

  it('walks generated code nested deeper than the call stack', async () => {
    const deep = `function sum() {\n  return ${'1 + '.repeat(30000)}1;\n}\n`;
    expect(await summary('javascript', deep)).toEqual([[null, 'sum', 1, 3]]);
    const java = `class G {\n  int sum() {\n    return ${'(1 + '.repeat(5000)}1${')'.repeat(5000)};\n  }\n}\n`;
    expect((await extractMethods('java', java)).map((m) => m.name)).toEqual(['<init>', 'sum']);
  });

  it('chooses the language by extension and skips what it cannot read', async () => {
    expect(languageOfPath('src/a/B.java')).toBe('java');
    expect(languageOfPath('web/App.tsx')).toBe('tsx');
    expect(languageOfPath('include/x.hpp')).toBe('cpp');
    expect(languageOfPath('README.md')).toBeNull();
    expect(languageOfPath('dir.v2/Makefile')).toBeNull();
    expect(await extractMethodsOfPath('notes.txt', 'hello')).toEqual([]);
  });

  it('reads no methods from TypeScript declaration files, which hold no code', async () => {
    for (const path of ['types/index.d.ts', 'lib/a.D.TS', 'esm/b.d.mts', 'cjs/c.d.cts']) {
      expect(languageOfPath(path)).toBeNull();
    }
    expect(languageOfPath('src/d.ts')).toBe('typescript');
    expect(languageOfPath('src/model.data.ts')).toBe('typescript');
    const declaration = 'export declare function pick<T>(items: T[]): T;\nexport declare const f: () => void;\n';
    expect(await extractMethodsOfPath('pick.d.ts', declaration)).toEqual([]);
  });
});
