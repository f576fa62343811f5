import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { signIn } from '../support/build-test-app.ts';
import { stompListener, useTwoTeams } from './support.ts';

// Issue 32, finding 5: each delivery checks the subscriber's current rights; revocation ends the socket.
describe('what a socket receives, and for how long', () => {
  // Long enough for a client on two busy cores to send CONNECT (300 ms was not, on PostgreSQL in CI).
  const t = useTwoTeams({ recheckMs: 100, connectTimeoutMs: 2000 });
  const progress = (reportId: string, id: string, text = 'make: *** [all] Error 2') =>
    t.app.messages.publish({ id, report_id: reportId, status: 'COMPILE_FAIL', title: `${id} failed`, text });
  const notice = (id: string) => t.app.messages.publish({ id, title: 'maintenance at noon', message_type: 'NOTICE' });

  it('gives report progress (build output) to readers of that team only, notices to everyone', async () => {
    const [dev, other, visitor, admin] = await Promise.all([
      stompListener(t.url, t.dev.token),
      stompListener(t.url, t.other.token),
      stompListener(t.url, t.visitor.token),
      stompListener(t.url, t.admin.token),
    ]);
    await progress(t.checkout.reportId, 'shop-1');
    await progress(t.invoices.reportId, 'billing-1');
    // an agent's heart-beat under its app's id belongs to that app's team as well
    await t.app.messages.publish({ id: 'beat-1', report_id: t.invoices.id, agent_id: 'a', status: 'HEART_BEAT_DONE' });
    await notice('notice-1');
    await Promise.all([dev, other, visitor, admin].map((l) => l.waitFor('notice-1')));
    // one socket delivers in order: what came before the notice has arrived
    expect(dev.ids()).toEqual(['shop-1', 'notice-1']);
    expect(other.ids()).toEqual(['billing-1', 'beat-1', 'notice-1']);
    expect(visitor.ids()).toEqual(['notice-1']);
    expect(admin.ids()).toEqual(['shop-1', 'billing-1', 'beat-1', 'notice-1']);
    await Promise.all([dev, other, visitor, admin].map((l) => l.client.deactivate()));
  });

  it('ends the socket of a user disabled after connecting: ERROR frame, then close', async () => {
    const gone = await t.createUser('gone', 'developer');
    const listener = await stompListener(t.url, gone.token);
    const res = await t.call('PATCH', `/api/users/${gone.id}`, { enabled: false });
    expect(res.statusCode, res.body).toBe(200);
    await listener.closed;
    expect(listener.errors).toEqual(['this sign-in is no longer valid']);
  });

  it('ends the socket of a user whose role loses Report read, or who leaves the team', async () => {
    const demoted = await t.createUser('demoted', 'developer');
    const member = await t.createUser('member', 'developer');
    const team = await t.call('PATCH', `/api/teams/${t.checkout.teamId}`, { memberIds: [t.dev.id, member.id] });
    expect(team.statusCode, team.body).toBe(200);
    const [onDemoted, onMember] = await Promise.all([
      stompListener(t.url, demoted.token),
      stompListener(t.url, member.token),
    ]);
    expect((await t.call('PATCH', `/api/users/${demoted.id}`, { role: 'client' })).statusCode).toBe(200);
    await onDemoted.closed;
    expect(onDemoted.errors).toEqual(['your rights changed; connect again']);

    await progress(t.checkout.reportId, 'shop-2');
    await onMember.waitFor('shop-2');
    expect((await t.call('PATCH', `/api/teams/${t.checkout.teamId}`, { memberIds: [t.dev.id] })).statusCode).toBe(200);
    await onMember.closed;
    expect(onMember.errors).toEqual(['your rights changed; connect again']);
  });

  it('ends the socket of a session signed out (the access token it was opened with ends too)', async () => {
    const leaving = await t.createUser('leaving', 'developer');
    const session = await signIn(t.app, 'leaving', 'leaving-password');
    const [onSignedOut, onOtherSession] = await Promise.all([
      stompListener(t.url, session.accessToken),
      stompListener(t.url, leaving.token),
    ]);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/jwt/logout',
      headers: session.headers,
      payload: { refreshToken: session.refreshToken },
    });
    expect(out.statusCode, out.body).toBe(200);
    await onSignedOut.closed;
    expect(onSignedOut.errors).toEqual(['this sign-in is no longer valid']);
    // the same user's other session keeps its socket
    await notice('notice-3');
    await onOtherSession.waitFor('notice-3');
    await onOtherSession.client.deactivate();
  });

  it('closes a socket that never sends CONNECT', async () => {
    const socket = new WebSocket(t.url, ['v12.stomp']);
    const received: string[] = [];
    socket.on('message', (data) => received.push(data.toString()));
    await once(socket, 'open');
    await once(socket, 'close');
    expect(received.join('')).toMatch(/^ERROR\n[\s\S]*no CONNECT within 2000 ms/);
  });

  it('closes a socket that sends more than a few KB before CONNECT', async () => {
    const socket = new WebSocket(t.url, ['v12.stomp']);
    const received: string[] = [];
    socket.on('message', (data) => received.push(data.toString()));
    await once(socket, 'open');
    // an unfinished frame that would sit in the decoder's buffer, well under the signed-in header limit
    socket.send(`CONNECT\naccept-version:1.2\nx:${'a'.repeat(9 * 1024)}`);
    await once(socket, 'close');
    expect(received.join('')).toMatch(/^ERROR\n[\s\S]*bytes before CONNECT/);
  });
});
