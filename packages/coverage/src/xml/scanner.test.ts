import { describe, expect, it } from 'vitest';
import type { CoverageError } from '../errors.ts';
import { XmlScanner } from './scanner.ts';

const encode = (text: string) => new TextEncoder().encode(text);

function scan(bytes: Uint8Array, chunk: number): { texts: string[]; names: string[]; error?: CoverageError } {
  const texts: string[] = [];
  const names: string[] = [];
  const scanner = new XmlScanner(
    { open: (name) => names.push(name), close: () => undefined, text: (text) => texts.push(text) },
    'cobertura',
    true,
  );
  try {
    for (let at = 0; at < bytes.length; at += chunk) scanner.write(bytes.slice(at, at + chunk));
    scanner.end();
  } catch (error) {
    return { texts, names, error: error as CoverageError };
  }
  return { texts, names };
}

describe('XmlScanner', () => {
  it('hands over text with entities expanded and multi-byte characters intact, split anywhere', () => {
    const bytes = encode('<coverage><sources><source>/home/jü/日本 &amp; &#x1F600;</source></sources></coverage>');
    for (const chunk of [1, 2, 3, 5, bytes.length]) {
      expect(scan(bytes, chunk)).toEqual({ texts: ['/home/jü/日本 & 😀'], names: ['coverage', 'sources', 'source'] });
    }
  });

  it('reports the same line and column whatever the chunking', () => {
    const bytes = encode('<coverage>\n  <packages>\n    <package name="a" name="b"/>\n</coverage>');
    const positions = [1, 4, 7, 64].map((chunk) => {
      const { error } = scan(bytes, chunk);
      return [error?.code, error?.line, error?.column];
    });
    expect(new Set(positions.map(String)).size).toBe(1);
    expect(positions[0]).toEqual(['bad-attribute', 3, 23]);
  });

  it('refuses a single construct larger than 16 MiB', () => {
    const bytes = encode(`<coverage><source a="${'x'.repeat(17 * 1024 * 1024)}"/></coverage>`);
    expect(scan(bytes, 1 << 20).error?.code).toBe('too-large');
  });

  it('refuses "<" in an attribute value and undeclared entities in text', () => {
    expect(scan(encode('<coverage a="1<2"/>'), 3).error?.code).toBe('bad-attribute');
    expect(scan(encode('<coverage><source>&ext;</source></coverage>'), 3).error?.code).toBe('malformed-xml');
  });
});
