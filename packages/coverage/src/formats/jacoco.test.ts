import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catchError } from '../../test/fixtures/catch-error.ts';
import { createCoverageParser, parseCoverage } from './parser.ts';

const xml = readFileSync(new URL('../../test/fixtures/jacoco/small.xml', import.meta.url));

describe('JaCoCo XML', () => {
  it('copies the six counters at report, class, method and source-file level', () => {
    const coverage = parseCoverage(xml);
    expect(coverage.format).toBe('jacoco');
    expect(coverage.counters).toEqual({
      instruction: { covered: 8, missed: 6 },
      branch: { covered: 1, missed: 1 },
      line: { covered: 2, missed: 2 },
      complexity: { covered: 2, missed: 2 },
      method: { covered: 2, missed: 1 },
      class: { covered: 1, missed: 1 },
    });
    const [file] = coverage.files;
    expect(file?.path).toBe('com/acme/Calc.java');
    expect(file?.language).toBe('java');
    expect(file?.counters.method).toEqual({ covered: 2, missed: 1 });
    expect(file?.classes.map((c) => c.name)).toEqual(['com/acme/Calc', 'com/acme/Calc$Inner']);
    const max = file?.classes[0]?.methods[1];
    expect(max).toEqual({
      name: 'max',
      signature: '(II)I',
      startLine: 5,
      endLine: null,
      counters: {
        instruction: { covered: 5, missed: 2 },
        branch: { covered: 1, missed: 1 },
        line: { covered: 1, missed: 1 },
        complexity: { covered: 1, missed: 1 },
        method: { covered: 1, missed: 0 },
        class: { covered: 0, missed: 0 },
      },
    });
    expect(file?.classes[0]?.methods[0]?.name).toBe('<init>');
  });

  it('reads line data from <sourcefile><line nr mi ci mb cb>', () => {
    const lines = parseCoverage(xml).files[0]?.lines;
    expect(lines?.[1]).toEqual({
      line: 5,
      hits: 1,
      branchesCovered: 1,
      branchesTotal: 2,
      instructionsCovered: 5,
      instructionsMissed: 0,
    });
    expect(lines?.map((l) => l.hits)).toEqual([1, 1, 0, 0]);
  });

  it('gives the same model whatever the chunking, down to one byte at a time', () => {
    const parser = createCoverageParser('auto');
    for (let i = 0; i < xml.length; i++) parser.write(xml.subarray(i, i + 1));
    expect(parser.end()).toEqual(parseCoverage(xml));
  });

  it('names file, line and column of a bad number', () => {
    const bad =
      '<report name="x">\n<package name="p">\n  <sourcefile name="A.java"><line nr="1" mi="x" ci="0" mb="0" cb="0"/>';
    const error = catchError(() => parseCoverage(`${bad}</sourcefile></package></report>`, { fileName: 'r.xml' }));
    expect(error.code).toBe('bad-number');
    expect(error.file).toBe('r.xml');
    expect(error.line).toBe(3);
    expect(error.column).toBe(29);
    expect(error.message).toContain('r.xml:3:29');
  });

  it('reads JaCoCo’s own spelling and any other valid spelling of a line or counter alike', () => {
    const own =
      '<report name="r"><package name="p"><class name="p/A" sourcefilename="A.java">' +
      '<method name="run" desc="()V" line="4"><counter type="METHOD" missed="0" covered="1"/></method>' +
      '<method name="&lt;init&gt;" desc="()V"><counter type="METHOD" missed="1" covered="0"/></method></class>' +
      '<sourcefile name="A.java"><line nr="3" mi="1" ci="2" mb="1" cb="3"/>' +
      '<counter type="LINE" missed="0" covered="1"/></sourcefile></package>' +
      '<counter type="LINE" missed="0" covered="1"/></report>';
    const other =
      "<report name='r'><package name='p'><class name='p/A' sourcefilename='A.java'>" +
      "<method desc='()V' name='run' line='04' ><counter type='METHOD' missed='0' covered='1'/></method>" +
      '<method name="&lt;init&gt;" desc="()V" ><counter type="METHOD" missed="1" covered="0"/></method></class>' +
      "<sourcefile name='A.java'><line cb='3' nr='3' ci='2' mb='1' mi='1' />" +
      "<counter covered='1' type='LINE'  missed='0'/></sourcefile></package>" +
      '<counter type="LINE" missed="0" covered="1" ></counter></report>';
    expect(parseCoverage(other)).toEqual(parseCoverage(own));
    expect(parseCoverage(own).files[0]?.classes[0]?.methods.map((m) => [m.name, m.signature, m.startLine])).toEqual([
      ['run', '()V', 4],
      ['<init>', '()V', null],
    ]);
    expect(parseCoverage(own).files[0]?.lines).toEqual([
      { line: 3, hits: 1, branchesCovered: 3, branchesTotal: 4, instructionsCovered: 2, instructionsMissed: 1 },
    ]);
  });

  it('refuses a repeated line or an unknown counter in JaCoCo’s own spelling too, at its position', () => {
    const head = '<report name="r"><package name="p"><sourcefile name="A.java">\n';
    const repeated = `${head}<line nr="3" mi="0" ci="1" mb="0" cb="0"/><line nr="3" mi="0" ci="1" mb="0" cb="0"/>`;
    const error = catchError(() => parseCoverage(`${repeated}</sourcefile></package></report>`));
    expect([error.code, error.line, error.column]).toEqual(['bad-record', 2, 43]);
    const unknown = `${head}<counter type="LINES" missed="0" covered="1"/></sourcefile></package></report>`;
    expect(catchError(() => parseCoverage(unknown)).code).toBe('bad-attribute');
  });
});
