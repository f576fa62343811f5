import { type ByteStrings, bytesEqual, decodeBytes } from './byte-strings.ts';

const EMPTY = new Uint8Array(0);
/** Bit set in an attribute's flags when its value holds a "&" reference. */
export const HAS_ENTITY = 1;

/**
 * The attributes of the element being opened, as byte offsets into the scan buffer: no string
 * is made unless a handler asks for one, and numbers are read straight from the bytes.
 * Valid only during the open() call.
 */
export class XmlAttributes {
  buffer: Uint8Array = EMPTY;
  count = 0;
  /** Per attribute: name start, name end, value start, value end, flags. */
  readonly offsets: number[] = [];

  constructor(
    private readonly strings: ByteStrings,
    /** Values holding references, remembered already expanded (JaCoCo's `&lt;init&gt;`). */
    private readonly expanded: ByteStrings,
  ) {}

  reset(buffer: Uint8Array): void {
    this.buffer = buffer;
    this.count = 0;
  }

  /** Adds an attribute; false when the element already has one of that name. */
  add(nameStart: number, nameEnd: number, valueStart: number, valueEnd: number, flags: number): boolean {
    const buffer = this.buffer;
    const length = nameEnd - nameStart;
    for (let k = 0; k < this.count; k++) {
      const at = k * 5;
      const start = this.offsets[at] as number;
      if ((this.offsets[at + 1] as number) - start === length && sameName(buffer, start, nameStart, length))
        return false;
    }
    const at = this.count * 5;
    this.offsets[at] = nameStart;
    this.offsets[at + 1] = nameEnd;
    this.offsets[at + 2] = valueStart;
    this.offsets[at + 3] = valueEnd;
    this.offsets[at + 4] = flags;
    this.count++;
    return true;
  }

  /** Index of the named attribute, or -1. */
  indexOf(name: string): number {
    for (let k = 0; k < this.count; k++) {
      const at = k * 5;
      if (bytesEqual(this.buffer, this.offsets[at] as number, this.offsets[at + 1] as number, name)) return k;
    }
    return -1;
  }

  valueLength(k: number): number {
    return (this.offsets[k * 5 + 3] as number) - (this.offsets[k * 5 + 2] as number);
  }

  /** The i-th byte of the k-th attribute's value (undefined past its end). */
  valueByte(k: number, i: number): number | undefined {
    const start = (this.offsets[k * 5 + 2] as number) + i;
    return start < (this.offsets[k * 5 + 3] as number) ? this.buffer[start] : undefined;
  }

  /** Whether the k-th attribute is named so. */
  nameIs(k: number, name: string): boolean {
    const at = k * 5;
    return bytesEqual(this.buffer, this.offsets[at] as number, this.offsets[at + 1] as number, name);
  }

  get(name: string): string | undefined {
    const k = this.indexOf(name);
    return k === -1 ? undefined : this.valueAt(k);
  }

  /** The decoded value of the k-th attribute; with remember, repeated values share one string. */
  valueAt(k: number, remember = true): string {
    const at = k * 5;
    const start = this.offsets[at + 2] as number;
    const end = this.offsets[at + 3] as number;
    const plain = ((this.offsets[at + 4] as number) & HAS_ENTITY) === 0;
    if (plain && !remember) return decodeBytes(this.buffer, start, end);
    return (plain ? this.strings : this.expanded).get(this.buffer, start, end);
  }

  /** Whether the attribute's raw value is exactly the given ASCII text (no string is made). */
  is(name: string, value: string): boolean {
    const k = this.indexOf(name);
    return k !== -1 && this.valueIs(k, value);
  }

  valueIs(k: number, value: string): boolean {
    const at = k * 5;
    return bytesEqual(this.buffer, this.offsets[at + 2] as number, this.offsets[at + 3] as number, value);
  }

  /** A non-negative integer value of up to 15 digits; -1 when absent, -2 when not such a number. */
  integer(name: string): number {
    const k = this.indexOf(name);
    return k === -1 ? -1 : this.integerAt(k);
  }

  integerAt(k: number): number {
    const at = k * 5;
    const buffer = this.buffer;
    const start = this.offsets[at + 2] as number;
    const end = this.offsets[at + 3] as number;
    if (end === start || end - start > 15) return -2;
    let value = 0;
    for (let i = start; i < end; i++) {
      const digit = (buffer[i] as number) - 48;
      if (digit < 0 || digit > 9) return -2;
      value = value * 10 + digit;
    }
    return value;
  }
}

function sameName(buffer: Uint8Array, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (buffer[a + i] !== buffer[b + i]) return false;
  return true;
}
