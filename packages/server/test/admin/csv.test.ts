import { describe, expect, it } from 'vitest';
import { CsvError, parseCsv } from '../../src/modules/cases/csv.ts';

describe('parseCsv (RFC 4180)', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF, a BOM, and skips blank lines', () => {
    const text = '\uFEFFkey,title\r\nC-1,"Pay, then refund"\r\n\r\nC-2,"He said ""hi"""\nC-3,"two\nlines"\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, cells: ['key', 'title'] },
      { line: 2, cells: ['C-1', 'Pay, then refund'] },
      { line: 4, cells: ['C-2', 'He said "hi"'] },
      { line: 5, cells: ['C-3', 'two\nlines'] },
    ]);
  });

  it('keeps empty cells and reports malformed quoting with its line', () => {
    expect(parseCsv('a,,c\n,,\n')).toEqual([
      { line: 1, cells: ['a', '', 'c'] },
      { line: 2, cells: ['', '', ''] },
    ]);
    expect(() => parseCsv('k,t\nC-1,"open')).toThrow(new CsvError(2, 'Line 2: a quoted field is not closed.'));
    expect(() => parseCsv('k,t\nC-1,"x"y')).toThrow('Line 2: unexpected text after a closing quote.');
    expect(() => parseCsv('k,t\nC-1,x"y"')).toThrow('Line 2: a quote inside an unquoted field.');
  });
});
