const decoder = new TextDecoder('utf-8');

/** Text of buffer[start, end), already validated as UTF-8 by the caller. */
export function decodeBytes(buffer: Uint8Array, start: number, end: number): string {
  return decoder.decode(buffer.subarray(start, end));
}

type Entry = { bytes: Uint8Array; value: string; next: Entry | null };

const MAX_ENTRIES = 1 << 20;
const MAX_CACHED_BYTES = 256;

/**
 * Strings made from bytes, one copy per distinct value: names in a coverage report repeat
 * (method descriptors, `<init>`, element names), so a repeat costs a hash and a byte compare,
 * not a decode and an allocation. Past a million distinct values it stops remembering new ones.
 */
export class ByteStrings {
  private readonly table = new Map<number, Entry>();
  private size = 0;

  /** With a transform, the remembered value is transform(decoded text), computed once per distinct bytes. */
  constructor(private readonly transform?: (text: string) => string) {}

  get(buffer: Uint8Array, start: number, end: number): string {
    const length = end - start;
    if (length > MAX_CACHED_BYTES) {
      const text = decodeBytes(buffer, start, end);
      return this.transform ? this.transform(text) : text;
    }
    let hash = 0x811c9dc5 ^ length;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ (buffer[i] as number), 0x01000193);
    const first = this.table.get(hash) ?? null;
    for (let entry = first; entry; entry = entry.next) {
      if (entry.bytes.length === length && sameBytes(entry.bytes, buffer, start)) return entry.value;
    }
    const text = decodeBytes(buffer, start, end);
    const value = this.transform ? this.transform(text) : text;
    if (this.size < MAX_ENTRIES) {
      this.table.set(hash, { bytes: buffer.slice(start, end), value, next: first });
      this.size++;
    }
    return value;
  }
}

type Name = { bytes: Uint8Array; name: string };

/**
 * Element names: few and short, so they are found by first byte and length and one compare, no
 * hash of the bytes; internalized, so a handler's `switch (name)` compares pointers.
 */
export class ElementNames {
  private readonly slots: (Name[] | undefined)[] = new Array(256 * 64);

  get(buffer: Uint8Array, start: number, end: number): string {
    const length = end - start;
    const key = (buffer[start] as number) * 64 + (length & 63);
    let list = this.slots[key];
    if (list) {
      for (const entry of list) {
        if (entry.bytes.length === length && sameBytes(entry.bytes, buffer, start)) return entry.name;
      }
    } else {
      list = [];
      this.slots[key] = list;
    }
    const name = internalized(decodeBytes(buffer, start, end));
    if (list.length < 64) list.push({ bytes: buffer.slice(start, end), name });
    return name;
  }
}

/** The same text as an internalized string, so comparing it with a literal is a pointer check. */
export function internalized(text: string): string {
  return Object.keys({ [text]: 0 })[0] ?? text;
}

function sameBytes(bytes: Uint8Array, buffer: Uint8Array, start: number): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== buffer[start + i]) return false;
  return true;
}

/** Whether buffer[start, end) holds exactly the ASCII text. */
export function bytesEqual(buffer: Uint8Array, start: number, end: number, text: string): boolean {
  if (end - start !== text.length) return false;
  for (let i = 0; i < text.length; i++) if (buffer[start + i] !== text.charCodeAt(i)) return false;
  return true;
}
