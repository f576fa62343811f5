import { randomBytes } from 'node:crypto';
import { type AddressInfo, connect } from 'node:net';
import { Client, type IMessage } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ADMIN_PASSWORD, buildTestApp } from './support/build-test-app.ts';

describe('/ws on the running server', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let url: string;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    token = login.json().data.accessToken;
  }, 60_000);
  afterAll(async () => t?.close());

  const connect = (c: Client) =>
    new Promise<void>((resolve, reject) => {
      c.onConnect = () => resolve();
      c.onStompError = (frame) => reject(new Error(frame.headers.message));
      c.activate();
    });
  const client = (bearer: string) =>
    new Client({
      webSocketFactory: () => new WebSocket(url, ['v12.stomp']),
      connectHeaders: { Authorization: `Bearer ${bearer}` },
      reconnectDelay: 0,
    });

  it('accepts a signed-in client and delivers what the server publishes on /all/messages', async () => {
    const c = client(token);
    await connect(c);
    const ready = new Promise<void>((resolve) => c.watchForReceipt('subscribed', () => resolve()));
    const received = new Promise<IMessage>((resolve) =>
      c.subscribe('/all/messages', resolve, { receipt: 'subscribed' }),
    );
    await ready;
    await t.app.broker.publish({
      destination: '/all/messages',
      body: new TextEncoder().encode(JSON.stringify({ title: 'Report ready', message_type: 'REPORT' })),
      headers: { 'content-type': 'application/json' },
      audience: 'everyone',
    });
    expect(JSON.parse((await received).body)).toEqual({ title: 'Report ready', message_type: 'REPORT' });
    await c.deactivate();
  });

  it('refuses a forged token with a STOMP ERROR', async () => {
    const c = client(`${token.slice(0, -4)}AAAA`);
    const error = await new Promise<string>((resolve) => {
      c.onStompError = (frame) => resolve(frame.headers.message ?? '');
      c.onConnect = () => resolve('connected');
      c.activate();
    });
    expect(error).not.toBe('connected');
    await c.deactivate();
  });

  it('refuses the still-valid token of an account that was disabled', async () => {
    const admin = { authorization: `Bearer ${token}` };
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: { username: 'gone', email: 'gone@example.test', role: 'client', password: 'gone-password' },
    });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'gone', password: 'gone-password' },
    });
    const goneToken = login.json().data.accessToken;
    await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${created.json().data.id}`,
      headers: admin,
      payload: { enabled: false },
    });
    const c = client(goneToken);
    const outcome = await new Promise<string>((resolve) => {
      c.onStompError = () => resolve('refused');
      c.onConnect = () => resolve('connected');
      c.activate();
    });
    expect(outcome).toBe('refused');
    await c.deactivate();
  });
});

describe('/ws and the lifetime of the access token it was opened with', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    t = await buildTestApp({ accessTokenTtl: 4 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => t?.close());

  it('ends the socket with an ERROR frame once the token expires (the client connects again with a fresh one)', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    const c = new Client({
      webSocketFactory: () =>
        new WebSocket(`ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`, ['v12.stomp']),
      connectHeaders: { Authorization: `Bearer ${login.json().data.accessToken}` },
      reconnectDelay: 0,
    });
    const errors: string[] = [];
    const closed = new Promise<void>((resolve) => (c.onWebSocketClose = () => resolve()));
    await new Promise<void>((resolve, reject) => {
      c.onConnect = () => resolve();
      c.onStompError = (frame) => reject(new Error(frame.headers.message));
      c.activate();
    });
    c.onStompError = (frame) => errors.push(frame.headers.message ?? '');
    await closed;
    expect(errors).toEqual(['the access token expired; connect again with a fresh one']);
  });
});

describe('/ws when the server shuts down', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);

  // Without the server ending such a socket, app.close() waits for ws's 30 s close timeout, past this
  // test's limit (and past the 30 s a shutting-down process allows itself, so it would exit with 1).
  it('ends the socket of a client that never answers the close handshake (a frozen tab)', async () => {
    const socket = connect((t.app.server.address() as AddressInfo).port, '127.0.0.1');
    const answer = new Promise<string>((resolve) => socket.once('data', (data) => resolve(data.toString('latin1'))));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // A bare WebSocket upgrade; after it this client neither reads frames nor sends any.
    socket.write(
      [
        'GET /ws HTTP/1.1',
        'Host: 127.0.0.1',
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Protocol: v12.stomp',
        '',
        '',
      ].join('\r\n'),
    );
    expect((await answer).split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
    await t.close();
    await ended;
    expect(socket.destroyed).toBe(true);
  }, 20_000);
});
