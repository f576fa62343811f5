import { CoverageError } from '../errors.ts';

/**
 * JaCoCo's execution data (`.exec`, `org.jacoco.core.data.ExecutionDataWriter`): a sequence of
 * blocks, each a type byte and its fields in Java's DataOutput encoding (big-endian):
 * - 0x01 header: char magic 0xC0C0, char format version (0x1007 since JaCoCo 0.7.5);
 * - 0x10 session info: UTF id, long start and dump times (ms);
 * - 0x11 execution data: long class id (CRC64 of the class file), UTF class name (`pkg/Cls`),
 *   boolean[] probes (varint length, then 8 probes a byte, lowest bit first).
 * A file of several dumps appended holds several headers; each is checked.
 */
export const EXEC_MAGIC = 0xc0c0;
export const EXEC_VERSION = 0x1007;
const BLOCK_HEADER = 0x01;
const BLOCK_SESSION = 0x10;
const BLOCK_EXECUTION = 0x11;

export type ExecSession = { id: string; start: number; dump: number };
/** One class's probes; `id` is the 64-bit class id as 16 hex digits (JaCoCo prints it so). */
export type ExecClass = { id: string; name: string; probes: boolean[] };
export type ExecData = { sessions: ExecSession[]; classes: ExecClass[] };

const UTF8 = new TextDecoder();
const hex8 = (value: number) => value.toString(16).padStart(8, '0');

class Reader {
  offset = 0;
  private readonly view: DataView;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly file: string | null,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  get done() {
    return this.offset >= this.bytes.length;
  }
  fail(code: 'unexpected-eof' | 'bad-record', reason: string): never {
    throw new CoverageError(code, reason, { format: 'jacoco', file: this.file, offset: this.offset });
  }
  need(count: number, what: string) {
    if (this.offset + count > this.bytes.length) this.fail('unexpected-eof', `execution data ends inside ${what}`);
  }
  byte(what: string): number {
    this.need(1, what);
    return this.bytes[this.offset++] as number;
  }
  char(what: string): number {
    this.need(2, what);
    const value = this.view.getUint16(this.offset);
    this.offset += 2;
    return value;
  }
  /** A long as 16 hex digits (class ids: no arithmetic on them, so no BigInt). */
  longHex(what: string): string {
    this.need(8, what);
    const text = hex8(this.view.getUint32(this.offset)) + hex8(this.view.getUint32(this.offset + 4));
    this.offset += 8;
    return text;
  }
  /** A long that is a time in ms (below 2^53). */
  long(what: string): number {
    this.need(8, what);
    const value = this.view.getUint32(this.offset) * 2 ** 32 + this.view.getUint32(this.offset + 4);
    this.offset += 8;
    return value;
  }
  utf(what: string): string {
    const length = this.char(what);
    this.need(length, what);
    const bytes = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    // Class names are ASCII: one code unit a byte, without a decoder call.
    let ascii = true;
    for (let i = 0; i < bytes.length && ascii; i++) ascii = (bytes[i] as number) < 0x80;
    return ascii ? String.fromCharCode.apply(null, bytes as unknown as number[]) : UTF8.decode(bytes);
  }
  varInt(what: string): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.byte(what);
      value |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return value >>> 0;
    }
    return this.fail('bad-record', `${what}: a length of more than five bytes`);
  }
  probes(): boolean[] {
    const length = this.varInt('a probe array');
    this.need(Math.ceil(length / 8), 'a probe array');
    const probes = new Array<boolean>(length);
    for (let i = 0; i < length; i++)
      probes[i] = ((this.bytes[this.offset + (i >> 3)] as number) & (1 << (i & 7))) !== 0;
    this.offset += Math.ceil(length / 8);
    return probes;
  }
}

/** Whether the bytes begin as JaCoCo execution data (the header block with its magic). */
export function isJacocoExec(head: Uint8Array): boolean {
  return head.length >= 3 && head[0] === BLOCK_HEADER && head[1] === 0xc0 && head[2] === 0xc0;
}

/** Reads execution data as written (one entry per block; `mergeExecData` joins entries of one class). */
export function parseJacocoExec(bytes: Uint8Array, file: string | null = null): ExecData {
  const reader = new Reader(bytes, file);
  if (!isJacocoExec(bytes)) reader.fail('bad-record', 'not JaCoCo execution data (no header 0x01 0xC0C0)');
  const data: ExecData = { sessions: [], classes: [] };
  while (!reader.done) {
    const type = reader.byte('a block');
    if (type === BLOCK_HEADER) {
      if (reader.char('the header') !== EXEC_MAGIC) reader.fail('bad-record', 'a header without the magic 0xC0C0');
      const version = reader.char('the header');
      if (version !== EXEC_VERSION)
        reader.fail(
          'bad-record',
          `execution data version 0x${version.toString(16)}, only 0x1007 (JaCoCo ≥ 0.7.5) is read`,
        );
    } else if (type === BLOCK_SESSION) {
      const id = reader.utf('a session id');
      data.sessions.push({ id, start: reader.long('a session'), dump: reader.long('a session') });
    } else if (type === BLOCK_EXECUTION) {
      const id = reader.longHex('a class id');
      data.classes.push({ id, name: reader.utf('a class name'), probes: reader.probes() });
    } else {
      reader.offset--;
      reader.fail('bad-record', `unknown block type 0x${type.toString(16)}`);
    }
  }
  return data;
}

class Writer {
  private buffer = new Uint8Array(1 << 16);
  private length = 0;
  byte(b: number) {
    if (this.length === this.buffer.length) {
      const grown = new Uint8Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.length++] = b & 0xff;
  }
  char(c: number) {
    this.byte(c >> 8);
    this.byte(c);
  }
  uint32(value: number) {
    this.char(value >>> 16);
    this.char(value & 0xffff);
  }
  long(value: number) {
    this.uint32(Math.floor(value / 2 ** 32));
    this.uint32(value >>> 0);
  }
  longHex(hex: string) {
    this.uint32(Number.parseInt(hex.slice(0, 8), 16));
    this.uint32(Number.parseInt(hex.slice(8, 16), 16));
  }
  utf(text: string) {
    const bytes = ENCODER.encode(text);
    this.char(bytes.length);
    for (const b of bytes) this.byte(b);
  }
  varInt(value: number) {
    let rest = value >>> 0;
    while (rest >= 0x80) {
      this.byte((rest & 0x7f) | 0x80);
      rest >>>= 7;
    }
    this.byte(rest);
  }
  bytes() {
    return this.buffer.slice(0, this.length);
  }
}

const ENCODER = new TextEncoder();

/** Writes execution data as JaCoCo's ExecutionDataWriter does: a header, the sessions, the classes. */
export function writeJacocoExec(data: ExecData): Uint8Array {
  const w = new Writer();
  w.byte(BLOCK_HEADER);
  w.char(EXEC_MAGIC);
  w.char(EXEC_VERSION);
  for (const s of data.sessions) {
    w.byte(BLOCK_SESSION);
    w.utf(s.id);
    w.long(s.start);
    w.long(s.dump);
  }
  for (const c of data.classes) {
    w.byte(BLOCK_EXECUTION);
    w.longHex(c.id);
    w.utf(c.name);
    w.varInt(c.probes.length);
    for (let i = 0; i < c.probes.length; i += 8) {
      let b = 0;
      for (let j = 0; j < 8 && i + j < c.probes.length; j++) if (c.probes[i + j]) b |= 1 << j;
      w.byte(b);
    }
  }
  return w.bytes();
}
