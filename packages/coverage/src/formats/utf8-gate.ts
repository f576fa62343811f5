import { CoverageError } from '../errors.ts';
import type { FormatName } from '../model/coverage.ts';
import { Utf8Validator, VALID } from './utf8.ts';

/**
 * Bytes in, whole valid UTF-8 characters out (a leading byte order mark dropped). A chunk that
 * ends inside a character keeps that character's bytes back until the next chunk shows them
 * valid, so the parser behind never sees a broken character, wherever a chunk ends. At the first
 * broken character the bytes before it are passed on first and then not-utf8 is raised at its
 * offset: the report's first fault in reading order is the one named, however it was chunked.
 */
export class Utf8Gate {
  private readonly validator = new Utf8Validator();
  private held: Uint8Array | null = null;
  /** Offset (counted after a byte order mark, as the parser sees the input) of the next byte passed on. */
  private passed = 0;
  private first = true;

  constructor(
    private readonly pass: (bytes: Uint8Array) => void,
    private readonly format: () => FormatName | null,
  ) {}

  write(chunk: Uint8Array, final: boolean): void {
    const broken = this.validator.write(chunk);
    const heldBytes = this.held?.length ?? 0;
    const bytes = this.held ? concat(this.held, chunk) : chunk;
    this.held = null;
    if (broken !== VALID) this.fail(bytes, broken + heldBytes);
    if (final && !this.validator.end()) this.fail(bytes, bytes.length - this.validator.unfinishedBytes);
    const unfinished = this.validator.unfinishedBytes;
    if (unfinished > 0) this.held = bytes.slice(bytes.length - unfinished);
    this.passOn(bytes.subarray(0, bytes.length - unfinished));
  }

  private passOn(bytes: Uint8Array): void {
    let valid = bytes;
    if (this.first && valid.length > 0) {
      this.first = false;
      if (valid[0] === 0xef && valid[1] === 0xbb && valid[2] === 0xbf) valid = valid.subarray(3);
    }
    if (valid.length === 0) return;
    this.passed += valid.length;
    this.pass(valid);
  }

  /** Passes on the bytes before the broken character at `at`, then fails there. */
  private fail(bytes: Uint8Array, at: number): never {
    this.passOn(bytes.subarray(0, at));
    throw new CoverageError('not-utf8', 'the report is not valid UTF-8', {
      format: this.format(),
      offset: this.passed,
    });
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const all = new Uint8Array(a.length + b.length);
  all.set(a);
  all.set(b, a.length);
  return all;
}
