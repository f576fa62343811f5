import { describe, expect, it } from 'vitest';
import { bodyText, frame, header, type StompFrame } from './frame.ts';
import { encodeFrame, FrameDecoder, StompProtocolError } from './frame-codec.ts';

const text = (s: string) => new TextEncoder().encode(s);

function decodeAll(bytes: Uint8Array, side: 'server' | 'client' = 'server'): StompFrame[] {
  return new FrameDecoder(side).push(bytes).frames;
}

describe('STOMP frame codec', () => {
  it.each([
    ['CONNECT', { 'accept-version': '1.2', host: 'localhost', 'heart-beat': '5000,5000' }],
    ['STOMP', { 'accept-version': '1.2', host: 'localhost' }],
    ['SUBSCRIBE', { id: 'sub-0', destination: '/all/messages', ack: 'auto' }],
    ['UNSUBSCRIBE', { id: 'sub-0' }],
    ['SEND', { destination: '/all/messages', 'content-type': 'application/json' }],
    ['ACK', { id: 'm-1' }],
    ['NACK', { id: 'm-1' }],
    ['BEGIN', { transaction: 'tx1' }],
    ['COMMIT', { transaction: 'tx1' }],
    ['ABORT', { transaction: 'tx1' }],
    ['DISCONNECT', { receipt: 'close-1' }],
  ])('round-trips a client %s frame', (command, headers) => {
    const original = frame(command, headers, command === 'SEND' ? '{"a":1}' : undefined);
    const [decoded] = decodeAll(encodeFrame(original));
    expect(decoded?.command).toBe(command);
    for (const [name, value] of Object.entries(headers)) expect(header(decoded!, name)).toBe(value);
    expect(bodyText(decoded!)).toBe(command === 'SEND' ? '{"a":1}' : '');
  });

  it.each(['CONNECTED', 'MESSAGE', 'RECEIPT', 'ERROR'])(
    'round-trips a server %s frame on the client side',
    (command) => {
      const [decoded] = decodeAll(encodeFrame(frame(command, { 'receipt-id': 'r1' }, 'body')), 'client');
      expect(decoded?.command).toBe(command);
      expect(header(decoded!, 'receipt-id')).toBe('r1');
      expect(bodyText(decoded!)).toBe('body');
    },
  );

  it('escapes and unescapes \\n, \\c, \\\\ and \\r in header values', () => {
    const value = 'a:b\nc\\d\re';
    const bytes = encodeFrame(frame('SEND', { destination: '/x', note: value }));
    expect(new TextDecoder().decode(bytes)).toContain('note:a\\cb\\nc\\\\d\\re\n');
    expect(header(decodeAll(bytes)[0]!, 'note')).toBe(value);
  });

  it('leaves CONNECT header values unescaped', () => {
    const bytes = encodeFrame(frame('CONNECT', { passcode: 'a:b' }));
    expect(new TextDecoder().decode(bytes)).toContain('passcode:a:b\n');
    expect(header(decodeAll(bytes)[0]!, 'passcode')).toBe('a:b');
  });

  it('rejects an undefined escape sequence', () => {
    expect(() => decodeAll(text('SEND\ndestination:/a\\tb\n\n\0'))).toThrow(/invalid escape/);
  });

  it('keeps NUL bytes of a body framed by content-length', () => {
    const body = new Uint8Array([1, 0, 2, 0, 255]);
    const [decoded] = decodeAll(encodeFrame(frame('SEND', { destination: '/x' }, body)));
    expect([...decoded!.body]).toEqual([...body]);
  });

  it('uses the first of repeated headers', () => {
    const [decoded] = decodeAll(text('SEND\ndestination:/first\ndestination:/second\n\n\0'));
    expect(header(decoded!, 'destination')).toBe('/first');
  });

  it('accepts CRLF line endings and counts heart-beat EOLs between frames', () => {
    const decoder = new FrameDecoder();
    const { frames, heartbeats } = decoder.push(text('\n\r\nSEND\r\ndestination:/x\r\n\r\nhi\0\n'));
    expect(frames).toHaveLength(1);
    expect(bodyText(frames[0]!)).toBe('hi');
    expect(heartbeats).toBe(3);
  });

  it('decodes the same frames whatever byte boundary the stream is split at', () => {
    const stream = new Uint8Array([
      ...encodeFrame(frame('SUBSCRIBE', { id: 's1', destination: '/all/messages' })),
      ...text('\n'),
      ...encodeFrame(frame('SEND', { destination: '/all/messages' }, new Uint8Array([0, 10, 0]))),
      ...encodeFrame(frame('SEND', { destination: '/all/messages', note: 'x:y' }, 'tail')),
    ]);
    const whole = decodeAll(stream);
    expect(whole.map((f) => f.command)).toEqual(['SUBSCRIBE', 'SEND', 'SEND']);
    for (let cut = 1; cut < stream.length; cut++) {
      const decoder = new FrameDecoder();
      const first = decoder.push(stream.slice(0, cut)).frames;
      const second = decoder.push(stream.slice(cut)).frames;
      expect([...first, ...second]).toEqual(whole);
    }
  });

  it('several frames in one chunk come out in order', () => {
    const chunk = new Uint8Array([
      ...encodeFrame(frame('SEND', { destination: '/a' }, '1')),
      ...encodeFrame(frame('SEND', { destination: '/b' }, '2')),
    ]);
    expect(decodeAll(chunk).map(bodyText)).toEqual(['1', '2']);
  });

  it('waits for the rest of an unterminated frame instead of inventing one', () => {
    const decoder = new FrameDecoder();
    expect(decoder.push(text('SEND\ndestination:/x\n\nno end yet')).frames).toEqual([]);
  });

  it.each([
    ['garbage bytes', new Uint8Array([0xde, 0xad, 0xbe, 0xef, 10, 10, 0])],
    ['an unknown command', text('HELLO\n\n\0')],
    ['a server command sent by a client', text('MESSAGE\ndestination:/x\n\n\0')],
    ['a header without a colon', text('SEND\nnocolon\n\n\0')],
    ['a non-numeric content-length', text('SEND\ncontent-length:12a\n\n\0')],
    ['content-length bytes not followed by NUL', text('SEND\ncontent-length:1\n\nab\0')],
  ])('refuses %s', (_, bytes) => {
    expect(() => decodeAll(bytes)).toThrow(StompProtocolError);
  });

  it('refuses 1 MB of headers before buffering it all', () => {
    const decoder = new FrameDecoder();
    const huge = text(`SEND\nx:${'a'.repeat(1024 * 1024)}`);
    expect(() => decoder.push(huge)).toThrow(/headers exceed/);
  });

  it('refuses a body over the limit, announced or not', () => {
    const limits = { maxHeaderBytes: 1024, maxHeaders: 8, maxBodyBytes: 16 };
    expect(() => new FrameDecoder('server', limits).push(text('SEND\ncontent-length:17\n\n'))).toThrow(/body exceeds/);
    expect(() => new FrameDecoder('server', limits).push(text(`SEND\n\n${'b'.repeat(17)}`))).toThrow(/body exceeds/);
  });

  it('refuses too many headers', () => {
    const lines = Array.from({ length: 65 }, (_, i) => `h${i}:v`).join('\n');
    expect(() => decodeAll(text(`SEND\n${lines}\n\n\0`))).toThrow(/more than 64 headers/);
  });
});
