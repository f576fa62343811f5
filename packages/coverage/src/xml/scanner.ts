import { CoverageError, type CoverageErrorCode } from '../errors.ts';
import type { FormatName } from '../model/coverage.ts';
import { HAS_ENTITY, XmlAttributes } from './attributes.ts';
import { ByteStrings, bytesEqual, decodeBytes, ElementNames } from './byte-strings.ts';
import { decodeEntities } from './entities.ts';
import { countNewlines } from './fast-bytes.ts';

export { XmlAttributes } from './attributes.ts';

/**
 * A strict, streaming XML tokenizer for machine-written coverage reports. It scans UTF-8 bytes
 * (validated by the caller), never keeps more than one unfinished construct, and refuses what
 * a coverage report never needs: internal DTD subsets, entity declarations, and entity
 * references other than the five predefined ones and numeric character references. A DOCTYPE
 * without an internal subset (JaCoCo writes one) is skipped; its external identifier is never
 * read. Columns in errors count bytes from the start of the line.
 */
export interface XmlHandler {
  open(name: string, attributes: XmlAttributes, depth: number): void;
  close(name: string, depth: number): void;
  text?(text: string, depth: number): void;
  /**
   * A shortcut for the report's most frequent elements: given the bytes at a `<` that opens an
   * element at `depth` (never the root), handle it and return the offset after it, or return -1
   * to leave it to the general path. It may take only a complete, self-closing element that the
   * general path would accept with the same result, and must leave every error to that path; or
   * a run of such elements with only whitespace between them, when the handler ignores that text.
   * An element it leaves open is announced with `XmlScanner.openedFast` before it returns.
   */
  fastOpen?(buffer: Uint8Array, lt: number, depth: number): number;
}

export const MAX_XML_DEPTH = 256;
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

/** Per byte: 1 name start (ASCII letters _ :), 2 name character (also digits . -), 4 whitespace. */
const CLASS = new Uint8Array(256);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 58;
  if (letter) CLASS[c] = 3;
  else if ((c >= 48 && c <= 57) || c === 46 || c === 45) CLASS[c] = 2;
}
for (const c of [32, 9, 10, 13]) CLASS[c] = 4;
/** Bytes an attribute value scan can pass without a second look: all but quotes, < & and non-ASCII. */
const PLAIN_VALUE = new Uint8Array(256);
for (let c = 0; c < 128; c++) PLAIN_VALUE[c] = c === 34 || c === 39 || c === 60 || c === 38 ? 0 : 1;

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const COMMENT = ascii('<!--');
const CDATA = ascii('<![CDATA[');
const DOCTYPE = ascii('<!DOCTYPE');
const ENTITY = ascii('<!ENTITY');

export class XmlScanner {
  private buffer: Uint8Array = new Uint8Array(0);
  private position = 0;
  /** Our copy of the unfinished construct, and room for the next chunk behind it. */
  private work = new Uint8Array(1 << 16);
  private carried = 0;
  /** Absolute offset of buffer[0], line number reached at it, absolute offset where that line starts. */
  private base = 0;
  private line = 1;
  private lineStart = 0;
  private readonly stack: string[] = [];
  private seenRoot = false;
  private rootClosed = false;
  private tagOffset = 0;
  private readonly names = new ElementNames();
  private readonly attributes: XmlAttributes;
  /** Offset of the opening quote of the attribute value being expanded, for its error position. */
  private valueOffset = 0;
  private readonly expanded = new ByteStrings((raw) =>
    decodeEntities(raw, (reason) => this.fail('bad-attribute', reason, this.valueOffset)),
  );

  constructor(
    private readonly handler: XmlHandler,
    private readonly format: FormatName,
    /** Whether text is decoded and handed over; a handler may switch it on only where it reads text. */
    public wantsText = false,
    values: ByteStrings = new ByteStrings(),
  ) {
    this.attributes = new XmlAttributes(values, this.expanded);
    this.fastOpen = handler.fastOpen?.bind(handler);
  }

  private readonly fastOpen: ((buffer: Uint8Array, lt: number, depth: number) => number) | undefined;

  /**
   * Whether lines are counted as the input goes by, for errors' line and column. Off, an error
   * gives its byte offset and the caller, who can read the input again, finds the line (counting
   * newlines is a pass over every byte, for the rare error).
   */
  countLines = true;

  write(chunk: Uint8Array): void {
    // A plain view whatever the caller passed (Node's Buffer is a subclass): one shape for the hot loops.
    if (this.carried === 0) this.buffer = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
    else {
      const total = this.carried + chunk.length;
      if (total > this.work.length) this.grow(total);
      this.work.set(chunk, this.carried);
      this.buffer = this.work.subarray(0, total);
    }
    this.position = this.scan(0);
    this.carry();
  }

  end(): void {
    const buffer = this.buffer;
    let i = this.position;
    while (i < buffer.length && (CLASS[buffer[i] as number] as number) === 4) i++;
    if (i < buffer.length || this.stack.length > 0 || !this.seenRoot) {
      const open = this.stack.at(-1);
      this.fail(
        'unexpected-eof',
        open ? `the report ends inside <${open}>` : 'the report ends before its root element',
        buffer.length,
      );
    }
  }

  /** Keeps the unconsumed tail (the caller may reuse its chunk) and moves the line count past the rest. */
  private carry(): void {
    const buffer = this.buffer;
    const position = this.position;
    const newlines = this.countLines ? countNewlines(buffer, position) : 0;
    if (newlines > 0) {
      this.line += newlines;
      this.lineStart = this.base + buffer.lastIndexOf(10, position - 1) + 1;
    }
    const rest = buffer.length - position;
    if (rest > MAX_PENDING_BYTES) this.fail('too-large', 'a single XML construct is larger than 16 MiB', position);
    if (rest > this.work.length) this.grow(rest);
    if (buffer.buffer === this.work.buffer) this.work.copyWithin(0, position, buffer.length);
    else this.work.set(buffer.subarray(position));
    this.carried = rest;
    this.base += position;
    this.buffer = this.work.subarray(0, rest);
    this.position = 0;
  }

  private grow(needed: number): void {
    let size = this.work.length * 2;
    while (size < needed) size *= 2;
    const work = new Uint8Array(size);
    work.set(this.work.subarray(0, this.carried));
    this.work = work;
  }

  /** Records an element that `fastOpen` took and left open, so its closing tag matches it. */
  openedFast(name: string): void {
    this.stack.push(name);
  }

  /** Fails at an offset into the current buffer; a negative offset means the tag being handled. */
  fail(code: CoverageErrorCode, reason: string, offset: number): never {
    const at = Math.min(offset < 0 ? this.tagOffset : offset, this.buffer.length);
    if (!this.countLines) throw new CoverageError(code, reason, { format: this.format, offset: this.base + at });
    let line = this.line;
    let lineStart = this.lineStart;
    for (let nl = this.buffer.indexOf(10); nl !== -1 && nl < at; nl = this.buffer.indexOf(10, nl + 1)) {
      line++;
      lineStart = this.base + nl + 1;
    }
    throw new CoverageError(code, reason, { format: this.format, line, column: this.base + at - lineStart + 1 });
  }

  /** Handles every complete construct from start on; returns where the unfinished rest begins. */
  private scan(start: number): number {
    // Nothing after the loop but the return: the loop runs optimised on entry (OSR), and an
    // exit path without type feedback would throw that code away once per chunk.
    const buffer = this.buffer;
    const length = buffer.length;
    let pos = start;
    while (pos < length) {
      let lt = pos;
      if (buffer[pos] !== 60) {
        lt = buffer.indexOf(60, pos);
        if (!this.text(pos, lt === -1 ? length : lt, lt !== -1)) break;
        if (lt === -1) {
          pos = length;
          break;
        }
      }
      if (lt + 1 >= length) {
        pos = lt;
        break;
      }
      const next = buffer[lt + 1];
      let end: number;
      if (next === 47 /* / */) end = this.closeTag(lt);
      else if (next === 33 /* ! */) end = this.markup(lt);
      else if (next === 63 /* ? */) end = this.instruction(lt);
      else {
        const depth = this.stack.length;
        end = this.fastOpen !== undefined && depth > 0 && depth < MAX_XML_DEPTH ? this.fastOpen(buffer, lt, depth) : -1;
        if (end === -1) end = this.openTag(lt);
      }
      if (end === -1) {
        pos = lt;
        break;
      }
      pos = end;
    }
    return pos;
  }

  /** Text between markup; false when it must wait for the rest of the run. */
  private text(start: number, end: number, complete: boolean): boolean {
    const buffer = this.buffer;
    if (this.stack.length === 0) {
      for (let i = start; i < end; i++) {
        if ((CLASS[buffer[i] as number] as number) !== 4)
          this.fail('malformed-xml', 'text outside the root element', i);
      }
      return true;
    }
    if (!this.wantsText || !this.handler.text) return true;
    if (!complete) return false;
    const raw = decodeBytes(buffer, start, end);
    const text = decodeEntities(raw, (reason) => this.fail('malformed-xml', reason, start));
    this.handler.text(text, this.stack.length);
    return true;
  }

  private instruction(lt: number): number {
    const end = this.find(63, 62, lt + 2);
    return end === -1 ? -1 : end + 2;
  }

  private markup(lt: number): number {
    const buffer = this.buffer;
    if (startsWith(buffer, lt, COMMENT)) {
      for (let dash = this.find(45, 45, lt + 4); dash !== -1; dash = this.find(45, 45, dash + 1)) {
        if (dash + 2 >= buffer.length) return -1;
        if (buffer[dash + 2] === 62) return dash + 3;
      }
      return -1;
    }
    if (startsWith(buffer, lt, CDATA)) {
      if (this.stack.length === 0) this.fail('malformed-xml', 'CDATA outside the root element', lt);
      for (let close = this.find(93, 93, lt + 9); close !== -1; close = this.find(93, 93, close + 1)) {
        if (close + 2 >= buffer.length) return -1;
        if (buffer[close + 2] !== 62) continue;
        if (this.wantsText && this.handler.text)
          this.handler.text(decodeBytes(buffer, lt + 9, close), this.stack.length);
        return close + 3;
      }
      return -1;
    }
    if (buffer.length - lt < 10) return -1;
    if (startsWith(buffer, lt, DOCTYPE)) {
      if (this.seenRoot) this.fail('malformed-xml', 'DOCTYPE after the root element', lt);
      const close = buffer.indexOf(62, lt);
      const subset = buffer.indexOf(91 /* [ */, lt);
      if (subset !== -1 && (close === -1 || subset < close)) {
        this.fail('doctype-forbidden', 'DOCTYPE with an internal subset (entity declarations are refused)', lt);
      }
      return close === -1 ? -1 : close + 1;
    }
    if (startsWith(buffer, lt, ENTITY)) this.fail('doctype-forbidden', 'entity declarations are refused', lt);
    return this.fail('malformed-xml', 'unknown markup declaration', lt);
  }

  /** Offset of the next pair of bytes a, b at or after from, or -1. */
  private find(a: number, b: number, from: number): number {
    const buffer = this.buffer;
    for (let i = buffer.indexOf(a, from); i !== -1 && i + 1 < buffer.length; i = buffer.indexOf(a, i + 1)) {
      if (buffer[i + 1] === b) return i;
    }
    return -1;
  }

  private closeTag(lt: number): number {
    const buffer = this.buffer;
    const length = buffer.length;
    let i = lt + 2;
    while (i < length && ((CLASS[buffer[i] as number] as number) & 2) !== 0) i++;
    const nameEnd = i;
    while (i < length && (CLASS[buffer[i] as number] as number) === 4) i++;
    if (i >= length) return -1;
    this.tagOffset = lt;
    const open = this.stack.at(-1);
    if (buffer[i] !== 62 || open === undefined || !bytesEqual(buffer, lt + 2, nameEnd, open)) {
      const gt = buffer.indexOf(62, lt);
      if (gt === -1) return -1;
      const name = decodeBytes(buffer, lt + 2, gt).trimEnd();
      if (open === undefined) this.fail('malformed-xml', `closing </${name}> without an open element`, lt);
      this.fail('malformed-xml', `closing </${name}> does not match <${open}>`, lt);
    }
    this.stack.pop();
    this.handler.close(open, this.stack.length);
    if (this.stack.length === 0) this.rootClosed = true;
    return i + 1;
  }

  private openTag(lt: number): number {
    const buffer = this.buffer;
    const length = buffer.length;
    let i = lt + 1;
    if (((CLASS[buffer[i] as number] as number) & 1) === 0) this.fail('malformed-xml', 'bad element name', lt);
    while (i < length && ((CLASS[buffer[i] as number] as number) & 2) !== 0) i++;
    if (i >= length) return -1;
    const after = buffer[i] as number;
    if (after !== 62 && after !== 47 && CLASS[after] !== 4) this.fail('malformed-xml', 'bad element name', lt);
    const name = this.names.get(buffer, lt + 1, i);
    const attributes = this.attributes;
    attributes.reset(buffer);
    for (;;) {
      while (i < length && (CLASS[buffer[i] as number] as number) === 4) i++;
      if (i >= length) return -1;
      const c = buffer[i] as number;
      if (c === 62 /* > */) {
        this.enter(name, lt);
        return i + 1;
      }
      if (c === 47 /* / */) {
        if (i + 1 >= length) return -1;
        if (buffer[i + 1] !== 62) this.fail('malformed-xml', `bad "/" in <${name}>`, i);
        this.enter(name, lt);
        this.stack.pop();
        this.handler.close(name, this.stack.length);
        if (this.stack.length === 0) this.rootClosed = true;
        return i + 2;
      }
      const nameStart = i;
      if (((CLASS[c] as number) & 1) === 0) this.fail('bad-attribute', `bad attribute name in <${name}>`, i);
      while (i < length && ((CLASS[buffer[i] as number] as number) & 2) !== 0) i++;
      const nameEnd = i;
      while (i < length && (CLASS[buffer[i] as number] as number) === 4) i++;
      if (i >= length) return -1;
      if (buffer[i] !== 61 /* = */) this.fail('bad-attribute', `bad attribute name in <${name}>`, nameStart);
      i++;
      while (i < length && (CLASS[buffer[i] as number] as number) === 4) i++;
      if (i >= length) return -1;
      const quote = buffer[i] as number;
      if (quote !== 34 && quote !== 39) this.fail('bad-attribute', `an attribute of <${name}> is not quoted`, i);
      const valueStart = i + 1;
      let j = valueStart;
      let flags = 0;
      for (;;) {
        if (j >= length) return -1;
        const b = buffer[j] as number;
        if (PLAIN_VALUE[b] === 1) j++;
        else if (b === quote) break;
        else {
          if (b === 60) this.fail('bad-attribute', `"<" in an attribute of <${name}>`, j);
          if (b === 38) flags |= HAS_ENTITY;
          j++;
        }
      }
      if (!attributes.add(nameStart, nameEnd, valueStart, j, flags)) {
        this.fail(
          'bad-attribute',
          `duplicate attribute ${decodeBytes(buffer, nameStart, nameEnd)} in <${name}>`,
          nameStart,
        );
      }
      if (flags & HAS_ENTITY) {
        this.valueOffset = valueStart - 1;
        this.expanded.get(buffer, valueStart, j);
      }
      i = j + 1;
      if (i < length) {
        const next = buffer[i] as number;
        if (next !== 62 && next !== 47 && CLASS[next] !== 4) {
          this.fail('malformed-xml', `missing space after an attribute in <${name}>`, i);
        }
      }
    }
  }

  private enter(name: string, lt: number): void {
    if (this.stack.length === 0) {
      if (this.rootClosed) this.fail('malformed-xml', 'a second root element', lt);
      this.seenRoot = true;
    }
    if (this.stack.length >= MAX_XML_DEPTH) this.fail('too-deep', `elements nested deeper than ${MAX_XML_DEPTH}`, lt);
    this.tagOffset = lt;
    this.stack.push(name);
    this.handler.open(name, this.attributes, this.stack.length - 1);
  }
}

function startsWith(buffer: Uint8Array, at: number, prefix: Uint8Array): boolean {
  if (buffer.length - at < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buffer[at + i] !== prefix[i]) return false;
  return true;
}
