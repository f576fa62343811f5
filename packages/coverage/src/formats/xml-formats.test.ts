import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catchError } from '../../test/fixtures/catch-error.ts';
import { parseCoverage } from './parser.ts';

const fixture = (path: string) => readFileSync(new URL(`../../test/fixtures/${path}`, import.meta.url));

describe('Cobertura XML', () => {
  it('reads lines, condition-coverage branches and the <sources> roots', () => {
    const coverage = parseCoverage(fixture('cobertura/coveragepy.xml'));
    expect(coverage.format).toBe('cobertura');
    expect(coverage.sourceRoots).toEqual(['/home/ci/work/repo/src']);
    expect(coverage.counters).toEqual({
      instruction: null,
      branch: { covered: 1, missed: 1 },
      line: { covered: 3, missed: 2 },
      complexity: null,
      method: null,
      class: null,
    });
    expect(coverage.files[0]?.path).toBe('pkg/mod.py');
    expect(coverage.files[0]?.lines[1]).toMatchObject({ line: 2, hits: 1, branchesCovered: 1, branchesTotal: 2 });
  });

  it('counts a line listed by two classes of one file once, and reads <method> ranges', () => {
    const xml = `<coverage><packages><package name="p"><classes>
      <class name="A" filename="src\\A.cs"><methods><method name="Run" signature="()"><lines><line number="3" hits="2"/><line number="4" hits="0"/></lines></method></methods>
        <lines><line number="3" hits="2"/><line number="4" hits="0"/></lines></class>
      <class name="A/Inner" filename="src\\A.cs"><methods/><lines><line number="4" hits="1"/></lines></class>
    </classes></package></packages></coverage>`;
    const coverage = parseCoverage(xml);
    const file = coverage.files[0];
    expect(file?.path).toBe('src/A.cs');
    expect(file?.lines.map((l) => [l.line, l.hits])).toEqual([
      [3, 2],
      [4, 1],
    ]);
    expect(file?.classes[0]?.methods[0]).toMatchObject({ name: 'Run', signature: '()', startLine: 3, endLine: 4 });
    expect(coverage.counters.method).toEqual({ covered: 1, missed: 0 });
  });

  it('reads the usual spelling of a line (read from the bytes) and any other spelling alike', () => {
    const doc = (lines: string) =>
      `<coverage><packages><package name="p"><classes><class name="A" filename="a.js"><methods>` +
      `<method name="f" signature=""><lines><line number="2" hits="0"/></lines></method></methods>` +
      `<lines>${lines}</lines></class></classes></package></packages></coverage>`;
    const usual = doc(
      '<line number="2" hits="3"/><line number="3" hits="0" branch="false"/>' +
        '<line number="4" hits="1" branch="true" condition-coverage="50% (1/2)"/>',
    );
    const other = doc(
      '<line hits=\'3\' number=\'2\' /><line number="3" hits="0.0" branch="false" />' +
        '<line number="4" hits="1" branch="true" condition-coverage="50% (1/2)"/>',
    );
    expect(parseCoverage(other)).toEqual(parseCoverage(usual));
    const [file] = parseCoverage(usual).files;
    expect(file?.lines.map((l) => [l.line, l.hits, l.branchesCovered, l.branchesTotal])).toEqual([
      [2, 3, 0, 0],
      [3, 0, 0, 0],
      [4, 1, 1, 2],
    ]);
    expect(file?.classes[0]?.methods[0]?.counters.method).toEqual({ covered: 0, missed: 1 });
    const bad = catchError(() => parseCoverage(doc('<line number="0" hits="1"/>')));
    expect(bad.code).toBe('bad-number');
  });
});

describe('Clover XML', () => {
  it('reads stmt, cond and method lines', () => {
    const coverage = parseCoverage(fixture('clover/small.xml'));
    expect(coverage.format).toBe('clover');
    expect(coverage.counters).toEqual({
      instruction: { covered: 2, missed: 1 },
      branch: { covered: 1, missed: 1 },
      line: { covered: 2, missed: 1 },
      complexity: null,
      method: { covered: 1, missed: 0 },
      class: null,
    });
    expect(coverage.files[0]?.path).toBe('/repo/src/a.js');
  });

  // Shape of istanbul's clover reporter (c8, nyc): no method lines, every line a statement, a cond
  // line's truecount/falsecount are covered/uncovered branch counts. Its <metrics> are the truth.
  const istanbulClover = (metrics: string) => `<?xml version="1.0" encoding="UTF-8"?>
<coverage generated="1" clover="3.2.0"><project timestamp="1" name="All files">
  <file name="a.js" path="/repo/a.js">${metrics}
    <line num="1" count="1" type="cond" truecount="3" falsecount="1"/>
    <line num="2" count="1" type="stmt"/>
    <line num="3" count="0" type="stmt"/>
  </file></project></coverage>`;

  it('takes statements, conditionals and methods from the file’s own <metrics>', () => {
    const metrics =
      '<metrics statements="3" coveredstatements="2" conditionals="4" coveredconditionals="3" methods="2" coveredmethods="1"/>';
    const coverage = parseCoverage(istanbulClover(metrics));
    expect(coverage.counters).toEqual({
      instruction: { covered: 2, missed: 1 },
      branch: { covered: 3, missed: 1 },
      line: { covered: 2, missed: 1 },
      complexity: null,
      method: { covered: 1, missed: 1 },
      class: null,
    });
  });

  it('falls back to the lines without <metrics>, and refuses metrics covering more than they count', () => {
    expect(parseCoverage(istanbulClover('')).counters.instruction).toEqual({ covered: 1, missed: 1 });
    const error = catchError(() =>
      parseCoverage(istanbulClover('<metrics statements="1" coveredstatements="2" conditionals="0" methods="0"/>')),
    );
    expect(error.code).toBe('bad-number');
  });

  it('joins a line written more than once into one line, wherever the repeats stand', () => {
    const repeats = [
      '<line num="9" count="0" type="stmt"/>',
      '<line num="10" count="1" type="stmt"/>',
      '<line num="9" count="3" type="cond" truecount="1" falsecount="0"/>',
      '<line num="9" count="2" type="cond" truecount="1" falsecount="1"/>',
    ];
    for (const order of [repeats, [...repeats].reverse(), [repeats[1], repeats[0], repeats[3], repeats[2]]]) {
      const xml = `<?xml version="1.0"?><coverage generated="1" clover="3.2.0"><project timestamp="1">
        <file name="a.js" path="a.js">${order.join('')}</file></project></coverage>`;
      const file = parseCoverage(xml).files[0];
      expect(file?.lines.map((l) => [l.line, l.hits, l.branchesCovered, l.branchesTotal])).toEqual([
        [9, 3, 3, 4],
        [10, 1, 0, 0],
      ]);
      expect(file?.counters.line).toEqual({ covered: 2, missed: 0 });
    }
  });
});

describe('hostile XML', () => {
  it('refuses a DOCTYPE entity bomb before expanding anything', () => {
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n<coverage>&lol2;</coverage>`;
    const error = catchError(() => parseCoverage(bomb, { format: 'cobertura' }));
    expect([error.code, error.line, error.column]).toEqual(['doctype-forbidden', 2, 1]);
  });

  it('refuses an external entity pointing at /etc/passwd', () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE report [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><report name="&xxe;"></report>`;
    const error = catchError(() => parseCoverage(xxe));
    expect(error.code).toBe('doctype-forbidden');
    expect(error.message).not.toContain('root:');
  });

  it('refuses an undeclared entity reference in an attribute', () => {
    const error = catchError(() => parseCoverage('<report name="&xxe;"></report>'));
    expect(error.code).toBe('bad-attribute');
  });

  it('refuses truncated XML with unexpected-eof and no partial result', () => {
    const whole = fixture('jacoco/small.xml').toString('utf8');
    for (const cut of [whole.length - 10, Math.floor(whole.length / 2), 200]) {
      const error = catchError(() => parseCoverage(whole.slice(0, cut), { fileName: 'cut.xml' }));
      expect(error.code).toBe('unexpected-eof');
      expect(error.file).toBe('cut.xml');
    }
  });

  it('refuses mismatched tags with their position', () => {
    const error = catchError(() => parseCoverage('<report name="x">\n  <package name="p"></report>'));
    expect([error.code, error.line, error.column]).toEqual(['malformed-xml', 2, 21]);
  });

  it('bounds nesting depth', () => {
    const deep = `<coverage>${'<a>'.repeat(300)}${'</a>'.repeat(300)}</coverage>`;
    expect(catchError(() => parseCoverage(deep)).code).toBe('too-deep');
  });

  it('decodes the five predefined entities and character references', () => {
    const xml =
      '<report name="r"><package name="p"><class name="p/A&amp;&#66;&#x43;" sourcefilename="A.java"/></package></report>';
    expect(parseCoverage(xml).files[0]?.classes[0]?.name).toBe('p/A&BC');
  });
});
