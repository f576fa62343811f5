import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingCommands, skipWithout } from '../../../../tools/test-support/machine.ts';
import { extractMethods } from './extract.ts';
import type { SourceMethod } from './types.ts';

interface CompiledMethod {
  class: string;
  name: string;
  descriptor: string;
  lines: number[];
}

/** Reads `javap -p -s -l` output: what javac actually named each method, and its line table. */
function readJavap(text: string): CompiledMethod[] {
  const methods: CompiledMethod[] = [];
  let cls = '';
  let header = '';
  let current: CompiledMethod | null = null;
  for (const line of text.split('\n')) {
    const classMatch = /^(?:[a-z ]*)(?:class|interface) ([\w.$]+)/.exec(line);
    if (classMatch?.[1] && !line.startsWith(' ')) {
      cls = classMatch[1].replaceAll('.', '/');
      continue;
    }
    const descriptor = /^ {4}descriptor: (\(.*)$/.exec(line);
    if (descriptor?.[1]) {
      const simple = cls.slice(cls.lastIndexOf('/') + 1).replaceAll('$', '.');
      let name: string;
      if (header.trim() === 'static {};') name = '<clinit>';
      else {
        const beforeParen = header.slice(0, header.indexOf('(')).trim().split(' ').pop() ?? '';
        name = beforeParen.replaceAll('$', '.').endsWith(simple) ? '<init>' : beforeParen;
      }
      current = { class: cls, name, descriptor: descriptor[1], lines: [] };
      methods.push(current);
      continue;
    }
    const lineEntry = /^ {6}line (\d+): \d+$/.exec(line);
    if (lineEntry?.[1] && current) current.lines.push(Number(lineEntry[1]));
    else if (/^ {2}\S/.test(line)) header = line;
  }
  return methods;
}

interface Fixture {
  file: string;
  release: string;
  source: string;
  compiled: CompiledMethod[];
  extracted: SourceMethod[];
}

const work = mkdtempSync(join(tmpdir(), 'sextant-java-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function compile(file: string, release: string): Promise<Fixture> {
  const source = readFileSync(join(import.meta.dirname, 'testdata', file), 'utf8');
  const dir = join(work, file.replace('.java', ''));
  mkdirSync(dir);
  writeFileSync(join(dir, file), source);
  execFileSync('javac', ['--release', release, '-g', '-d', join(dir, 'out'), join(dir, file)]);
  const classes: string[] = [];
  const collect = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory()) collect(join(d, entry.name));
      else classes.push(join(d, entry.name));
    }
  };
  collect(join(dir, 'out'));
  const compiled = readJavap(execFileSync('javap', ['-p', '-s', '-l', ...classes], { encoding: 'utf8' }));
  return { file, release, source, compiled, extracted: await extractMethods('java', source, file) };
}

// Records (release 17) also check implicit canonical constructors, compact constructors, accessors.
const fixtures: Fixture[] = [];
const noJdk = skipWithout('Java methods against javac', missingCommands('javac', 'javap'));
beforeAll(async () => {
  if (noJdk) return;
  fixtures.push(await compile('Shapes.java', '11'), await compile('Ledger.java', '17'));
});

const RECORDS = new Set(['org/books/Ledger$Entry', 'org/books/Ledger$Pair']);
const GENERATED_BY_RECORDS = new Set(['toString()Ljava/lang/String;', 'hashCode()I', 'equals(Ljava/lang/Object;)Z']);

// Methods JaCoCo filters out or reports under their own synthetic names.
const isSynthetic = (m: CompiledMethod, records: ReadonlySet<string>) =>
  m.name.startsWith('lambda$') ||
  m.name === 'values' ||
  m.name === 'valueOf' ||
  m.name === '$values' ||
  m.lines.length === 0 ||
  (records.has(m.class) && GENERATED_BY_RECORDS.has(`${m.name}${m.descriptor}`));

describe.skipIf(noJdk).each(['Shapes.java', 'Ledger.java'])('Java methods of %s against javac', (file) => {
  const fixture = () => fixtures.find((f) => f.file === file) as Fixture;

  it('names every compiled method with its class, name and descriptor', () => {
    const { compiled, extracted } = fixture();
    const expected = compiled
      .filter((m) => !isSynthetic(m, RECORDS))
      .map((m) => `${m.class}.${m.name}${m.descriptor}`)
      .sort();
    // Constructors of anonymous and local classes capture variables: their descriptor is left null.
    const capturing = expected.filter((k) => /\$\d+\w*\.<init>/.test(k));
    // One JVM method written in several places (an enum's <clinit>) is several entries.
    const signed = [
      ...new Set(extracted.filter((m) => m.signature !== null).map((m) => `${m.class}.${m.name}${m.signature}`)),
    ];
    expect(signed.sort()).toEqual(expected.filter((k) => !capturing.includes(k)));
    for (const k of capturing) {
      expect(extracted.some((m) => `${m.class}.${m.name}` === k.slice(0, k.indexOf('(')))).toBe(true);
    }
    // Unsigned entries (those constructors, field initialisers shared by explicit constructors)
    // still name a compiled method.
    for (const m of extracted.filter((e) => e.signature === null)) {
      expect(
        compiled.some((c) => c.class === m.class && c.name === m.name),
        `${m.class}.${m.name}`,
      ).toBe(true);
    }
  });

  it('puts every line javac compiled for a method, lambdas included, inside its range', () => {
    const { compiled, extracted } = fixture();
    for (const m of compiled.filter((c) => !isSynthetic(c, RECORDS) || c.name.startsWith('lambda$'))) {
      // A lambda's lines belong to the method it is written in (`lambda$describe$0` -> describe).
      const lambdaOf = m.name.startsWith('lambda$') ? (m.name.split('$')[1] ?? '') : null;
      const name = lambdaOf === null ? m.name : ({ new: '<init>', static: '<clinit>' }[lambdaOf] ?? lambdaOf);
      const owners = extracted.filter(
        (e) =>
          e.class === m.class &&
          e.name === name &&
          (e.signature === null || e.signature === m.descriptor || name !== m.name),
      );
      expect(owners.length, `${m.class}.${m.name}${m.descriptor}`).toBeGreaterThan(0);
      // Instance field initialisers compile into every constructor; only explicit constructors are checked.
      if (m.name === '<init>' && owners.every((o) => o.startLine === o.endLine)) continue;
      for (const line of m.lines) {
        const inside = owners.some((o) => o.startLine <= line && line <= o.endLine);
        expect(inside, `${m.class}.${m.name}${m.descriptor} line ${line}`).toBe(true);
      }
    }
  });
});

describe('Java details', () => {
  const shapes = () => (fixtures.find((f) => f.file === 'Shapes.java') as Fixture).extracted;

  it('leaves a descriptor null when an on-demand import makes a type name ambiguous', async () => {
    const methods = await extractMethods(
      'java',
      'package p;\nimport java.util.*;\nclass W {\n  void a(List<String> l) {}\n  void b(String s, int[] n) {}\n}\n',
    );
    expect(methods.find((m) => m.name === 'a')?.signature).toBeNull();
    expect(methods.find((m) => m.name === 'b')?.signature).toBe('(Ljava/lang/String;[I)V');
  });

  it.skipIf(noJdk)('gives explicit ranges for overloads and the static initialiser', () => {
    const byKey = (name: string, signature: string) =>
      shapes().find((m) => m.class === 'com/acme/Shapes' && m.name === name && m.signature === signature);
    expect(byKey('area', '(II)I')).toMatchObject({ startLine: 24, endLine: 26 });
    expect(byKey('area', '(D)D')).toMatchObject({ startLine: 28, endLine: 30 });
    expect(byKey('<clinit>', '()V')).toMatchObject({ startLine: 10, endLine: 12 });
    expect(byKey('describe', '(Ljava/lang/String;[Ljava/lang/Object;)Ljava/lang/String;')).toMatchObject({
      startLine: 32,
      endLine: 35,
    });
  });

  it('lists no method without a name where broken source leaves one out', async () => {
    const broken = [
      'class A {\n  public static int (String s) {\n    return 0;\n  }\n  int b() { return 1; }\n}\n',
      'class A {\n  interface N {= new Runnable() {\n    public void run() {}\n  };\n  int b() { return 1; }\n}\n',
      'record R(int ) {\n  int b() { return 1; }\n}\n',
    ];
    for (const source of broken) {
      const methods = await extractMethods('java', source);
      expect(methods.filter((m) => m.name === '')).toEqual([]);
      expect(methods.map((m) => m.name)).toContain('b');
    }
  });
});
