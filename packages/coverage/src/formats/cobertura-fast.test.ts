import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { branchCounter, lineCounter } from '../figures/counters.ts';
import type { Coverage } from '../model/coverage.ts';
import { loadCompiledLineReader } from '../node/compiled.ts';
import { ByteStrings } from '../xml/byte-strings.ts';
import { countNewlines } from '../xml/fast-bytes.ts';
import { coberturaParser } from './cobertura.ts';
import { readLineRun } from './cobertura-lines.ts';
import { preferCompiledLineReader } from './cobertura-lines-wasm.ts';
import { methodFields, readMethod } from './cobertura-methods.ts';
import { parseCoverage } from './parser.ts';

// The Cobertura <line> shortcut (cobertura-lines.ts) against the general attribute path: the same
// document, once in the spellings the shortcut reads and once respelled so that only the general
// path can read it, must give the same model — or the same error at the same place. Each suite
// runs twice: runs of lines read by readLineRun alone, and by the compiled reader where it can.

loadCompiledLineReader();
const READERS = [
  ['JavaScript', false],
  ['WebAssembly', true],
] as const;

/** The suite's parsers read runs of lines with the compiled reader or without it. */
function withReader(compiled: boolean): void {
  beforeAll(() => preferCompiledLineReader(compiled));
  afterAll(() => preferCompiledLineReader(true));
}

const encode = (text: string) => new TextEncoder().encode(text);

type Line = { number: string; hits: string; branch?: 'false' | 'true'; conditions?: string };

/** A line as c8, coverage.py and gcovr write it: the shortcut's spelling. */
function usual({ number, hits, branch, conditions }: Line): string {
  const tail =
    branch === undefined
      ? ''
      : ` branch="${branch}"${conditions === undefined ? '' : ` condition-coverage="${conditions}"`}`;
  return `<line number="${number}" hits="${hits}"${tail}/>`;
}

/** The same attributes in another order, quoting and spacing, which the shortcut leaves alone. */
function respelled({ number, hits, branch, conditions }: Line): string {
  const attributes = [`hits='${hits}'`, `number = "${number}"`];
  if (branch !== undefined) attributes.push(`branch="${branch}"`);
  if (conditions !== undefined) attributes.push(`condition-coverage="${conditions}"`);
  return `<line ${attributes.reverse().join('  ')} />`;
}

/** The usual spelling with single quotes: the general path's, with every byte where it was. */
const requoted = (l: Line) => usual(l).replaceAll('"', "'");

type Class = { name: string; file: string; methods: { name: string; lines: Line[] }[]; lines: Line[] };

/** One element a text line, so that an error's line and column are the same in both spellings. */
function report(classes: Class[], spell: (line: Line) => string): string {
  const body = classes.map(({ name, file, methods, lines }) =>
    [
      `<class name="${name}" filename="${file}" line-rate="1" branch-rate="1">`,
      '<methods>',
      ...methods.flatMap((m) => [
        `<method name="${m.name}" hits="1" signature="()V">`,
        '<lines>',
        ...m.lines.map(spell),
        '</lines>',
        '</method>',
      ]),
      '</methods>',
      '<lines>',
      ...lines.map(spell),
      '</lines>',
      '</class>',
    ].join('\n            '),
  );
  return [
    '<?xml version="1.0" ?>',
    '<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">',
    '<coverage lines-valid="1" version="0.1">',
    '<sources>',
    '<source>/repo</source>',
    '</sources>',
    '<packages>',
    '<package name="p">',
    '<classes>',
    ...body,
    '</classes>',
    '</package>',
    '</packages>',
    '</coverage>',
    '',
  ].join('\n  ');
}

type Outcome = Coverage | { error: string; line: number | null | undefined; column: number | null | undefined };

function outcome(run: () => Coverage): Outcome {
  try {
    return run();
  } catch (error) {
    const { code, line, column } = error as { code: string; line?: number | null; column?: number | null };
    return { error: code, line, column };
  }
}

/** Straight to the Cobertura parser: createCoverageParser would hold a small report whole to detect its format. */
function inChunks(bytes: Uint8Array, cuts: number[]): Outcome {
  return outcome(() => {
    const parser = coberturaParser();
    let start = 0;
    for (const cut of [...cuts, bytes.length]) {
      // A fresh copy each time: the parser must not depend on the caller keeping its chunk.
      parser.write(bytes.slice(start, cut));
      start = cut;
    }
    return parser.end();
  });
}

const line = (number: number, hits: number, conditions?: string): Line =>
  conditions === undefined
    ? { number: String(number), hits: String(hits), branch: 'false' }
    : { number: String(number), hits: String(hits), branch: 'true', conditions };

const classes: Class[] = [
  {
    name: 'a.js',
    file: 'src/a.js',
    methods: [
      { name: 'f', lines: [line(2, 3), { number: '3', hits: '0' }] },
      { name: 'g', lines: [line(7, 0, '0% (0/2)')] },
    ],
    lines: [line(1, 1), line(2, 3, '50% (1/2)'), { number: '3', hits: '0' }, line(7, 0, '0% (0/2)'), line(9, 12)],
  },
  // A second class of the same file: its lines merge (highest hits, most conditions), out of order.
  {
    name: 'a.js/Inner',
    file: 'src/a.js',
    methods: [{ name: 'h', lines: [line(4, 1)] }],
    lines: [line(4, 1), line(2, 1, '100% (2/2)'), line(9, 5, '66.66666666666666% (2/3)'), line(1, 0)],
  },
  { name: 'b.js', file: 'src/b.js', methods: [], lines: [line(10, 0, '33.33333333333333% (1/3)'), line(11, 2)] },
];

describe.each(READERS)('Cobertura <line> shortcut, runs read by %s', (_, compiled) => {
  withReader(compiled);
  const fast = encode(report(classes, usual));
  const general = encode(report(classes, respelled));

  it('reads every usual line itself and leaves every respelled one to the general path', () => {
    /** The number of lines in each run that readLineRun takes, scanning from every "<" it does not take. */
    const runs = (bytes: Uint8Array) => {
      const found: number[] = [];
      for (let at = bytes.indexOf(60); at !== -1; at = bytes.indexOf(60, at + 1)) {
        let read = 0;
        const end = readLineRun(bytes, at, () => read++);
        if (end !== -1) {
          found.push(read);
          at = end - 1;
        }
      }
      return found;
    };
    const allLines = classes.reduce(
      (n, c) => n + c.lines.length + c.methods.reduce((m, f) => m + f.lines.length, 0),
      0,
    );
    // One run per <lines> element, each taking all of its lines.
    expect(runs(fast)).toEqual([2, 1, 5, 1, 4, 2]);
    expect(runs(fast).reduce((a, b) => a + b)).toBe(allLines);
    expect(runs(general)).toEqual([]);
  });

  it('gives the model the general path gives: branch lines, classes sharing a file, methods', () => {
    const expected = parseCoverage(general);
    expect(parseCoverage(fast)).toEqual(expected);
    const a = expected.files.find((f) => f.path === 'src/a.js');
    expect(a?.lines.map((l) => [l.line, l.hits, l.branchesCovered, l.branchesTotal])).toEqual([
      [1, 1, 0, 0],
      [2, 3, 2, 2],
      [3, 0, 0, 0],
      [4, 1, 0, 0],
      [7, 0, 0, 2],
      [9, 12, 2, 3],
    ]);
    expect(a?.classes.map((c) => c.methods.map((m) => [m.name, m.startLine, m.endLine]))).toEqual([
      [
        ['f', 2, 3],
        ['g', 7, 7],
      ],
      [['h', 4, 4]],
    ]);
  });

  it('gives the same model split at any one offset, and at any two nearby', () => {
    const expected = parseCoverage(general);
    for (let cut = 0; cut <= fast.length; cut++) expect(inChunks(fast, [cut])).toEqual(expected);
    // Two cuts try the scanner's carrying of unfinished elements, which both readers share: once is enough.
    if (compiled) return;
    for (let cut = 0; cut + 40 <= fast.length; cut += 17)
      for (let second = cut + 1; second < cut + 40; second++) expect(inChunks(fast, [cut, second])).toEqual(expected);
    // about 2,500 parses on the JavaScript path (a prime step, so the pairs fall at every offset of an element)
  }, 240_000);

  it.each<[string, Line]>([
    ['line number 0', line(0, 1)],
    ['a line number past 2^31-1', line(2 ** 31, 1)],
    ['16-digit hits', { number: '5', hits: '1234567890123456', branch: 'false' }],
    ['hits written as a float', { number: '5', hits: '2.0', branch: 'false' }],
    ['negative hits', { number: '5', hits: '-1', branch: 'false' }],
    ['more covered conditions than conditions', line(5, 1, '100% (3/2)')],
    ['10-digit condition counts', line(5, 1, '50% (0000000001/2)')],
    ['condition coverage without counts', line(5, 1, '50%')],
    ['condition coverage with text around the counts', line(5, 1, 'about 50% (1/2) of them')],
    ['empty condition coverage', line(5, 1, '')],
    ['branch="true" without condition coverage', { number: '5', hits: '1', branch: 'true' }],
    ['branch="false" with condition coverage', { number: '5', hits: '1', branch: 'false', conditions: '50% (1/2)' }],
    ['an entity in a value', { number: '5', hits: '1&#48;', branch: 'false' }],
    ['a "<" in a value', line(5, 1, '50% (1<2)')],
  ])('%s: the same outcome on either path, in a class and in a method, whole or split', (_, odd) => {
    const withOdd: Class[] = [
      {
        name: 'c',
        file: 'c.js',
        methods: [{ name: 'm', lines: [line(1, 1), odd, line(8, 1)] }],
        lines: [line(1, 1, '50% (1/2)'), odd, line(8, 0)],
      },
    ];
    const fastBytes = encode(report(withOdd, usual));
    const expected = outcome(() => parseCoverage(report(withOdd, requoted)));
    if (!('error' in expected)) expect(parseCoverage(report(withOdd, respelled))).toEqual(expected);
    expect(outcome(() => parseCoverage(fastBytes))).toEqual(expected);
    // Every cut in and around the odd line, in the method and in the class (cuts elsewhere are the
    // sweep's above).
    const text = Buffer.from(fastBytes);
    for (let at = text.indexOf('number="5"'); at !== -1; at = text.indexOf('number="5"', at + 1)) {
      for (let cut = Math.max(0, at - 80); cut <= Math.min(fastBytes.length, at + 160); cut++) {
        expect(inChunks(fastBytes, [cut])).toEqual(expected);
      }
    }
  });

  it('takes a usual line only when every byte of its spelling is right, with room after it or not', () => {
    const spellings = [usual(line(5, 12)), usual({ number: '5', hits: '12' })];
    // Room: read four bytes at a time; none: byte by byte, near a buffer's end.
    for (const after of [' '.repeat(100), '']) {
      for (const spelling of spellings) {
        expect(readLineRun(encode(spelling + after), 0, () => undefined)).toBe(spelling.length);
        for (let at = 0; at < spelling.length; at++) {
          if (/\d/.test(spelling.charAt(at))) continue;
          const broken = `${spelling.slice(0, at)}X${spelling.slice(at + 1)}`;
          expect(
            readLineRun(encode(broken + after), 0, () => undefined),
            broken,
          ).toBe(-1);
        }
      }
    }
  });

  it('keeps the text between lines that stand inside a <source>', () => {
    const xml = (spell: (l: Line) => string) =>
      `<coverage><sources><source> /a <class name="x" filename="x.js"><lines>${spell(line(1, 1))} b ${spell(line(2, 0))}</lines></class>c </source></sources></coverage>`;
    const coverage = parseCoverage(xml(usual));
    expect(coverage).toEqual(parseCoverage(xml(respelled)));
    expect(coverage.sourceRoots).toEqual(['/a  b c']);
  });

  it('reads a usual <method> block whole, with its lines, and leaves others to the general path', () => {
    const names = new ByteStrings();
    const block = (head: string, lines: string) => encode(`${head}\n  <lines>\n    ${lines}\n  </lines>\n</method> `);
    const usualBlock = block(
      '<method name="f" hits="3" signature="()V">',
      `${usual(line(4, 0))}\n${usual(line(2, 5, '50% (1/2)'))}`,
    );
    expect(readMethod(usualBlock, 0, names)).toBe(usualBlock.length - 1);
    expect({ ...methodFields }).toEqual({ name: 'f', signature: '()V', startLine: 2, endLine: 4, hit: true });
    const empty = block('<method name="g" hits="0" signature="">', '');
    expect(readMethod(empty, 0, names)).toBe(empty.length - 1);
    expect({ ...methodFields }).toEqual({ name: 'g', signature: '', startLine: null, endLine: null, hit: false });
    for (const other of [
      block('<method name=\'f\' hits="3" signature="()V">', ''),
      block('<method name="&lt;init&gt;" hits="3" signature="()V">', ''),
      block('<method name="f" signature="()V" hits="3">', ''),
      block('<method name="f" hits="3" signature="()V">', respelled(line(4, 0))),
      block('<method name="f" hits="3" signature="()V">', `${usual(line(4, 0))}<!-- c -->`),
      usualBlock.subarray(0, usualBlock.length - 3),
    ])
      expect(readMethod(other, 0, names)).toBe(-1);
  });

  it('leaves a <method> nested in another as the general path does (the inner one ends the outer)', () => {
    const xml = (inner: string) =>
      `<coverage><packages><package name="p"><classes><class name="c" filename="c.js"><methods>` +
      `<method name='outer' hits='1' signature=''><lines>${usual(line(1, 1))}</lines>` +
      `${inner}<lines>${usual(line(3, 1))}</lines></method>` +
      `<lines>${usual(line(9, 0))}</lines></method></methods><lines/></class></classes></package></packages></coverage>`;
    const fast = parseCoverage(xml('<method name="inner" hits="1" signature="">'));
    expect(fast).toEqual(parseCoverage(xml("<method name='inner' hits='1' signature=''>")));
    expect(fast.files[0]?.lines.map((l) => l.line)).toEqual([9]);
  });

  it('treats a <method> at the depth limit as the general path does', () => {
    const nested = (depth: number, method: string) =>
      `<coverage><packages><package name="p"><classes><class name="c" filename="c.js">${'<x>'.repeat(depth)}` +
      `<methods>${method}<lines><line number="1" hits="1"/></lines></method></methods>${'</x>'.repeat(depth)}</class></classes></package></packages></coverage>`;
    const outcomes: string[] = [];
    for (let depth = 245; depth <= 252; depth++) {
      const fastOutcome = outcome(() => parseCoverage(nested(depth, '<method name="f" hits="1" signature="">')));
      expect(fastOutcome).toEqual(
        outcome(() => parseCoverage(nested(depth, "<method name='f' hits='1' signature=''>"))),
      );
      outcomes.push('error' in fastOutcome ? fastOutcome.error : 'model');
    }
    expect(new Set(outcomes)).toEqual(new Set(['model', 'too-deep']));
  });

  it('reads a line whose element is not self-closed on the general path alike', () => {
    const open = (l: Line) => usual(l).replace('/>', '></line>');
    expect(parseCoverage(report(classes, open))).toEqual(parseCoverage(general));
  });
});

/** Cobertura as c8 writes it (branch lines too), classes sharing a file, methods, any whitespace. */
const space = fc.constantFrom('', ' ', '\n', '\r\n  ', '\n\n\t', '\n\n\n\n');
const generatedLine = fc
  .tuple(
    fc.integer({ min: 1, max: 40 }),
    fc.nat({ max: 99 }),
    fc.option(fc.tuple(fc.nat({ max: 4 }), fc.nat({ max: 4 }))),
  )
  .map(([number, hits, conditions]) => {
    if (!conditions) return usual(line(number, hits));
    const [covered, more] = conditions;
    const total = covered + more;
    return usual(line(number, hits, `${total ? (covered / total) * 100 : 0}% (${covered}/${total})`));
  });
const linesXml = (lines: [string, string][]) => lines.map(([xml, gap]) => xml + gap).join('');
const generatedReport = fc
  .array(
    fc.record({
      file: fc.constantFrom('a.js', 'b/c.ts', 'dé/日.js'),
      lines: fc.array(fc.tuple(generatedLine, space), { maxLength: 8 }),
      methods: fc.array(
        fc.record({
          name: fc.constantFrom('f', '&lt;init&gt;', 'çà日', 'a>b', "it's"),
          signature: fc.constantFrom('()V', '', '(&amp;)'),
          gaps: fc.tuple(space, space, space),
          lines: fc.array(fc.tuple(generatedLine, space), { maxLength: 3 }),
        }),
        { maxLength: 3 },
      ),
    }),
    { minLength: 1, maxLength: 4 },
  )
  .map((classes) => {
    const body = classes.map(({ file, lines, methods: list }, i) => {
      const methods = list
        .map(
          ({ name, signature, gaps: [a, b, c], lines }) =>
            `<method name="${name}" hits="1" signature="${signature}">${a}<lines>${b}${linesXml(lines)}</lines>${c}</method>`,
        )
        .join('');
      return `<class name="C${i}" filename="${file}"><methods>${methods}</methods>\n<lines>\n${linesXml(lines)}</lines></class>`;
    });
    return encode(
      '<?xml version="1.0" ?>\n<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">\n' +
        `<coverage version="0.1"><sources><source>/r</source></sources><packages><package name="p"><classes>\n${body.join('\n')}\n` +
        '</classes></package></packages></coverage>\n',
    );
  });
const cuts = fc.array(fc.nat(), { maxLength: 40 });
const chunkCuts = (bytes: Uint8Array, at: number[]) =>
  [...new Set(at.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);

function newlinesIn(bytes: Uint8Array): number {
  let count = 0;
  for (const byte of bytes) if (byte === 10) count++;
  return count;
}

describe.each(READERS)('Cobertura <line> shortcut (property), runs read by %s', (_, compiled) => {
  withReader(compiled);
  it("any chunking gives the whole-buffer model, which is the general path's", () => {
    fc.assert(
      fc.property(generatedReport, cuts, (bytes, at) => {
        const expected = outcome(() => parseCoverage(bytes));
        expect(expected).not.toHaveProperty('error');
        expect(inChunks(bytes, chunkCuts(bytes, at))).toEqual(expected);
        for (const file of (expected as Coverage).files) {
          expect(file.counters.line).toEqual(lineCounter(file.lines));
          expect(file.counters.branch).toEqual(branchCounter(file.lines));
        }
        const respelledBytes = encode(
          new TextDecoder()
            .decode(bytes)
            .replaceAll('<line number=', '<line  number=')
            .replaceAll('<method name=', '<method  name='),
        );
        expect(parseCoverage(respelledBytes)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('an error has the line and column of its element in the text, whatever the chunking', () => {
    fc.assert(
      fc.property(generatedReport, fc.nat(), cuts, (bytes, pick, at) => {
        // Line 0 before one <line>: the shortcut passes it on, the general path refuses it.
        const text = new TextDecoder().decode(bytes);
        const starts = [...text.matchAll(/<line number="/g)].map((m) => m.index);
        fc.pre(starts.length > 0);
        const start = starts[pick % starts.length] as number;
        const broken = encode(`${text.slice(0, start)}<line number="0" hits="1"/>${text.slice(start)}`);
        const before = encode(text.slice(0, start));
        const expected = {
          error: 'bad-number',
          line: newlinesIn(before) + 1,
          column: before.length - before.lastIndexOf(10),
        };
        expect(outcome(() => parseCoverage(broken))).toEqual(expected);
        expect(inChunks(broken, chunkCuts(broken, at))).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe("countNewlines (the scanner's line count at each chunk end)", () => {
  it('counts what a byte-by-byte count finds, at any alignment and up to any end', () => {
    const bytes = fc.array(fc.constantFrom(10, 10, 32, 0, 0x8a, 0x0b, 0x09, 0xff, 0x7f), { maxLength: 40 });
    fc.assert(
      fc.property(bytes, fc.nat({ max: 7 }), fc.nat(), (values, offset, cut) => {
        const buffer = new Uint8Array(values.length + offset).subarray(offset);
        buffer.set(values);
        const end = cut % (buffer.length + 1);
        expect(countNewlines(buffer, end)).toBe(newlinesIn(buffer.subarray(0, end)));
      }),
      { numRuns: 2000 },
    );
  });
});
