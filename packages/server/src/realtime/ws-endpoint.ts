import type { WebSocket } from 'ws';
import { type SessionOptions, StompSession } from './stomp/session.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isText(bytes: Uint8Array): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a STOMP session on a WebSocket. Frames that are valid UTF-8 go as text messages; others as
 * binary, because a binary body sent as text is corrupted and desynchronises the client's parser.
 */
export function serveStomp(socket: WebSocket, options: SessionOptions): StompSession {
  const session = new StompSession(
    {
      send: (data) => {
        if (socket.readyState === socket.OPEN) socket.send(data, { binary: !isText(data) });
      },
      close: () => socket.close(),
    },
    options,
  );
  socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
    const chunks = Array.isArray(data) ? data : [data];
    for (const chunk of chunks) session.receive(chunk instanceof ArrayBuffer ? new Uint8Array(chunk) : chunk);
  });
  socket.on('close', () => session.dispose());
  socket.on('error', () => session.dispose());
  return session;
}
