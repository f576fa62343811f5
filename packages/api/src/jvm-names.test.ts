import { describe, expect, it } from 'vitest';
import {
  type JvmNameWords,
  jvmClassDisplayName,
  jvmDialectOfPath,
  jvmMethodDisplayName,
  parseMethodDescriptor,
} from './jvm-names.ts';

const java = (signature: string, className: string | null = 'demo/inventory/Alerts', siblings?: string[]) =>
  jvmMethodDisplayName(signature, { className, siblings });
const kotlin = (signature: string, className = 'demo/Stock', siblings?: string[]) =>
  jvmMethodDisplayName(signature, { className, dialect: 'kotlin', siblings });

describe('jvmMethodDisplayName (Java)', () => {
  it('writes parameter and return types as Java does, dropping void', () => {
    expect(java('summary(I)Ljava/lang/String;')).toBe('summary(int): String');
    expect(java('run()V')).toBe('run()');
    expect(java('mix(BCDFJSZ)J')).toBe('mix(byte, char, double, float, long, short, boolean): long');
    expect(java('total(Ljava/util/Map;Ljava/util/List;)Ljava/math/BigDecimal;')).toBe('total(Map, List): BigDecimal');
  });

  it('names constructors after their class, inner classes with a dot', () => {
    expect(java('<init>(Ldemo/inventory/Stock;)V')).toBe('Alerts(Stock)');
    expect(java('<init>()V', 'demo/Outer$Inner')).toBe('Inner()');
    expect(java('<init>(Ldemo/Outer;I)V', 'Outer$Inner')).toBe('Inner(Outer, int)');
    expect(java('at(Ldemo/Outer$Inner$Deep;)Ldemo/Outer$Inner;')).toBe('at(Outer.Inner.Deep): Outer.Inner');
  });

  it('names the static initializer in words', () => {
    expect(java('<clinit>()V')).toBe('static initializer');
  });

  it('writes arrays with brackets, nested and of objects', () => {
    expect(java('main([Ljava/lang/String;)V')).toBe('main(String[])');
    expect(java('grid([[I)[[D')).toBe('grid(int[][]): double[][]');
    expect(java('sum([I)I')).toBe('sum(int[]): int');
  });

  it('names a lambda by its enclosing method, with parameters when only one method has that name', () => {
    const siblings = ['build(Ldemo/inventory/Inventory;)Ljava/util/List;', 'lambda$build$0(Ljava/lang/Object;)Z'];
    expect(java('lambda$build$0(Ljava/lang/Object;)Z', 'demo/Report', siblings)).toBe('lambda in build(Inventory)');
    expect(java('lambda$build$1(I)V', 'demo/Report')).toBe('lambda in build');
    const overloads = ['build(I)V', 'build(J)V'];
    expect(java('lambda$build$0()V', 'demo/Report', overloads)).toBe('lambda in build');
  });

  it('names lambdas in constructors and static initializers after them', () => {
    expect(java('lambda$new$0()V', 'demo/Alerts', ['<init>(Ldemo/Stock;)V'])).toBe('lambda in Alerts(Stock)');
    expect(java('lambda$static$0()V', 'demo/Alerts')).toBe('lambda in static initializer');
  });

  it('names anonymous classes by their number', () => {
    expect(java('<init>()V', 'demo/Outer$1')).toBe('anonymous #1()');
    expect(java('take(Ldemo/Outer$2;)V')).toBe('take(Outer.anonymous #2)');
  });

  it('takes the reader-language words it is given', () => {
    const words: JvmNameWords = {
      staticInitializer: '静态初始化块',
      lambdaIn: (m) => `${m} 中的 lambda`,
      anonymous: (n) => `匿名类 #${n}`,
    };
    expect(jvmMethodDisplayName('<clinit>()V', { className: 'a/B', words })).toBe('静态初始化块');
    expect(jvmMethodDisplayName('lambda$run$0()V', { className: 'a/B', words })).toBe('run 中的 lambda');
  });

  it('answers null for what is no JVM method, so the caller shows it as it is', () => {
    for (const name of [
      'render',
      'main.go:12',
      'foo()',
      'bar(x, y)',
      'f(I',
      'f(I)',
      'f(Q)V',
      'f(Lx)V',
      'f(I)VV',
      '(I)V',
      'f(V)V',
    ]) {
      expect(jvmMethodDisplayName(name, { className: 'a/B' }), name).toBeNull();
    }
  });
});

describe('jvmMethodDisplayName (Kotlin)', () => {
  it('writes Kotlin type names, Unit dropped, arrays as Kotlin names them', () => {
    expect(kotlin('summary(I)Ljava/lang/String;')).toBe('summary(Int): String');
    expect(kotlin('put(Ljava/lang/Object;Z)V')).toBe('put(Any, Boolean)');
    expect(kotlin('ids([I[Ljava/lang/String;)[J')).toBe('ids(IntArray, Array<String>): LongArray');
    expect(kotlin('<init>(J)V')).toBe('Stock(Long)');
  });

  it('names Kotlin lambdas by their enclosing function', () => {
    expect(kotlin('build$lambda$0(I)I', 'demo/Stock', ['build(I)V'])).toBe('lambda in build(Int)');
    expect(kotlin('build$lambda-1()V')).toBe('lambda in build');
  });
});

describe('the other helpers', () => {
  it('splits a class into simple name and dotted package', () => {
    expect(jvmClassDisplayName('demo/inventory/Stock$Line')).toEqual({
      simple: 'Stock.Line',
      packageName: 'demo.inventory',
    });
    expect(jvmClassDisplayName('Top')).toEqual({ simple: 'Top', packageName: '' });
  });

  it('knows Java and Kotlin sources by extension only', () => {
    expect(jvmDialectOfPath('src/main/java/demo/A.java')).toBe('java');
    expect(jvmDialectOfPath('src/A.kt')).toBe('kotlin');
    expect(jvmDialectOfPath('build.gradle.kts')).toBe('kotlin');
    expect(jvmDialectOfPath('src/a.ts')).toBeNull();
    expect(jvmDialectOfPath(null)).toBeNull();
  });

  it('parses descriptors strictly', () => {
    expect(parseMethodDescriptor('()V')).toEqual({ params: [], returns: { kind: 'primitive', code: 'V' } });
    expect(parseMethodDescriptor('([V)V')).toBeNull();
    expect(parseMethodDescriptor('(L;)V')).toBeNull();
  });
});
