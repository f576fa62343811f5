import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.ts';

describe('toCsv', () => {
  it('quotes commas, quotes and line breaks, leaves null empty', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          [null, 3],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n,3\r\n');
  });
  it('keeps a formula-looking text as text, but not a negative number', () => {
    expect(toCsv(['a'], [['=SUM(A1)'], [-2]])).toBe("a\r\n'=SUM(A1)\r\n-2\r\n");
  });
});
