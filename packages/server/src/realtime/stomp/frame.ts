/** A STOMP 1.2 frame. Header order is kept; on repeated names the first one wins (STOMP 1.2 §"Repeated Header Entries"). */
export type StompFrame = {
  command: string;
  headers: [name: string, value: string][];
  body: Uint8Array;
};

export const CLIENT_COMMANDS = new Set([
  'CONNECT',
  'STOMP',
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'DISCONNECT',
]);
export const SERVER_COMMANDS = new Set(['CONNECTED', 'MESSAGE', 'RECEIPT', 'ERROR']);

export function header(frame: StompFrame, name: string): string | undefined {
  for (const [key, value] of frame.headers) if (key === name) return value;
  return undefined;
}

export function frame(
  command: string,
  headers: Record<string, string | number | undefined>,
  body?: string | Uint8Array,
): StompFrame {
  const list: [string, string][] = [];
  for (const [key, value] of Object.entries(headers)) if (value !== undefined) list.push([key, String(value)]);
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : (body ?? new Uint8Array(0));
  return { command, headers: list, body: bytes };
}

export function bodyText(frame: StompFrame): string {
  return new TextDecoder().decode(frame.body);
}
