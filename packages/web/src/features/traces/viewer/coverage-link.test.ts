import { describe, expect, it } from 'vitest';
import { appOrigin, coverageHref } from './coverage-link.ts';

describe("the viewer's link from a span's method to its coverage", () => {
  const here = { protocol: 'http:', hostname: 'sextant.example' };

  it('goes back to the app named by the link, only on this host', () => {
    expect(appOrigin('http://sextant.example:8080', here)).toBe('http://sextant.example:8080');
    expect(appOrigin('https://sextant.example', here)).toBe('https://sextant.example');
    expect(appOrigin('https://evil.example:8080', here)).toBe('http://sextant.example');
    expect(appOrigin('javascript:alert(1)', here)).toBe('http://sextant.example');
    expect(appOrigin(null, here)).toBe('http://sextant.example');
  });

  it("opens the report's source view at the method's file and line", () => {
    const origin = 'http://sextant.example:8080';
    expect(coverageHref(origin, { reportId: 'r 1', filePath: 'src/a b.ts', line: 42 })).toBe(
      'http://sextant.example:8080/codecoverage/r%201?file=src%2Fa+b.ts&line=42',
    );
    expect(coverageHref(origin, { reportId: 'r1', filePath: null, line: null })).toBe(
      'http://sextant.example:8080/codecoverage/r1',
    );
  });
});
