import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Client, type IMessage } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { BROADCAST_DESTINATION, Broker, USER_DESTINATION } from './broker.ts';
import { serveStomp } from './ws-endpoint.ts';

// A real @stomp/stompjs client over a real WebSocket against the session and broker.
// Tokens are resolved by a table here; the server's JWT check plugs into the same `authenticate`.
const USERS: Record<string, string> = { 'token-alice': 'alice', 'token-bob': 'bob' };
const broker = new Broker();
let server: WebSocketServer;
let url: string;

beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
  server.on('connection', (socket) =>
    serveStomp(socket, {
      broker,
      authenticate: async (token) => {
        const userId = USERS[token];
        return userId ? { userId, mayRead: () => true, mayReceive: () => true, recheck: async () => null } : null;
      },
      heartbeat: { sendMs: 50, expectMs: 50 },
      maxSubscriptions: 8,
    }),
  );
});
afterAll(() => server.close());

function client(token: string | null, extra: Partial<ConstructorParameters<typeof Client>[0]> = {}): Client {
  return new Client({
    webSocketFactory: () => new WebSocket(url, ['v12.stomp']),
    connectHeaders: token ? { Authorization: `Bearer ${token}` } : {},
    reconnectDelay: 0,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
    ...extra,
  });
}

function connected(c: Client): Promise<void> {
  return new Promise((resolve, reject) => {
    c.onConnect = () => resolve();
    c.onStompError = (f) => reject(new Error(f.headers.message));
    c.activate();
  });
}

/** Subscribes with a receipt, so `ready` resolves once the server holds the subscription. */
function subscribedMessage(c: Client, destination: string): { ready: Promise<void>; received: Promise<IMessage> } {
  const receipt = `ready-${destination}-${Math.random()}`;
  const ready = new Promise<void>((resolve) => c.watchForReceipt(receipt, () => resolve()));
  const received = new Promise<IMessage>((resolve) => c.subscribe(destination, resolve, { receipt }));
  return { ready, received };
}

function rawSocket(): Promise<{ socket: WebSocket; received: string[] }> {
  const socket = new WebSocket(url, ['v12.stomp']);
  const received: string[] = [];
  socket.on('message', (d) => received.push(d.toString()));
  return once(socket, 'open').then(() => ({ socket, received }));
}

describe('STOMP session with @stomp/stompjs', () => {
  it('connects with a token, subscribes and receives a published report-progress message', async () => {
    const c = client('token-alice');
    await connected(c);
    const message = subscribedMessage(c, BROADCAST_DESTINATION);
    await message.ready;
    const body = { report_id: 'r1', status: 'SUCCESS', title: 'Report done' };
    await broker.publish({
      destination: BROADCAST_DESTINATION,
      body: new TextEncoder().encode(JSON.stringify(body)),
      headers: {},
      audience: 'everyone',
    });
    const received = await message.received;
    expect(JSON.parse(received.body)).toEqual(body);
    expect(received.headers['message-id']).toBeTruthy();
    expect(received.headers.subscription).toBeTruthy();
    await c.deactivate();
  });

  it('refuses a client without a valid token', async () => {
    const c = client(null);
    await expect(connected(c)).rejects.toThrow(/valid access token/);
    await c.deactivate();
    const forged = client('token-mallory');
    await expect(connected(forged)).rejects.toThrow(/valid access token/);
    await forged.deactivate();
  });

  it('answers the connection test to the sender only', async () => {
    const alice = client('token-alice');
    const bob = client('token-bob');
    await Promise.all([connected(alice), connected(bob)]);
    const bobGot: IMessage[] = [];
    bob.subscribe(BROADCAST_DESTINATION, (m) => bobGot.push(m));
    const echo = subscribedMessage(alice, BROADCAST_DESTINATION);
    await echo.ready;
    const receipt = new Promise<void>((resolve) => alice.watchForReceipt('test-1', () => resolve()));
    alice.publish({
      destination: BROADCAST_DESTINATION,
      body: JSON.stringify({ message_type: 'CONNECTION_TEST' }),
      headers: { receipt: 'test-1' },
    });
    await receipt;
    expect(JSON.parse((await echo.received).body)).toEqual({ message_type: 'CONNECTION_TEST' });
    // bob's receipt for a later frame proves every earlier frame for bob was already delivered
    const bobSync = new Promise<void>((resolve) => bob.watchForReceipt('sync', () => resolve()));
    bob.subscribe(USER_DESTINATION, () => {}, { receipt: 'sync' });
    await bobSync;
    expect(bobGot).toEqual([]);
    await Promise.all([alice.deactivate(), bob.deactivate()]);
  });

  it('delivers a user-queue message to that user only', async () => {
    const alice = client('token-alice');
    const bob = client('token-bob');
    await Promise.all([connected(alice), connected(bob)]);
    const bobGot: IMessage[] = [];
    bob.subscribe(USER_DESTINATION, (m) => bobGot.push(m));
    const aliceMessage = subscribedMessage(alice, USER_DESTINATION);
    const bobSync = subscribedMessage(bob, BROADCAST_DESTINATION);
    await Promise.all([aliceMessage.ready, bobSync.ready]);
    await broker.publish({
      destination: USER_DESTINATION,
      userId: 'alice',
      body: new TextEncoder().encode('for alice'),
      headers: {},
      audience: 'everyone',
    });
    expect((await aliceMessage.received).body).toBe('for alice');
    expect(bobGot).toEqual([]);
    await Promise.all([alice.deactivate(), bob.deactivate()]);
  });

  it('refuses publishing to the broadcast destination and unknown destinations', async () => {
    const c = client('token-alice');
    await connected(c);
    const error = new Promise<string>((resolve) => (c.onStompError = (f) => resolve(f.headers.message ?? '')));
    c.publish({ destination: BROADCAST_DESTINATION, body: '{"message_type":"SUCCESS"}' });
    expect(await error).toMatch(/may not publish/);
    await c.deactivate();
  });

  it('sends heart-beats when negotiated and keeps a heart-beating client', async () => {
    let pongs = 0;
    let tenPongs: () => void = () => {};
    const heardTen = new Promise<void>((resolve) => (tenPongs = resolve));
    const c = client('token-alice', {
      heartbeatIncoming: 50,
      heartbeatOutgoing: 50,
      // stompjs logs each server heart-beat as '<<< PONG' and drops the socket when they stop
      debug: (line) => {
        if (line.includes('<<< PONG') && ++pongs === 10) tenPongs();
      },
    });
    await connected(c);
    await heardTen;
    expect(c.connected).toBe(true);
    await c.deactivate();
  });

  it('drops a silent client after the negotiated interval', async () => {
    const { socket } = await rawSocket();
    socket.send('CONNECT\naccept-version:1.2\nhost:x\nAuthorization:Bearer token-alice\nheart-beat:50,0\n\n\0');
    const [code] = await once(socket, 'close');
    expect(typeof code).toBe('number');
  });

  it('refuses 10,000 subscriptions from one connection and keeps serving others', async () => {
    const { socket, received } = await rawSocket();
    socket.send('CONNECT\naccept-version:1.2\nhost:x\nAuthorization:Bearer token-alice\n\n\0');
    await once(socket, 'message');
    let frames = '';
    for (let i = 0; i < 10_000; i++) frames += `SUBSCRIBE\nid:${i}\ndestination:/all/messages\n\n\0`;
    socket.send(frames);
    await once(socket, 'close');
    expect(received.join('')).toMatch(/ERROR\n[\s\S]*at most 8 subscriptions/);
    const other = client('token-bob');
    await connected(other);
    expect(other.connected).toBe(true);
    await other.deactivate();
  });

  it.each([
    ['garbage bytes', Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x0a, 0x0a, 0x00])],
    ['1 MB of headers', Buffer.from(`SEND\nx:${'a'.repeat(1024 * 1024)}\n\n\0`)],
  ])('answers %s with ERROR and closes, serving others', async (_, bytes) => {
    const { socket, received } = await rawSocket();
    socket.send(bytes);
    await once(socket, 'close');
    expect(received.join('')).toMatch(/^ERROR\n/);
    const other = client('token-bob');
    await connected(other);
    await other.deactivate();
  });
});
