import { inflateRawSync } from 'node:zlib';

/**
 * The class files of an app as `sextant agent --jacoco` sends them (issue 38): a zip (a jar) or a
 * tar of `.class` files. Read whole from memory with bounds, because the archive comes from the
 * network: entry count, each entry's and the total inflated size (a zip bomb stops at the bound,
 * never inflated past it), and names that leave the archive's folder (`../`, `/etc`, `C:\`) are
 * refused, never written anywhere. Only `.class` entries outside META-INF are kept.
 */
export type ClassFile = { name: string; bytes: Uint8Array };
export type ArchiveLimits = { maxEntries: number; maxEntryBytes: number; maxTotalBytes: number };
export type ClassArchiveProblem = 'bad-archive' | 'too-large' | 'unsafe-path';

export class ClassArchiveError extends Error {
  override name = 'ClassArchiveError';
  constructor(
    readonly problem: ClassArchiveProblem,
    message: string,
  ) {
    super(message);
  }
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 200_000,
  maxEntryBytes: 16 << 20,
  maxTotalBytes: 1 << 30,
};

const CAFEBABE = 0xcafebabe;

/** The entry's path, checked: relative, '/'-separated, no `..`, no NUL. */
function safeName(raw: string): string {
  const name = raw.replace(/^(\.\/)+/, '');
  const shown = JSON.stringify(raw.slice(0, 200));
  if (/[\\\0]/.test(name) || name.startsWith('/') || /^[A-Za-z]:/.test(name)) {
    throw new ClassArchiveError('unsafe-path', `the archive entry ${shown} is not a relative '/' path`);
  }
  if (name.split('/').some((segment) => segment === '..')) {
    throw new ClassArchiveError('unsafe-path', `the archive entry ${shown} leaves the archive's folder`);
  }
  return name;
}

class Collector {
  readonly files: ClassFile[] = [];
  private entries = 0;
  private total = 0;
  constructor(readonly limits: ArchiveLimits) {}

  /** Counts an entry; answers its checked name when it is a class file to keep. */
  entry(raw: string, declaredBytes: number): string | null {
    if (++this.entries > this.limits.maxEntries) {
      throw new ClassArchiveError('too-large', `the archive holds more than ${this.limits.maxEntries} entries`);
    }
    const name = safeName(raw);
    if (declaredBytes > this.limits.maxEntryBytes) this.tooLarge(name);
    if (!name.endsWith('.class') || name.startsWith('META-INF/')) return null;
    return name;
  }

  keep(name: string, bytes: Uint8Array): void {
    this.total += bytes.length;
    if (this.total > this.limits.maxTotalBytes) {
      throw new ClassArchiveError('too-large', `the archive's class files exceed ${this.limits.maxTotalBytes} bytes`);
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < 10 || view.getUint32(0) !== CAFEBABE) {
      throw new ClassArchiveError('bad-archive', `${name} is not a class file (no 0xCAFEBABE)`);
    }
    this.files.push({ name: name.slice(0, -'.class'.length), bytes });
  }

  tooLarge(name: string): never {
    throw new ClassArchiveError(
      'too-large',
      `the archive entry ${name} is larger than ${this.limits.maxEntryBytes} bytes`,
    );
  }
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function inflateEntry(data: Buffer, name: string, out: Collector): Buffer {
  try {
    // Never inflated past the bound: a bomb's declared size may lie.
    return inflateRawSync(data, { maxOutputLength: out.limits.maxEntryBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') out.tooLarge(name);
    throw new ClassArchiveError('bad-archive', `not a readable zip: ${name} does not inflate`);
  }
}

function readZip(buf: Buffer, out: Collector): void {
  const bad = (why: string): never => {
    throw new ClassArchiveError('bad-archive', `not a readable zip: ${why}`);
  };
  let end = -1;
  for (let at = buf.length - 22; at >= Math.max(0, buf.length - 22 - 0xffff); at--) {
    if (buf.readUInt32LE(at) === EOCD) {
      end = at;
      break;
    }
  }
  if (end < 0) bad('no end of central directory');
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) bad('zip64 archives are not read');
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL) bad(`central entry ${i} is cut or missing`);
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const packed = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const skip = nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = out.entry(buf.toString('utf8', at + 46, at + 46 + nameLength), size);
    at += 46 + skip;
    if (name === null) continue;
    if (flags & 1) bad(`${name} is encrypted`);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL) bad(`${name}'s local header is missing`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start + packed > buf.length) bad(`${name} ends past the archive`);
    const data = buf.subarray(start, start + packed);
    if (method !== 0 && method !== 8) bad(`${name} uses compression method ${method}`);
    const bytes = method === 0 ? data : inflateEntry(data, name, out);
    if (bytes.length !== size) bad(`${name} inflates to ${bytes.length} bytes, not the ${size} it declares`);
    out.keep(name, new Uint8Array(bytes));
  }
}

const BLOCK = 512;
const text = (buf: Buffer, at: number, length: number) => {
  const raw = buf.subarray(at, at + length);
  const nul = raw.indexOf(0);
  return raw.toString('utf8', 0, nul === -1 ? length : nul);
};

function readTar(buf: Buffer, out: Collector): void {
  for (let at = 0; at + BLOCK <= buf.length; ) {
    const header = buf.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) return;
    const sizeText = text(buf, at + 124, 12).trim();
    if (!/^[0-7]+$/.test(sizeText))
      throw new ClassArchiveError('bad-archive', `not a readable tar: bad size at byte ${at}`);
    const size = Number.parseInt(sizeText, 8);
    const type = String.fromCharCode(header[156] as number);
    const prefix = buf.toString('latin1', at + 257, at + 262) === 'ustar' ? text(buf, at + 345, 155) : '';
    const raw = prefix ? `${prefix}/${text(buf, at, 100)}` : text(buf, at, 100);
    const start = at + BLOCK;
    at = start + Math.ceil(size / BLOCK) * BLOCK;
    if (type === '5') {
      safeName(raw);
      continue;
    }
    if (type !== '0' && type !== '\0') {
      throw new ClassArchiveError(
        type === '1' || type === '2' ? 'unsafe-path' : 'bad-archive',
        `the tar entry ${JSON.stringify(raw.slice(0, 200))} has type ${JSON.stringify(type)}: only plain files and folders are read`,
      );
    }
    const name = out.entry(raw, size);
    if (name === null) continue;
    if (start + size > buf.length) throw new ClassArchiveError('bad-archive', `not a readable tar: ${name} is cut`);
    out.keep(name, new Uint8Array(buf.subarray(start, start + size)));
  }
}

/** The class files of a zip/jar or tar held in `bytes` (already gunzipped). */
export function readClassArchive(bytes: Uint8Array, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): ClassFile[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Collector(limits);
  if (buf.length >= 4 && (buf.readUInt32LE(0) === LOCAL || buf.readUInt32LE(0) === EOCD)) readZip(buf, out);
  else if (buf.length >= BLOCK && buf.toString('latin1', 257, 262) === 'ustar') readTar(buf, out);
  else throw new ClassArchiveError('bad-archive', 'the class files come as a zip (jar) or a tar');
  return out.files;
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

/** A ustar archive of class files (`name` is the JVM internal name: `demo/Shop` → `demo/Shop.class`). */
export function writeClassTar(files: readonly ClassFile[]): Buffer {
  const parts: Buffer[] = [];
  for (const file of files) {
    const path = `${file.name}.class`;
    let name = path;
    let prefix = '';
    if (Buffer.byteLength(path) > 100) {
      const cut = path.lastIndexOf('/', path.length - 1);
      prefix = path.slice(0, cut);
      name = path.slice(cut + 1);
      if (cut < 0 || Buffer.byteLength(prefix) > 155 || Buffer.byteLength(name) > 100) {
        throw new ClassArchiveError('bad-archive', `${path}: too long a name for a tar`);
      }
    }
    const header = Buffer.alloc(BLOCK);
    header.write(name, 0, 100, 'utf8');
    header.write(octal(0o644, 8), 100, 'latin1');
    header.write(octal(0, 8), 108, 'latin1');
    header.write(octal(0, 8), 116, 'latin1');
    header.write(octal(file.bytes.length, 12), 124, 'latin1');
    header.write(octal(0, 12), 136, 'latin1');
    header.write('        ', 148, 'latin1');
    header.write('0', 156, 'latin1');
    header.write('ustar\u000000', 257, 'latin1');
    header.write(prefix, 345, 155, 'utf8');
    let sum = 0;
    for (const b of header) sum += b;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    parts.push(header, Buffer.from(file.bytes), Buffer.alloc((BLOCK - (file.bytes.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}
