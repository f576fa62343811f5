import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catchError } from '../test/fixtures/catch-error.ts';
import { detectFormat } from './detect.ts';
import { parseCoverage } from './formats/parser.ts';

const fixture = (path: string) => readFileSync(new URL(`../test/fixtures/${path}`, import.meta.url));

describe('detectFormat', () => {
  it.each([
    [fixture('jacoco/small.xml'), 'jacoco'],
    [fixture('cobertura/coveragepy.xml'), 'cobertura'],
    [fixture('clover/small.xml'), 'clover'],
    ['TN:\nSF:a.c\nDA:1,1\nend_of_record\n', 'lcov'],
    ['SF:a.c\nDA:1,1\nend_of_record\n', 'lcov'],
    ['mode: atomic\na.go:1.1,2.2 1 1\n', 'go'],
    ['{"a.js":{"path":"a.js","statementMap":{},"s":{}}}', 'istanbul'],
    ['{"meta":{"format":3,"version":"7"},"files":{}}', 'coveragepy'],
    ['\uFEFF  <?xml version="1.0"?><coverage line-rate="1"></coverage>', 'cobertura'],
  ] as const)('recognises content %#', (input, format) => {
    expect(detectFormat(input)).toBe(format);
  });

  it('ignores the file name: an LCOV body named report.xml is LCOV', () => {
    expect(parseCoverage('SF:a.c\nDA:1,1\nend_of_record\n', { fileName: 'report.xml' }).format).toBe('lcov');
  });

  it('refuses unknown content, empty input and gzip bytes it cannot read here', () => {
    expect(catchError(() => detectFormat('hello world')).code).toBe('unknown-format');
    expect(catchError(() => parseCoverage('')).code).toBe('empty-input');
    expect(catchError(() => parseCoverage('  \n\t\n')).code).toBe('empty-input');
    expect(catchError(() => parseCoverage(new Uint8Array([0x1f, 0x8b, 8, 0]))).code).toBe('unknown-format');
  });

  it('refuses a forced format that the content contradicts', () => {
    const error = catchError(() => parseCoverage(fixture('jacoco/small.xml'), { format: 'lcov', fileName: 'j.xml' }));
    expect([error.code, error.file]).toEqual(['format-mismatch', 'j.xml']);
    expect(catchError(() => parseCoverage('SF:a\nend_of_record\n', { format: 'jacoco' })).code).toBe('format-mismatch');
  });

  it('refuses bytes that are not UTF-8', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('SF:a.c\nDA:1,1\nSF:'), 0xff, 0xfe, 0x0a]);
    expect(catchError(() => parseCoverage(bytes)).code).toBe('not-utf8');
  });

  it('refuses deeply nested JSON without overflowing the stack', () => {
    const deep = `{"a.js":{"statementMap":{},"s":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    expect(catchError(() => parseCoverage(deep, { format: 'istanbul' })).code).toBe('too-deep');
  });

  it('refuses truncated JSON', () => {
    expect(catchError(() => parseCoverage('{"meta":{"format":3},"files":{"a.py":{"executed_lines":[1,')).code).toBe(
      'unexpected-eof',
    );
  });
});
