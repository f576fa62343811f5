import { createHash } from 'node:crypto';
import { connect } from 'node:net';

// JaCoCo's exec format and remote-control protocol (org.jacoco.core.data / .runtime, format 0x1007,
// JaCoCo 0.7.5 and later): big-endian Java DataOutput with varint-counted probe arrays.
const BLOCK_HEADER = 0x01;
const BLOCK_SESSION_INFO = 0x10;
const BLOCK_EXECUTION_DATA = 0x11;
const BLOCK_COMMAND_OK = 0x20;
const BLOCK_DUMP_COMMAND = 0x40;
const MAGIC = 0xc0c0;
const FORMAT_VERSION = 0x1007;
/** JaCoCo's default tcpserver port. */
export const JACOCO_DEFAULT_PORT = 6300;
/** A dump bigger than this is not a JaCoCo agent's answer (one probe bit per branch of every class). */
const MAX_DUMP_BYTES = 256 * 1024 * 1024;

export class JacocoDumpError extends Error {
  override name = 'JacocoDumpError';
}

export interface JacocoAddress {
  host: string;
  port: number;
}

export interface JacocoDump {
  /** The agent's answer without its closing "command done" block: a JaCoCo exec file. */
  exec: Buffer;
  /** Classes with execution data. */
  classes: number;
  coveredProbes: number;
  /** Hash of the execution data alone (not the session's times): it changes only when coverage does. */
  fingerprint: string;
}

/** `host:port`, `[v6]:port` or a bare host (port 6300). */
export function parseJacocoAddress(raw: string): JacocoAddress {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|(?!-)([^:\s[\]]+))(?::(\d{1,5}))?$/.exec(raw.trim());
  const port = match?.[3] === undefined ? JACOCO_DEFAULT_PORT : Number(match[3]);
  const host = match?.[1] ?? match?.[2];
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new JacocoDumpError(`--jacoco wants HOST:PORT of a JaCoCo agent in tcpserver mode, not "${raw}"`);
  }
  return { host, port };
}

/** What the scanner found so far; `end` is where the closing command block starts, once it came. */
interface Scan {
  at: number;
  end: number | null;
  classes: number;
  coveredProbes: number;
  data: ReturnType<typeof createHash>;
}

const POPCOUNT = Uint8Array.from({ length: 256 }, (_, byte) => {
  let bits = 0;
  for (let b = byte; b > 0; b >>= 1) bits += b & 1;
  return bits;
});

/** A varint at `at`: its value and the offset after it, or null when the buffer ends first. */
function varint(buf: Buffer, at: number): { value: number; next: number } | null {
  let value = 0;
  for (let shift = 0, i = at; shift < 35; shift += 7, i++) {
    const byte = buf[i];
    if (byte === undefined) return null;
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return { value, next: i + 1 };
  }
  throw new JacocoDumpError(`a probe count at byte ${at} is not a varint`);
}

/** The offset after a Java `writeUTF` string at `at`, or null when the buffer ends first. */
function afterUtf(buf: Buffer, at: number): number | null {
  if (at + 2 > buf.length) return null;
  const next = at + 2 + buf.readUInt16BE(at);
  return next <= buf.length ? next : null;
}

/** Reads every whole block from `scan.at` on; stops at a block the buffer does not hold yet. */
function scanBlocks(buf: Buffer, scan: Scan): void {
  while (scan.end === null && scan.at < buf.length) {
    const at = scan.at;
    const type = buf[at];
    let next: number | null;
    if (at === 0 && type !== BLOCK_HEADER) throw new JacocoDumpError('the answer is not JaCoCo execution data');
    if (type === BLOCK_HEADER) {
      if (at + 5 > buf.length) return;
      if (buf.readUInt16BE(at + 1) !== MAGIC) throw new JacocoDumpError('the answer is not JaCoCo execution data');
      const version = buf.readUInt16BE(at + 3);
      if (version !== FORMAT_VERSION) {
        throw new JacocoDumpError(
          `the agent writes exec format 0x${version.toString(16)}; this reads 0x1007 (JaCoCo 0.7.5 and later)`,
        );
      }
      next = at + 5;
    } else if (type === BLOCK_SESSION_INFO) {
      const afterId = afterUtf(buf, at + 1);
      next = afterId === null || afterId + 16 > buf.length ? null : afterId + 16;
    } else if (type === BLOCK_EXECUTION_DATA) {
      const afterName = at + 9 > buf.length ? null : afterUtf(buf, at + 9);
      const count = afterName === null ? null : varint(buf, afterName);
      next = count === null ? null : count.next + Math.ceil(count.value / 8);
      if (count === null || next === null || next > buf.length) return;
      for (let i = count.next; i < next; i++) scan.coveredProbes += POPCOUNT[buf[i] as number] as number;
      scan.data.update(buf.subarray(at, next));
      scan.classes += 1;
    } else if (type === BLOCK_COMMAND_OK) {
      scan.end = at;
      return;
    } else {
      throw new JacocoDumpError(`unexpected block 0x${(type as number).toString(16)} at byte ${at} of the dump`);
    }
    if (next === null) return;
    scan.at = next;
  }
}

/** The dump request: our exec header, then "dump, do not reset". */
function dumpRequest(): Buffer {
  const request = Buffer.alloc(8);
  request.writeUInt8(BLOCK_HEADER, 0);
  request.writeUInt16BE(MAGIC, 1);
  request.writeUInt16BE(FORMAT_VERSION, 3);
  request.writeUInt8(BLOCK_DUMP_COMMAND, 5);
  request.writeUInt8(1, 6);
  request.writeUInt8(0, 7);
  return request;
}

/**
 * Asks a JaCoCo agent running with `output=tcpserver` for its execution data, as `jacococli dump`
 * does. The probes are not reset, so each dump holds all the coverage since the JVM started.
 */
export function dumpJacocoAgent(
  address: JacocoAddress,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<JacocoDump> {
  const where = `${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return new Promise<JacocoDump>((resolve, reject) => {
    let store = Buffer.alloc(64 * 1024);
    let received = 0;
    const scan: Scan = { at: 0, end: null, classes: 0, coveredProbes: 0, data: createHash('sha256') };
    const socket = connect({ host: address.host, port: address.port });
    const fail = (reason: string) => {
      opts.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(new JacocoDumpError(`JaCoCo agent at ${where}: ${reason}`));
    };
    const onAbort = () => fail('stopped');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const limit = timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`;
    socket.setTimeout(timeoutMs, () => fail(`no answer within ${limit}`));
    socket.on('connect', () => socket.write(dumpRequest()));
    socket.on('data', (chunk: Buffer) => {
      if (scan.end !== null) return;
      received += chunk.length;
      if (received > MAX_DUMP_BYTES) return fail(`the dump is over ${MAX_DUMP_BYTES >> 20} MB`);
      if (received > store.length) {
        const bigger = Buffer.alloc(Math.max(store.length * 2, received));
        store.copy(bigger, 0, 0, received - chunk.length);
        store = bigger;
      }
      chunk.copy(store, received - chunk.length);
      const buf = store.subarray(0, received);
      try {
        scanBlocks(buf, scan);
      } catch (error) {
        return fail(error instanceof Error ? error.message : String(error));
      }
      if (scan.end === null) return;
      opts.signal?.removeEventListener('abort', onAbort);
      socket.end();
      resolve({
        exec: Buffer.from(buf.subarray(0, scan.end)),
        classes: scan.classes,
        coveredProbes: scan.coveredProbes,
        fingerprint: scan.data.digest('hex'),
      });
    });
    socket.on('error', (error) => fail(error.message));
    socket.on('close', () => {
      if (scan.end === null) fail(`the connection closed before the dump ended (${received} bytes)`);
    });
  });
}
