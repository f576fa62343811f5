import type { AddressInfo } from 'node:net';
import { PATHS } from '@sextant/api';
import { Client, type IMessage } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ADMIN_PASSWORD, buildTestApp, signIn } from '../support/build-test-app.ts';

/** A @stomp/stompjs client subscribed to both destinations, keeping what arrives on each. */
async function listener(url: string, token: string) {
  const got: Record<string, { id: string }[]> = { '/all/messages': [], '/user/queue/messages': [] };
  const waiters: (() => void)[] = [];
  const client = new Client({
    webSocketFactory: () => new WebSocket(url, ['v12.stomp']),
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
  });
  await new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onStompError = (frame) => reject(new Error(frame.headers.message));
    client.activate();
  });
  for (const destination of Object.keys(got)) {
    const ready = new Promise<void>((resolve) => client.watchForReceipt(destination, () => resolve()));
    client.subscribe(
      destination,
      (m: IMessage) => {
        got[destination]?.push(JSON.parse(m.body));
        for (const wake of waiters.splice(0)) wake();
      },
      { receipt: destination },
    );
    await ready;
  }
  const waitFor = async (destination: string, id: string) => {
    while (!got[destination]?.some((m) => m.id === id)) await new Promise<void>((wake) => waiters.push(wake));
  };
  return { client, got, waitFor };
}

describe('publish() delivers through the STOMP endpoint', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let url: string;
  let adminToken: string;
  let carolToken: string;
  let carolId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
    const admin = await signIn(t.app, 'admin', ADMIN_PASSWORD);
    adminToken = admin.accessToken;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin.headers,
      payload: { username: 'carol', email: 'carol@example.com', role: 'client', password: 'carol-password' },
    });
    carolId = created.json().data.id;
    carolToken = (await signIn(t.app, 'carol', 'carol-password')).accessToken;
  }, 60_000);
  afterAll(async () => t?.close());

  it('pushes report progress with its fields to its readers, a notice to everyone, a personal one to its user only', async () => {
    const admin = await listener(url, adminToken);
    const carol = await listener(url, carolToken);
    const res = await t.app.inject({
      method: 'POST',
      url: PATHS.messages,
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { id: 'p1', title: 'Clone failed', text: 'no such ref', report_id: 'r9', status: 'CLONE_FAIL' },
    });
    const published = res.json().data;
    await admin.waitFor('/all/messages', 'p1');
    expect(admin.got['/all/messages']?.find((m) => m.id === 'p1')).toEqual(published);
    expect(published).toMatchObject({ report_id: 'r9', status: 'CLONE_FAIL', readed: false, hidded: false });

    await t.app.messages.publish({ id: 'mine', title: 'For Carol', message_type: 'NOTICE', userId: carolId });
    await t.app.messages.publish({ id: 'end', title: 'everyone', message_type: 'NOTICE' });
    await Promise.all([
      carol.waitFor('/user/queue/messages', 'mine'),
      carol.waitFor('/all/messages', 'end'),
      admin.waitFor('/all/messages', 'end'),
    ]);
    expect(admin.got['/user/queue/messages']).toEqual([]);
    // a client (no Report read) gets the notice and not the report's progress
    expect(carol.got['/all/messages']?.map((m) => m.id)).toEqual(['end']);
    await Promise.all([admin.client.deactivate(), carol.client.deactivate()]);
  });
});
