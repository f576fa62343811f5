/** Node's `buffer.isUtf8` (simdutf, gigabytes a second), where the core runs in Node; else null. */
type IsUtf8 = (bytes: Uint8Array) => boolean;
const nodeIsUtf8: IsUtf8 | null = (() => {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const buffer = process?.getBuiltinModule?.('node:buffer') as { isUtf8?: IsUtf8 } | undefined;
  return typeof buffer?.isUtf8 === 'function' ? buffer.isUtf8 : null;
})();

/**
 * Streaming UTF-8 validation for the parsers that scan bytes: the same verdict as a fatal
 * TextDecoder (no overlong forms, no surrogates, nothing above U+10FFFF, no truncated
 * sequence at the end), without making a string. ASCII runs, which is nearly every byte of a
 * coverage report, are checked a word at a time (or by Node's `isUtf8`, ~8x as fast on a first run).
 */
export class Utf8Validator {
  /** `native`: a whole-buffer check for the bytes between a chunk's first and last characters. */
  constructor(private readonly native: IsUtf8 | null = nodeIsUtf8) {}

  /** Continuation bytes still expected by the sequence that began in an earlier chunk. */
  private needed = 0;
  /** The whole length of the sequence being read. */
  private sequenceLength = 0;
  /** Allowed range of the next continuation byte (narrower after E0, ED, F0, F4). */
  private low = 0x80;
  private high = 0xbf;
  private broken = false;
  /** Where the broken character began, as `write` returns it. */
  private brokenAt = 0;

  /**
   * Checks the next chunk: VALID while every byte so far can begin valid UTF-8, else the offset in
   * this chunk where the first broken character begins (negative when it began in an earlier
   * chunk, among the bytes `unfinishedBytes` counted then). Once broken, it stays broken.
   */
  write(chunk: Uint8Array): number {
    if (this.broken) return 0;
    const length = chunk.length;
    const words = new Uint32Array(chunk.buffer, 0, (chunk.byteOffset + length) >> 2);
    let i = this.needed > 0 ? this.continueSequence(chunk, 0) : 0;
    if (this.native && i >= 0 && i < length) {
      // A character the chunk ends inside is left to the checks below, which wait for its rest.
      // Where the native check finds the chunk broken, they find where.
      const tail = unfinishedTail(chunk, i);
      if (this.native(chunk.subarray(i, tail))) i = tail;
    }
    while (i >= 0 && i < length) {
      i = skipAscii(chunk, words, i);
      if (i >= length) break;
      i = this.sequence(chunk, i);
    }
    if (i >= 0) return VALID;
    this.broken = true;
    return this.brokenAt;
  }

  /** Whether the input, now complete, is valid: false when it ends inside a character. */
  end(): boolean {
    return !this.broken && this.needed === 0;
  }

  /**
   * How many of the bytes written last (with those before them) begin a sequence they do not
   * finish: not yet known to be valid, so a caller holds them back from its parser.
   */
  get unfinishedBytes(): number {
    return this.needed > 0 ? this.sequenceLength - this.needed : 0;
  }

  /** Reads the character whose lead byte is at i: the offset after it, or -1 when it is broken. */
  private sequence(chunk: Uint8Array, i: number): number {
    const lead = chunk[i] as number;
    if (lead < 0x80) return i + 1;
    this.low = 0x80;
    this.high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) this.needed = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      this.needed = 2;
      if (lead === 0xe0) this.low = 0xa0;
      else if (lead === 0xed) this.high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      this.needed = 3;
      if (lead === 0xf0) this.low = 0x90;
      else if (lead === 0xf4) this.high = 0x8f;
    } else {
      this.brokenAt = i;
      return -1;
    }
    this.sequenceLength = this.needed + 1;
    return this.continueSequence(chunk, i + 1);
  }

  /** Reads continuation bytes from start: the offset after them, or -1 when one is wrong. */
  private continueSequence(chunk: Uint8Array, start: number): number {
    let i = start;
    while (this.needed > 0 && i < chunk.length) {
      const byte = chunk[i] as number;
      if (byte < this.low || byte > this.high) {
        this.brokenAt = i - (this.sequenceLength - this.needed);
        return -1;
      }
      this.low = 0x80;
      this.high = 0xbf;
      this.needed--;
      i++;
    }
    return i;
  }
}

/** What `Utf8Validator.write` returns while the input is valid. */
export const VALID = Number.MIN_SAFE_INTEGER;

/**
 * Where a character that `chunk` (from `start`) ends inside begins: its lead byte, when the bytes
 * after it are fewer than the lead announces; else the chunk's length. Only the last four bytes
 * are looked at; whether they are valid is for the validator to say.
 */
function unfinishedTail(chunk: Uint8Array, start: number): number {
  const length = chunk.length;
  let lead = length - 1;
  while (lead > length - 4 && lead > start && ((chunk[lead] as number) & 0xc0) === 0x80) lead--;
  if (lead < start) return length;
  const byte = chunk[lead] as number;
  const size =
    byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : byte >= 0xf0 && byte <= 0xf4 ? 4 : 1;
  return length - lead < size ? lead : length;
}

/** The offset of the first byte at or after start that is not ASCII (or the length). */
function skipAscii(chunk: Uint8Array, words: Uint32Array, start: number): number {
  let i = start;
  const length = chunk.length;
  // Align to a word, then test four words (16 bytes) per step.
  while (i < length && (chunk.byteOffset + i) & 3) {
    if ((chunk[i] as number) >= 0x80) return i;
    i++;
  }
  if (i >= length) return i;
  let w = (chunk.byteOffset + i) >> 2;
  const lastBlock = words.length - 4;
  while (
    w <= lastBlock &&
    (((words[w] as number) | (words[w + 1] as number) | (words[w + 2] as number) | (words[w + 3] as number)) &
      0x80808080) ===
      0
  )
    w += 4;
  while (w < words.length && ((words[w] as number) & 0x80808080) === 0) w++;
  i = w * 4 - chunk.byteOffset;
  while (i < length && (chunk[i] as number) < 0x80) i++;
  return i;
}
