import { CONNECTION_TEST_MESSAGE, type Message, MessageSchema, PATHS, WS_HEARTBEAT_MS } from '@sextant/api';
import { Client, type IFrame, ReconnectionTimeMode } from '@stomp/stompjs';

/** The message connection of specification point 4 (also read as simply connected or not). */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'error';

export const BROADCAST_DESTINATION = '/all/messages';
export const USER_DESTINATION = '/user/queue/messages';

export type MessageConnectionOptions = {
  /** The current access token, read on every (re)connect so a refreshed token is used. */
  token: () => string | null;
  onMessage: (message: Message, destination: string) => void;
  onState: (state: ConnectionState, error?: string) => void;
  /** CONNECT was refused: the token may have expired; refresh it before the next attempt. */
  onRefused?: () => Promise<void>;
  url?: string;
  /** Client override for tests outside a browser (e.g. a `ws` WebSocket factory). */
  webSocketFactory?: () => WebSocket;
};

const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;

export function socketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${PATHS.ws}`;
}

/** A message body without an id takes the one in the MESSAGE frame's header (specification point 3). */
export function parseMessage(body: string, headerId: string | undefined): Message | null {
  try {
    const raw = JSON.parse(body) as Record<string, unknown>;
    const parsed = MessageSchema.safeParse({
      title: '',
      text: '',
      date: new Date().toISOString(),
      readed: false,
      hidded: false,
      ...raw,
      id: raw.id ?? headerId,
    });
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Opens the STOMP connection (heart-beats every 5000 ms, point 9). On every open it re-subscribes to
 * both destinations and sends the connection test (point 7); it reconnects with doubling delays.
 */
export function openMessageConnection(options: MessageConnectionOptions): { stop: () => Promise<void> } {
  let refused = false;
  const client = new Client({
    heartbeatIncoming: WS_HEARTBEAT_MS,
    heartbeatOutgoing: WS_HEARTBEAT_MS,
    reconnectDelay: FIRST_RETRY_MS,
    maxReconnectDelay: LAST_RETRY_MS,
    reconnectTimeMode: ReconnectionTimeMode.EXPONENTIAL,
    ...(options.webSocketFactory
      ? { webSocketFactory: options.webSocketFactory }
      : { brokerURL: options.url ?? socketUrl() }),
  });
  client.beforeConnect = async () => {
    if (refused) {
      refused = false;
      await options.onRefused?.();
    }
    client.connectHeaders = { Authorization: `Bearer ${options.token() ?? ''}` };
    options.onState('connecting');
  };
  client.onConnect = () => {
    for (const destination of [BROADCAST_DESTINATION, USER_DESTINATION]) {
      client.subscribe(destination, (frame) => {
        const message = parseMessage(frame.body, frame.headers['message-id']);
        if (message) options.onMessage(message, destination);
      });
    }
    client.publish({
      destination: BROADCAST_DESTINATION,
      body: JSON.stringify({ ...CONNECTION_TEST_MESSAGE, date: new Date().toISOString() }),
      headers: { 'content-type': 'application/json' },
    });
    options.onState('open');
  };
  client.onStompError = (frame: IFrame) => {
    refused = true;
    options.onState('error', frame.headers.message ?? 'The message server refused the connection.');
  };
  client.onWebSocketError = () => options.onState('error', 'The message connection failed.');
  client.onWebSocketClose = () => {
    if (!refused) options.onState('closed');
  };
  client.activate();
  return { stop: () => client.deactivate() };
}
