import { CoverageError } from '../errors.ts';
import type { FormatName } from '../model/coverage.ts';

/**
 * A strict, streaming XML tokenizer for machine-written coverage reports. It works on decoded
 * text chunks, never keeps more than one unfinished construct, and refuses what a coverage
 * report never needs: internal DTD subsets, entity declarations, and entity references other
 * than the five predefined ones and numeric character references. A DOCTYPE without an internal
 * subset (JaCoCo writes one) is skipped; its external identifier is never read.
 */
/**
 * The attributes of the element being opened, as offsets into the scan buffer: no string is
 * made unless a handler asks for one, and numbers are read straight from the characters.
 * Valid only during the open() call.
 */
export class XmlAttributes {
  buffer = '';
  count = 0;
  /** Per attribute: name start, name end, value start, value end, 1 when the value holds "&". */
  readonly offsets: number[] = [];
  private decode: (raw: string) => string = (raw) => raw;

  reset(buffer: string, decode: (raw: string) => string): void {
    this.buffer = buffer;
    this.count = 0;
    this.decode = decode;
  }

  add(nameStart: number, nameEnd: number, valueStart: number, valueEnd: number, entity: boolean): boolean {
    const length = nameEnd - nameStart;
    for (let k = 0; k < this.count; k++) {
      const at = k * 5;
      const otherStart = this.offsets[at] as number;
      if ((this.offsets[at + 1] as number) - otherStart === length && this.same(otherStart, nameStart, length))
        return false;
    }
    const at = this.count * 5;
    this.offsets[at] = nameStart;
    this.offsets[at + 1] = nameEnd;
    this.offsets[at + 2] = valueStart;
    this.offsets[at + 3] = valueEnd;
    this.offsets[at + 4] = entity ? 1 : 0;
    this.count++;
    return true;
  }

  private same(a: number, b: number, length: number): boolean {
    for (let i = 0; i < length; i++) if (this.buffer.charCodeAt(a + i) !== this.buffer.charCodeAt(b + i)) return false;
    return true;
  }

  private find(name: string): number {
    const buffer = this.buffer;
    for (let k = 0; k < this.count; k++) {
      const at = k * 5;
      const start = this.offsets[at] as number;
      if ((this.offsets[at + 1] as number) - start === name.length && buffer.startsWith(name, start)) return at;
    }
    return -1;
  }

  get(name: string): string | undefined {
    const at = this.find(name);
    if (at === -1) return undefined;
    const raw = this.buffer.slice(this.offsets[at + 2], this.offsets[at + 3]);
    return this.offsets[at + 4] === 1 ? this.decode(raw) : raw;
  }

  /** Whether the attribute's raw value is exactly the given text (no string is made). */
  is(name: string, value: string): boolean {
    const at = this.find(name);
    if (at === -1) return false;
    const start = this.offsets[at + 2] as number;
    return (this.offsets[at + 3] as number) - start === value.length && this.buffer.startsWith(value, start);
  }

  /** A non-negative integer value of up to 15 digits; -1 when absent, -2 when not such a number. */
  integer(name: string): number {
    const at = this.find(name);
    if (at === -1) return -1;
    const start = this.offsets[at + 2] as number;
    const end = this.offsets[at + 3] as number;
    if (end === start || end - start > 15) return -2;
    let value = 0;
    for (let i = start; i < end; i++) {
      const digit = this.buffer.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return -2;
      value = value * 10 + digit;
    }
    return value;
  }
}

export interface XmlHandler {
  open(name: string, attributes: XmlAttributes, depth: number): void;
  close(name: string, depth: number): void;
  text?(text: string, depth: number): void;
}

export const MAX_XML_DEPTH = 256;
const MAX_PENDING_CHARS = 16 * 1024 * 1024;

export class XmlScanner {
  private buffer = '';
  private position = 0;
  private consumedLines = 1;
  private consumedColumnBase = 0;
  private readonly stack: string[] = [];
  private seenRoot = false;
  private rootClosed = false;

  constructor(
    private readonly handler: XmlHandler,
    private readonly format: FormatName,
    private readonly wantsText = false,
  ) {}

  write(text: string): void {
    this.buffer = this.position === 0 ? this.buffer + text : this.discardConsumed() + text;
    this.nextLessThan = -1;
    this.nextAmpersand = -1;
    this.scan();
    if (this.buffer.length - this.position > MAX_PENDING_CHARS) {
      this.fail('too-large', 'a single XML construct is larger than 16 MiB', this.position);
    }
  }

  end(): void {
    this.scan();
    const rest = this.buffer.slice(this.position);
    if (rest.trim() !== '' || this.stack.length > 0 || !this.seenRoot) {
      const open = this.stack.at(-1);
      this.fail(
        'unexpected-eof',
        open ? `the report ends inside <${open}>` : 'the report ends before its root element',
        this.buffer.length,
      );
    }
  }

  private discardConsumed(): string {
    const consumed = this.buffer.slice(0, this.position);
    let newline = consumed.indexOf('\n');
    let last = -1;
    while (newline !== -1) {
      this.consumedLines++;
      last = newline;
      newline = consumed.indexOf('\n', newline + 1);
    }
    this.consumedColumnBase = last === -1 ? this.consumedColumnBase + consumed.length : consumed.length - last - 1;
    const rest = this.buffer.slice(this.position);
    this.position = 0;
    return rest;
  }

  /** Line and column (1-based) of an offset into the current buffer. */
  private locate(offset: number): { line: number; column: number } {
    let line = this.consumedLines;
    let lineStart = -1;
    for (let i = this.buffer.indexOf('\n'); i !== -1 && i < offset; i = this.buffer.indexOf('\n', i + 1)) {
      line++;
      lineStart = i;
    }
    const column = lineStart === -1 ? this.consumedColumnBase + offset + 1 : offset - lineStart;
    return { line, column };
  }

  /** Fails at an offset into the current buffer; a negative offset means the tag being handled. */
  fail(code: ConstructorParameters<typeof CoverageError>[0], reason: string, offset: number): never {
    const at = offset < 0 ? this.tagOffset : offset;
    const { line, column } = this.locate(Math.min(at, this.buffer.length));
    throw new CoverageError(code, reason, { format: this.format, line, column });
  }

  private scan(): void {
    const buffer = this.buffer;
    let pos = this.position;
    const length = buffer.length;
    while (pos < length) {
      const lt = buffer.indexOf('<', pos);
      if (lt === -1) {
        this.textBetween(pos, length, false);
        pos = length;
        break;
      }
      if (lt > pos) this.textBetween(pos, lt, true);
      if (lt + 1 >= length) {
        pos = lt;
        break;
      }
      const next = buffer.charCodeAt(lt + 1);
      let end: number;
      if (next === 47 /* / */) end = this.closeTag(lt);
      else if (next === 33 /* ! */) end = this.markup(lt);
      else if (next === 63 /* ? */) end = this.instruction(lt);
      else end = this.openTag(lt);
      if (end === -1) {
        pos = lt;
        break;
      }
      pos = end;
    }
    this.position = pos;
  }

  private pendingText = '';
  private nextLessThan = -1;
  private nextAmpersand = -1;
  private attributeOffset = 0;
  private readonly attributes = new XmlAttributes();
  private readonly decodeAttribute = (raw: string): string =>
    decodeEntities(raw, (reason) => this.fail('bad-attribute', reason, this.attributeOffset));
  private tagOffset = 0;

  private textBetween(start: number, end: number, complete: boolean): void {
    if (this.stack.length > 0 && !this.wantsText) return;
    const text = this.buffer.slice(start, end);
    if (this.stack.length === 0) {
      if (text.trim() !== '') this.fail('malformed-xml', 'text outside the root element', start);
      return;
    }
    this.pendingText += text;
    if (complete) this.flushText(start);
  }

  private flushText(offset: number): void {
    if (this.pendingText === '' || !this.handler.text) return;
    const text = decodeEntities(this.pendingText, (reason) => this.fail('malformed-xml', reason, offset));
    this.pendingText = '';
    this.handler.text(text, this.stack.length);
  }

  private instruction(lt: number): number {
    const end = this.buffer.indexOf('?>', lt + 2);
    return end === -1 ? -1 : end + 2;
  }

  private markup(lt: number): number {
    const buffer = this.buffer;
    if (buffer.startsWith('<!--', lt)) {
      const end = buffer.indexOf('-->', lt + 4);
      return end === -1 ? -1 : end + 3;
    }
    if (buffer.startsWith('<![CDATA[', lt)) {
      if (this.stack.length === 0) this.fail('malformed-xml', 'CDATA outside the root element', lt);
      const end = buffer.indexOf(']]>', lt + 9);
      if (end === -1) return -1;
      if (this.wantsText && this.handler.text) this.handler.text(buffer.slice(lt + 9, end), this.stack.length);
      return end + 3;
    }
    if (buffer.length - lt < 10) return -1;
    if (buffer.startsWith('<!DOCTYPE', lt)) {
      if (this.seenRoot) this.fail('malformed-xml', 'DOCTYPE after the root element', lt);
      const close = buffer.indexOf('>', lt);
      const subset = buffer.indexOf('[', lt);
      if (subset !== -1 && (close === -1 || subset < close)) {
        this.fail('doctype-forbidden', 'DOCTYPE with an internal subset (entity declarations are refused)', lt);
      }
      return close === -1 ? -1 : close + 1;
    }
    if (buffer.startsWith('<!ENTITY', lt)) this.fail('doctype-forbidden', 'entity declarations are refused', lt);
    return this.fail('malformed-xml', 'unknown markup declaration', lt);
  }

  private closeTag(lt: number): number {
    const buffer = this.buffer;
    const gt = buffer.indexOf('>', lt + 2);
    if (gt === -1) return -1;
    this.flushText(lt);
    const name = buffer.slice(lt + 2, gt).trimEnd();
    const open = this.stack.pop();
    if (open === undefined) this.fail('malformed-xml', `closing </${name}> without an open element`, lt);
    if (open !== name) this.fail('malformed-xml', `closing </${name}> does not match <${open}>`, lt);
    this.tagOffset = lt;
    this.handler.close(name, this.stack.length);
    if (this.stack.length === 0) this.rootClosed = true;
    return gt + 1;
  }

  private openTag(lt: number): number {
    const buffer = this.buffer;
    const length = buffer.length;
    let i = lt + 1;
    while (i < length) {
      const c = buffer.charCodeAt(i);
      if (c === 32 || c === 62 || c === 47 || c === 10 || c === 9 || c === 13) break;
      i++;
    }
    if (i >= length) return -1;
    if (!isNameAt(buffer, lt + 1, i)) this.fail('malformed-xml', 'bad element name', lt);
    const name = buffer.slice(lt + 1, i);
    const attributes = this.attributes;
    attributes.reset(buffer, this.decodeAttribute);
    for (;;) {
      while (i < length) {
        const c = buffer.charCodeAt(i);
        if (c !== 32 && c !== 10 && c !== 9 && c !== 13) break;
        i++;
      }
      if (i >= length) return -1;
      const c = buffer.charCodeAt(i);
      if (c === 62 /* > */) {
        this.enter(name, attributes, lt);
        return i + 1;
      }
      if (c === 47 /* / */) {
        if (i + 1 >= length) return -1;
        if (buffer.charCodeAt(i + 1) !== 62) this.fail('malformed-xml', `bad "/" in <${name}>`, i);
        this.enter(name, attributes, lt);
        this.stack.pop();
        this.handler.close(name, this.stack.length);
        if (this.stack.length === 0) this.rootClosed = true;
        return i + 2;
      }
      const eq = buffer.indexOf('=', i);
      if (eq === -1) return -1;
      let nameEnd = eq;
      while (nameEnd > i && buffer.charCodeAt(nameEnd - 1) <= 32) nameEnd--;
      if (!isNameAt(buffer, i, nameEnd)) this.fail('bad-attribute', `bad attribute name in <${name}>`, i);
      let q = eq + 1;
      while (q < length && (buffer.charCodeAt(q) === 32 || buffer.charCodeAt(q) === 10)) q++;
      if (q >= length) return -1;
      const quote = buffer.charCodeAt(q);
      if (quote !== 34 && quote !== 39) this.fail('bad-attribute', `an attribute of <${name}> is not quoted`, q);
      const close = buffer.indexOf(quote === 34 ? '"' : "'", q + 1);
      if (close === -1) return -1;
      const lessThan = this.nextOf(60, q + 1);
      if (lessThan < close) this.fail('bad-attribute', `"<" in an attribute of <${name}>`, lessThan);
      const entity = this.nextOf(38, q + 1) < close;
      if (entity) {
        this.attributeOffset = q;
        decodeEntities(buffer.slice(q + 1, close), (reason) => this.fail('bad-attribute', reason, q));
      }
      if (!attributes.add(i, nameEnd, q + 1, close, entity)) {
        this.fail('bad-attribute', `duplicate attribute ${buffer.slice(i, nameEnd)} in <${name}>`, i);
      }
      i = close + 1;
      const after = buffer.charCodeAt(i);
      if (i < length && after !== 32 && after !== 62 && after !== 47 && after !== 10 && after !== 9 && after !== 13) {
        this.fail('malformed-xml', `missing space after an attribute in <${name}>`, i);
      }
    }
  }

  /** The next offset of "<" (60) or "&" (38) at or after from; cached, since scanning only moves forward. */
  private nextOf(code: 60 | 38, from: number): number {
    const cached = code === 60 ? this.nextLessThan : this.nextAmpersand;
    if (cached >= from) return cached;
    const found = this.buffer.indexOf(code === 60 ? '<' : '&', from);
    const next = found === -1 ? Number.POSITIVE_INFINITY : found;
    if (code === 60) this.nextLessThan = next;
    else this.nextAmpersand = next;
    return next;
  }

  private enter(name: string, attributes: XmlAttributes, lt: number): void {
    if (this.stack.length === 0) {
      if (this.rootClosed) this.fail('malformed-xml', 'a second root element', lt);
      this.seenRoot = true;
    }
    if (this.stack.length >= MAX_XML_DEPTH) this.fail('too-deep', `elements nested deeper than ${MAX_XML_DEPTH}`, lt);
    this.flushText(lt);
    this.tagOffset = lt;
    this.stack.push(name);
    this.handler.open(name, attributes, this.stack.length - 1);
  }
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 58;
}

/** XML names as coverage reports use them: ASCII letters, digits, _ : . - */
function isNameAt(buffer: string, start: number, end: number): boolean {
  if (end <= start || !isNameStart(buffer.charCodeAt(start))) return false;
  for (let i = start + 1; i < end; i++) {
    const c = buffer.charCodeAt(i);
    if (!isNameStart(c) && !(c >= 48 && c <= 57) && c !== 46 && c !== 45) return false;
  }
  return true;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(raw: string, fail: (reason: string) => never): string {
  return raw.replace(/&([^;&\s]{0,12});?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) fail(`unterminated entity reference "${whole}"`);
    const predefined = PREDEFINED[ref];
    if (predefined !== undefined) return predefined;
    const numeric = /^#(?:x([0-9A-Fa-f]{1,6})|([0-9]{1,7}))$/.exec(ref);
    if (numeric) {
      const code = numeric[1] !== undefined ? Number.parseInt(numeric[1], 16) : Number(numeric[2]);
      if (code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)) return String.fromCodePoint(code);
      fail(`character reference "${whole}" out of range`);
    }
    return fail(`entity reference "${whole}" is not one of the five predefined ones`);
  });
}
