// Findings 3 (self-promotion), 4 (message spoofing) and 5 (the socket ignores rights) of issue 32.
import { call, closesWithin, frame, openSocket } from './client.mjs';

const refused = (res) => res.status >= 400 && res.status < 500;

export const selfPromotion = {
  id: 3,
  title: 'no self-promotion, no reset link for a stronger account',
  async run(ctx) {
    const role = await ctx.fixtures.role('user-editor', [
      { action: 'read', resource: 'User' },
      { action: 'update', resource: 'User' },
    ]);
    const editor = await ctx.fixtures.user('editor', role);
    const promote = await call(ctx.base, 'PATCH', `/api/users/${editor.id}`, {
      token: editor.accessToken,
      body: { role: 'admin' },
    });
    const link = await call(ctx.base, 'POST', `/api/users/${ctx.admin.userId}/resetLink`, {
      token: editor.accessToken,
    });
    return {
      pass: refused(promote) && refused(link),
      observed: `PATCH own role to admin: ${promote.status}; reset link for the admin: ${link.status}`,
    };
  },
};

export const messageSpoofing = {
  id: 4,
  title: 'only the server, agents and admins publish messages',
  async run(ctx) {
    const developer = await ctx.fixtures.user('developer', 'developer');
    const res = await call(ctx.base, 'POST', '/api/messages', {
      token: developer.accessToken,
      body: {
        title: `${ctx.prefix}: spoofed result (security probe, ignore)`,
        text: 'security probe',
        status: 'SUCCESS',
        report_id: ctx.prefix,
        agent_id: `${ctx.prefix}-agent`,
        ip: '203.0.113.7',
      },
    });
    return { pass: refused(res), observed: `POST /api/messages as a developer: ${res.status}` };
  },
};

const idleSocketLimitMs = 10_000;

/** Opened at the start of the run, so that its wait overlaps the other findings. */
export async function openIdleSockets(ctx) {
  const silent = await openSocket(ctx.base);
  const oversized = await openSocket(ctx.base);
  oversized.ws.send(`CONNECT\n${'x'.repeat(64 * 1024)}`);
  return { silent, oversized };
}

export const socketRights = {
  id: 5,
  title: 'the socket checks rights, revocation and CONNECT',
  timeoutMs: 60_000,
  async run(ctx) {
    const client = await ctx.fixtures.user('client', 'client');
    const socket = await openSocket(ctx.base);
    socket.ws.send(
      frame('CONNECT', { 'accept-version': '1.2', host: 'sextant', Authorization: `Bearer ${client.accessToken}` }),
    );
    socket.ws.send(frame('SUBSCRIBE', { id: 'probe', destination: '/all/messages' }));
    const marker = `${ctx.prefix}-progress`;
    // What a report's progress looks like; an administrator may still publish after the fix.
    await call(ctx.base, 'POST', '/api/messages', {
      token: ctx.admin.accessToken,
      body: { title: marker, text: 'security probe', status: 'CLONING', report_id: ctx.prefix },
    });
    const received = await new Promise((resolve) => {
      const started = Date.now();
      const poll = setInterval(() => {
        const got = socket.frames.some((f) => f.startsWith('MESSAGE') && f.includes(marker));
        if (got || Date.now() - started > 3000) {
          clearInterval(poll);
          resolve(got);
        }
      }, 100);
    });
    await call(ctx.base, 'PATCH', `/api/users/${client.id}`, {
      token: ctx.admin.accessToken,
      body: { enabled: false },
    });
    const revoked = await closesWithin(socket, 10_000);
    socket.ws.terminate();
    const { silent, oversized } = ctx.idleSockets;
    const silentLeft = Math.max(0, idleSocketLimitMs + 5000 - (performance.now() - silent.openedAt));
    const silentClosed = await closesWithin(silent, silentLeft);
    const oversizedClosed = await closesWithin(oversized, 1000);
    silent.ws.terminate();
    oversized.ws.terminate();
    const seconds = (s) => (s.closedAt ? `${((s.closedAt - s.openedAt) / 1000).toFixed(1)} s` : 'open');
    return {
      pass: !received && revoked && silentClosed && oversizedClosed,
      observed:
        `client without Report right ${received ? 'received' : 'did not receive'} report progress; ` +
        `disabled user's socket ${revoked ? 'closed' : 'still open after 10 s'}; ` +
        `socket without CONNECT: ${seconds(silent)}; 64 KB before CONNECT: ${seconds(oversized)}`,
    };
  },
};
