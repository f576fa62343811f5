import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha1Hex, sha1HexPortable } from './sha1.ts';

const nodeSha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

describe('sha1HexPortable (browsers) and sha1Hex (Node)', () => {
  it('matches the FIPS 180 test vectors', () => {
    for (const hash of [sha1HexPortable, sha1Hex]) {
      expect(hash('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
      expect(hash('')).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    }
  });

  it('equals OpenSSL (node:crypto) on any text, block boundaries and non-ASCII included', () => {
    for (const length of [55, 56, 63, 64, 65, 119, 120, 1000])
      expect(sha1HexPortable('x'.repeat(length))).toBe(nodeSha1('x'.repeat(length)));
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 300 }),
        (text) => sha1HexPortable(text) === nodeSha1(text) && sha1Hex(text) === nodeSha1(text),
      ),
    );
  });
});
