/**
 * Helpers for the parsers' shortcuts (`XmlHandler.fastOpen`): fixed byte sequences and plain
 * digits, read where a report's tool always writes them the same way.
 */

export const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** The offset after `bytes` when b holds them at `at`, else -1 (also when b ends first). */
export function expect(b: Uint8Array, at: number, bytes: Uint8Array): number {
  if (at + bytes.length > b.length) return -1;
  for (let k = 0; k < bytes.length; k++) if (b[at + k] !== bytes[k]) return -1;
  return at + bytes.length;
}

/** The offset of the first byte from `from` on that is not XML whitespace (b's length if none). */
export function skipSpace(b: Uint8Array, from: number): number {
  let i = from;
  for (const length = b.length; i < length; i++) {
    const c = b[i] as number;
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
  }
  return i;
}

/** Where the last `digits` call stopped. */
export let digitsEnd = 0;

/** 1 to 15 ASCII digits at `at` as a number (the general path's limit), else -1. */
export function digits(b: Uint8Array, at: number): number {
  let value = 0;
  let i = at;
  const stop = Math.min(b.length, at + 16);
  for (; i < stop; i++) {
    const d = (b[i] as number) - 48;
    if (d < 0 || d > 9) break;
    value = value * 10 + d;
  }
  digitsEnd = i;
  return i === at || i - at > 15 ? -1 : value;
}

/**
 * How many newline bytes b[0, end) holds, four bytes at a time (one call per chunk instead of
 * one `indexOf` per line).
 */
export function countNewlines(b: Uint8Array, end: number): number {
  let count = 0;
  let i = 0;
  const aligned = Math.min(end, (4 - (b.byteOffset & 3)) & 3);
  for (; i < aligned; i++) if (b[i] === 10) count++;
  const words = (end - i) >> 2;
  if (words > 0) {
    const view = new Int32Array(b.buffer, b.byteOffset + i, words);
    for (let k = 0; k < words; k++) {
      // A byte of x is zero where the word holds a newline; y gets its top bit set there, only there.
      const x = (view[k] as number) ^ 0x0a0a0a0a;
      const y = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);
      if (y !== 0) count += Math.imul(y >>> 7, 0x01010101) >>> 24;
    }
    i += words * 4;
  }
  for (; i < end; i++) if (b[i] === 10) count++;
  return count;
}
