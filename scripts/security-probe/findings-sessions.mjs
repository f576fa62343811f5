// Finding 7 of issue 32: sessions, attempt limits, reset links, registration.
import { call, must, signIn } from './client.mjs';

const refused = (res) => res.status >= 400 && res.status < 500;

async function otherSessionAfterPasswordChange(ctx, user) {
  const other = await signIn(ctx.base, user.username, user.password);
  const newPassword = `${user.password}-2`;
  await must(ctx.base, 'POST', '/api/me/password', {
    token: user.accessToken,
    body: { currentPassword: user.password, newPassword },
  });
  user.password = newPassword;
  const res = await call(ctx.base, 'POST', '/api/refreshToken', { body: { refreshToken: other.refreshToken } });
  return { ok: res.status === 401, text: `other session's refresh after a password change: ${res.status}` };
}

async function olderResetLink(ctx, user) {
  const path = `/api/users/${user.id}/resetLink`;
  const older = await must(ctx.base, 'POST', path, { token: ctx.admin.accessToken });
  const newer = await must(ctx.base, 'POST', path, { token: ctx.admin.accessToken });
  user.password = `${user.password}-3`;
  await must(ctx.base, 'POST', '/api/resetPassword', { body: { token: newer.token, password: user.password } });
  const res = await call(ctx.base, 'POST', '/api/resetPassword', {
    body: { token: older.token, password: `${user.password}-4` },
  });
  if (res.status < 400) user.password = `${user.password}-4`;
  return { ok: refused(res), text: `older reset link after a newer one was used: ${res.status}` };
}

async function passwordAttempts(ctx, user) {
  const session = await signIn(ctx.base, user.username, user.password);
  const statuses = [];
  for (let i = 0; i < 15 && !statuses.includes(429); i++) {
    const res = await call(ctx.base, 'POST', '/api/me/password', {
      token: session.accessToken,
      body: { currentPassword: `wrong-${i}`, newPassword: `${user.password}-never` },
    });
    statuses.push(res.status);
  }
  const limited = statuses.includes(429);
  return {
    ok: limited,
    text: `${statuses.length} wrong current passwords: ${limited ? '429' : `never 429 (${statuses.at(-1)})`}`,
  };
}

const register = (ctx, username, email) =>
  call(ctx.base, 'POST', '/api/jwt/register', { body: { username, email, reason: 'security probe (throw-away)' } });

async function registration(ctx, user) {
  ctx.fixtures.rejectApplicationsLater();
  const taken = await register(ctx, user.username, `${ctx.prefix}-taken@example.invalid`);
  const fresh = await register(ctx, `${ctx.prefix}-fresh`, `${ctx.prefix}-fresh@example.invalid`);
  const tells = taken.status !== fresh.status || taken.json?.message !== fresh.json?.message;
  const lookalikes = [];
  for (const [name, label] of [
    ['Admin', 'Admin'],
    ['admin\u200b', 'admin+U+200B'],
  ]) {
    const res = await register(ctx, name, `${ctx.prefix}-${lookalikes.length}-look@example.invalid`);
    const listed = await call(
      ctx.base,
      'GET',
      `/api/applications?status=pending&q=${ctx.prefix}-${lookalikes.length}-look`,
      {
        token: ctx.admin.accessToken,
      },
    );
    lookalikes.push({ name: label, res, kept: (listed.json?.data?.total ?? 0) > 0 });
  }
  const burst = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      register(ctx, `${ctx.prefix}-burst${i}`, `${ctx.prefix}-burst${i}@example.invalid`),
    ),
  );
  const limited = burst.filter((r) => r.status === 429).length;
  // The applicant must learn why a name cannot be requested (the specification's "This username is
  // already in use."), as GitLab's sign-up tells it too: what keeps a stranger from listing the
  // accounts that way is a hard limit per network, so at most a third of a burst may get through.
  const boundedEnumeration = limited >= 20;
  return {
    ok: (!tells || boundedEnumeration) && limited > 0 && lookalikes.every((l) => !l.kept),
    text:
      `registration ${tells ? `tells a taken name (${taken.status} vs ${fresh.status}), ${boundedEnumeration ? 'bounded by the limit per network' : 'without a limit that bounds it'}` : 'does not tell taken names'}; ` +
      lookalikes.map((l) => `${l.name} ${l.kept ? 'accepted' : `not kept (${l.res.status})`}`).join(', ') +
      `; 30 at once: ${limited} × 429`,
  };
}

export const sessions = {
  id: 7,
  title: 'sessions, attempt limits, reset links, registration',
  timeoutMs: 90_000,
  async run(ctx) {
    const user = await ctx.fixtures.user('sessions', 'developer');
    const results = [];
    for (const check of [otherSessionAfterPasswordChange, olderResetLink, passwordAttempts, registration]) {
      results.push(await check(ctx, user));
    }
    return { pass: results.every((r) => r.ok), observed: results.map((r) => r.text).join('; ') };
  },
};
