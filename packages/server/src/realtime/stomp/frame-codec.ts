import { CLIENT_COMMANDS, SERVER_COMMANDS, type StompFrame } from './frame.ts';

/** Limits that keep one client from exhausting the server (issue 5: 1 MB headers are refused). */
export type CodecLimits = { maxHeaderBytes: number; maxHeaders: number; maxBodyBytes: number };
export const DEFAULT_LIMITS: CodecLimits = { maxHeaderBytes: 16 * 1024, maxHeaders: 64, maxBodyBytes: 1024 * 1024 };

export class StompProtocolError extends Error {}

const NUL = 0;
const LF = 10;
const CR = 13;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

// CONNECT and CONNECTED headers are not escaped (STOMP 1.2 "Value Encoding"), so old clients' values pass as they are.
const RAW_HEADER_COMMANDS = new Set(['CONNECT', 'CONNECTED']);

function escapeValue(value: string): string {
  return value.replace(/[\\\r\n:]/g, (c) => (c === '\\' ? '\\\\' : c === '\r' ? '\\r' : c === '\n' ? '\\n' : '\\c'));
}

function unescapeValue(value: string): string {
  return value.replace(/\\(.?)/g, (_, c: string) => {
    if (c === '\\') return '\\';
    if (c === 'n') return '\n';
    if (c === 'r') return '\r';
    if (c === 'c') return ':';
    throw new StompProtocolError(`invalid escape sequence '\\${c}' in a header`);
  });
}

/** Encodes a frame; adds content-length so bodies may hold NUL bytes. */
export function encodeFrame(frame: StompFrame): Uint8Array {
  const raw = RAW_HEADER_COMMANDS.has(frame.command);
  let head = `${frame.command}\n`;
  for (const [name, value] of frame.headers) {
    if (name === 'content-length') continue;
    head += raw ? `${name}:${value}\n` : `${escapeValue(name)}:${escapeValue(value)}\n`;
  }
  if (frame.body.length > 0) head += `content-length:${frame.body.length}\n`;
  head += '\n';
  const headBytes = encoder.encode(head);
  const out = new Uint8Array(headBytes.length + frame.body.length + 1);
  out.set(headBytes, 0);
  out.set(frame.body, headBytes.length);
  out[out.length - 1] = NUL;
  return out;
}

/** Heart-beat: one EOL on its own between frames. */
export const HEARTBEAT = new Uint8Array([LF]);

type Side = 'server' | 'client';

/**
 * Incremental decoder: feed any split of the byte stream, get whole frames.
 * `side` is who decodes: a server accepts client commands only.
 */
export class FrameDecoder {
  private buffer: Uint8Array = new Uint8Array(0);
  private readonly accepted: ReadonlySet<string>;

  constructor(
    side: Side = 'server',
    private readonly limits: CodecLimits = DEFAULT_LIMITS,
  ) {
    this.accepted = side === 'server' ? CLIENT_COMMANDS : SERVER_COMMANDS;
  }

  /** Returns the frames completed by this chunk and whether heart-beat EOLs were seen. */
  push(chunk: Uint8Array): { frames: StompFrame[]; heartbeats: number } {
    this.buffer = this.buffer.length === 0 ? chunk : concat(this.buffer, chunk);
    const frames: StompFrame[] = [];
    let heartbeats = 0;
    for (;;) {
      let start = 0;
      while (start < this.buffer.length && (this.buffer[start] === LF || this.buffer[start] === CR)) {
        if (this.buffer[start] === LF) heartbeats++;
        start++;
      }
      if (start > 0) this.buffer = this.buffer.subarray(start);
      if (this.buffer.length === 0) break;
      const parsed = this.parseOne();
      if (!parsed) break;
      frames.push(parsed.frame);
      this.buffer = this.buffer.subarray(parsed.length);
    }
    if (this.buffer.length > 0) this.buffer = this.buffer.slice();
    return { frames, heartbeats };
  }

  private parseOne(): { frame: StompFrame; length: number } | null {
    const buf = this.buffer;
    const headEnd = findHeadEnd(buf, this.limits.maxHeaderBytes);
    if (headEnd === -1) {
      if (buf.length > this.limits.maxHeaderBytes) {
        throw new StompProtocolError(`frame headers exceed ${this.limits.maxHeaderBytes} bytes`);
      }
      return null;
    }
    const lines = decodeUtf8(buf.subarray(0, headEnd.index)).split('\n').map(stripCr);
    const command = lines[0] ?? '';
    if (!this.accepted.has(command)) throw new StompProtocolError(`unknown command '${command.slice(0, 32)}'`);
    const raw = RAW_HEADER_COMMANDS.has(command);
    const headers: [string, string][] = [];
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new StompProtocolError(`malformed header line '${line.slice(0, 32)}'`);
      if (headers.length >= this.limits.maxHeaders) {
        throw new StompProtocolError(`more than ${this.limits.maxHeaders} headers`);
      }
      const name = line.slice(0, colon);
      const value = line.slice(colon + 1);
      headers.push(raw ? [name, value] : [unescapeValue(name), unescapeValue(value)]);
    }
    const bodyStart = headEnd.index + headEnd.length;
    const lengthHeader = headers.find(([name]) => name === 'content-length')?.[1];
    let bodyEnd: number;
    if (lengthHeader !== undefined) {
      if (!/^\d{1,10}$/.test(lengthHeader)) throw new StompProtocolError(`invalid content-length '${lengthHeader}'`);
      const length = Number(lengthHeader);
      if (length > this.limits.maxBodyBytes)
        throw new StompProtocolError(`body exceeds ${this.limits.maxBodyBytes} bytes`);
      bodyEnd = bodyStart + length;
      if (buf.length < bodyEnd + 1) return null;
      if (buf[bodyEnd] !== NUL) throw new StompProtocolError('frame does not end with NUL after content-length bytes');
    } else {
      bodyEnd = buf.indexOf(NUL, bodyStart);
      if (bodyEnd === -1) {
        if (buf.length - bodyStart > this.limits.maxBodyBytes) {
          throw new StompProtocolError(`body exceeds ${this.limits.maxBodyBytes} bytes`);
        }
        return null;
      }
    }
    return { frame: { command, headers, body: buf.slice(bodyStart, bodyEnd) }, length: bodyEnd + 1 };
  }
}

function findHeadEnd(buf: Uint8Array, limit: number): { index: number; length: number } | -1 {
  const end = Math.min(buf.length, limit + 4);
  for (let i = 0; i < end; i++) {
    if (buf[i] !== LF) continue;
    if (buf[i + 1] === LF) return { index: i, length: 2 };
    if (buf[i + 1] === CR && buf[i + 2] === LF) return { index: i, length: 3 };
  }
  return -1;
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new StompProtocolError('frame headers are not valid UTF-8');
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
