import { PATHS } from '@sextant/api';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, buildTestApp } from '../../../test/support/build-test-app.ts';
import { auditLogs, roles } from '../../db/schema/index.ts';

/**
 * The sign-in routes as a client calls them: sign in, refresh, sign out, who am I, the user's own
 * sessions, and password reset links (auth/routes.ts, auth/session-routes.ts, users/reset-routes.ts;
 * scripts/mutation.mjs runs this file against each). The rules behind them are checked directly in
 * service.test.ts and auth-rules.test.ts; here, what each route adds: who may call it, what it
 * validates, what it answers, which device it records, and that an ended session stops at once.
 * The app is built in beforeAll, so Stryker runs every test of this file for a mutant of a route's
 * registration; what registration decides comes first, as Stryker stops at the first failure. The
 * clock is held still where a cache (2 s) would otherwise decide the answer.
 *
 * Surviving mutants, each equivalent (`npm run mutation -- packages/server/src/modules/auth/routes.ts`):
 * - in routes.ts, `req.principal?.userData.userid ?? ''` of sign-out and /api/me made
 *   `req.principal.userData…` or `?? "Stryker was here!"`: both routes are `signed-in`, and the
 *   access check sets `req.principal` before any handler of such a route runs (or answers 401), so
 *   the principal is always there and the fallback never used;
 * - in session-routes.ts, likewise `req.principal?.userData.userid` made `req.principal.userData…`
 *   and `if (!id)` made `if (false)` (no coverage for its message): never reached on a signed-in route.
 */

type Pair = { accessToken: string; refreshToken: string; headers: { authorization: string } };

describe('sign-in routes', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Pair;
  const device = (ip: string, agent: string) => ({ remoteAddress: ip, headers: { 'user-agent': agent } });
  const post = (url: string, payload: object, extra: object = {}) =>
    t.app.inject({ method: 'POST', url, payload, ...extra });
  const signIn = async (username: string, password: string, from = device('10.40.0.1', 'Test/1.0')) => {
    const res = await post(PATHS.login, { username, password }, from);
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { accessToken: string; refreshToken: string };
    return { ...data, headers: { authorization: `Bearer ${data.accessToken}` } };
  };
  const me = (headers: object = {}) => t.app.inject({ url: PATHS.me, headers: headers as Record<string, string> });
  const sessions = async (headers: object) => {
    const res = await t.app.inject({ url: PATHS.mySessions, headers: headers as Record<string, string> });
    expect([res.statusCode, res.json().message]).toEqual([200, 'OK']);
    return res.json().data as { id: string; ip: string; userAgent: string; current: boolean }[];
  };
  /** The client's error envelope, reduced to what a caller branches on. */
  const refusal = (res: { statusCode: number; json: () => { data?: { error?: string } } }) => [
    res.statusCode,
    res.json().data?.error,
  ];
  const newUser = async (username: string, role = 'developer') => {
    const res = await post(
      PATHS.users,
      { username, email: `${username}@example.test`, role, password: `${username}-password` },
      { headers: admin.headers },
    );
    expect(res.statusCode).toBe(200);
    return res.json().data.id as string;
  };
  /** Holds Date.now() still, so the principal caches neither expire nor hide an ended session. */
  const holdClock = () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now());
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signIn('admin', ADMIN_PASSWORD);
  }, 120_000);
  afterAll(async () => t?.close());
  afterEach(() => vi.useRealTimers());

  it('files each route under its tag in the API docs, with the fields of its answer', async () => {
    type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[] };
    type Operation = {
      tags?: string[];
      responses?: { 200?: { content?: { 'application/json'?: { schema?: Schema } } } };
    };
    const docs = (await t.app.inject({ url: `${PATHS.docs}/json` })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    /** The operation's tags, and what its 200 answer's `data` holds: null, an object's or a list's fields. */
    const documented = (path: string, method: string) => {
      const operation = docs.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method];
      const data = operation?.responses?.[200]?.content?.['application/json']?.schema?.properties?.data;
      const fields = (s: Schema | undefined) =>
        Object.keys(s?.properties ?? {})
          .sort()
          .join(' ');
      const answer =
        data?.enum?.length === 1 && data.enum[0] === null
          ? 'null'
          : data?.items
            ? `[${fields(data.items)}]`
            : fields(data);
      return `${operation?.tags?.join(',')}: ${answer}`;
    };
    const signedIn = 'auth: accessToken refreshToken settings userData';
    expect([
      documented(PATHS.login, 'post'),
      documented(PATHS.refreshToken, 'post'),
      documented(PATHS.logout, 'post'),
      documented(PATHS.me, 'get'),
      documented(PATHS.mySessions, 'get'),
      documented(PATHS.mySession, 'delete'),
      documented(PATHS.revokeOtherSessions, 'post'),
      documented(PATHS.resetPassword, 'post'),
      documented(PATHS.userResetLink, 'post'),
    ]).toEqual([
      signedIn,
      signedIn,
      'auth: null',
      'auth: profile settings userData',
      'auth: [createdAt current id ip lastUsedAt userAgent]',
      'auth: null',
      'auth: null',
      'auth: null',
      'users: expiresAt token url',
    ]);
  });

  it('signs in without a token, answering the token pair, the rights and the settings', async () => {
    const res = await post(PATHS.login, { username: 'admin', password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Signed in.');
    expect(Object.keys(body.data).sort()).toEqual(['accessToken', 'refreshToken', 'settings', 'userData']);
    expect(body.data.userData.role).toBe('admin');
    expect((await me({ authorization: `Bearer ${body.data.accessToken}` })).statusCode).toBe(200);
  });

  it('refuses sign-in, refresh and reset bodies that miss a field with 400, before any rule runs', async () => {
    expect(refusal(await post(PATHS.login, { username: 'admin' }))).toEqual([400, 'validation-failed']);
    expect(refusal(await post(PATHS.refreshToken, {}))).toEqual([400, 'validation-failed']);
    expect(refusal(await post(PATHS.logout, { refreshToken: '' }, { headers: admin.headers }))).toEqual([
      400,
      'validation-failed',
    ]);
    expect(refusal(await post(PATHS.resetPassword, { token: 'x', password: 'short' }))).toEqual([
      400,
      'validation-failed',
    ]);
    // None of them ended the admin's session.
    expect((await me(admin.headers)).statusCode).toBe(200);
  });

  it('records the device of a sign-in and of each refresh in the session list', async () => {
    await newUser('mona');
    const desk = await signIn('mona', 'mona-password', device('10.40.1.1', 'Desk/1.0'));
    expect(await sessions(desk.headers)).toEqual([
      expect.objectContaining({ ip: '10.40.1.1', userAgent: 'Desk/1.0', current: true }),
    ]);
    const res = await post(PATHS.refreshToken, { refreshToken: desk.refreshToken }, device('10.40.1.2', 'Desk/2.0'));
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Refreshed.');
    expect(Object.keys(res.json().data).sort()).toEqual(['accessToken', 'refreshToken', 'settings', 'userData']);
    const renewed = { authorization: `Bearer ${res.json().data.accessToken}` };
    expect(await sessions(renewed)).toEqual([
      expect.objectContaining({ ip: '10.40.1.2', userAgent: 'Desk/2.0', current: true }),
    ]);
  });

  it('answers who is signed in: rights, settings and profile', async () => {
    expect(refusal(await me())).toEqual([401, 'unauthorized']);
    const res = await me(admin.headers);
    expect(res.json().message).toBe('OK');
    expect(res.json().data.profile.username).toBe('admin');
    expect(res.json().data.userData.role).toBe('admin');
    expect(Object.keys(res.json().data).sort()).toEqual(['profile', 'settings', 'userData']);
  });

  it('signs out only a signed-in caller, ending the session its refresh token belongs to', async () => {
    const pair = await signIn('admin', ADMIN_PASSWORD);
    expect(refusal(await post(PATHS.logout, { refreshToken: pair.refreshToken }))).toEqual([401, 'unauthorized']);
    expect((await post(PATHS.refreshToken, { refreshToken: pair.refreshToken })).statusCode).toBe(200);
    const next = await signIn('admin', ADMIN_PASSWORD);
    const out = await post(PATHS.logout, { refreshToken: next.refreshToken }, { headers: next.headers });
    expect([out.statusCode, out.json().message, out.json().data]).toEqual([200, 'Signed out.', null]);
    expect(refusal(await post(PATHS.refreshToken, { refreshToken: next.refreshToken }))).toEqual([
      401,
      'invalid-refresh-token',
    ]);
  });

  it('lists and ends only the caller’s own sessions, each ended one refused at once', async () => {
    await newUser('nils');
    expect(refusal(await t.app.inject({ url: PATHS.mySessions }))).toEqual([401, 'unauthorized']);
    const phone = await signIn('nils', 'nils-password', device('10.40.2.1', 'Phone/1.0'));
    const laptop = await signIn('nils', 'nils-password', device('10.40.2.2', 'Laptop/1.0'));
    const tablet = await signIn('nils', 'nils-password', device('10.40.2.3', 'Tablet/1.0'));
    holdClock();
    // Each token was just let in, so the principal cache holds its session as live.
    for (const d of [phone, laptop, tablet]) expect((await me(d.headers)).statusCode).toBe(200);
    const listed = await sessions(phone.headers);
    expect(listed.map((s) => [s.userAgent, s.current]).sort()).toEqual([
      ['Laptop/1.0', false],
      ['Phone/1.0', true],
      ['Tablet/1.0', false],
    ]);
    const laptopId = listed.find((s) => s.userAgent === 'Laptop/1.0')?.id ?? '';
    const url = PATHS.mySession.replace(':id', laptopId);
    expect(refusal(await t.app.inject({ method: 'DELETE', url }))).toEqual([401, 'unauthorized']);
    expect(refusal(await t.app.inject({ method: 'DELETE', url, headers: admin.headers }))).toEqual([404, 'not-found']);
    const bad = await t.app.inject({
      method: 'DELETE',
      url: PATHS.mySession.replace(':id', 'x'),
      headers: phone.headers,
    });
    expect(refusal(bad)).toEqual([400, 'validation-failed']);
    const end = await t.app.inject({ method: 'DELETE', url, headers: phone.headers });
    expect([end.statusCode, end.json().message, end.json().data]).toEqual([200, 'Session ended.', null]);
    expect(refusal(await me(laptop.headers))).toEqual([401, 'unauthorized']);
    expect((await me(tablet.headers)).statusCode).toBe(200);

    expect(refusal(await post(PATHS.revokeOtherSessions, {}))).toEqual([401, 'unauthorized']);
    const others = await post(PATHS.revokeOtherSessions, {}, { headers: phone.headers });
    expect([others.statusCode, others.json().message, others.json().data]).toEqual([
      200,
      'Other sessions ended.',
      null,
    ]);
    expect(refusal(await me(tablet.headers))).toEqual([401, 'unauthorized']);
    expect((await sessions(phone.headers)).map((s) => s.userAgent)).toEqual(['Phone/1.0']);
    expect((await me(admin.headers)).statusCode).toBe(200);
  });

  it('issues reset links to those who may change accounts, audited, and a link sets the password', async () => {
    const olgaId = await newUser('olga');
    await newUser('peter');
    const peter = await signIn('peter', 'peter-password');
    const linkUrl = PATHS.userResetLink.replace(':id', olgaId);
    expect(refusal(await post(linkUrl, {}))).toEqual([401, 'unauthorized']);
    expect(refusal(await post(linkUrl, {}, { headers: peter.headers }))).toEqual([403, 'forbidden']);
    // A role holding `update User` and nothing more may (admin, who may do anything, proves no rule).
    await t.database.db.insert(roles).values({
      name: 'account-keeper',
      abilities: [{ action: 'update', resource: 'User' }],
      resourceNums: { User: 1 },
    });
    const ritaId = await newUser('rita', 'account-keeper');
    await newUser('quinn', 'account-keeper');
    const quinn = await signIn('quinn', 'quinn-password');
    const byKeeper = await post(PATHS.userResetLink.replace(':id', ritaId), {}, { headers: quinn.headers });
    expect(byKeeper.statusCode).toBe(200);
    expect(refusal(await post(PATHS.userResetLink.replace(':id', 'x'), {}, { headers: admin.headers }))).toEqual([
      400,
      'validation-failed',
    ]);
    const issued = await post(linkUrl, {}, { headers: admin.headers });
    expect([issued.statusCode, issued.json().message]).toEqual([200, 'Reset link issued.']);
    const link = issued.json().data as { token: string; url: string; expiresAt: string };
    expect(Object.keys(link).sort()).toEqual(['expiresAt', 'token', 'url']);
    const [entry] = await t.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entityId, olgaId), eq(auditLogs.action, 'reset-link')));
    expect(entry).toMatchObject({ entity: 'user', changes: { expiresAt: { from: null, to: link.expiresAt } } });

    const olga = await signIn('olga', 'olga-password');
    holdClock();
    expect((await me(olga.headers)).statusCode).toBe(200);
    // Public: the link is the credential.
    const reset = await post(PATHS.resetPassword, { token: link.token, password: 'olga-new-password' });
    expect([reset.statusCode, reset.json().message, reset.json().data]).toEqual([
      200,
      'Password changed; please sign in.',
      null,
    ]);
    // Every session of hers ends at once, though her token was let in a moment ago.
    expect(refusal(await me(olga.headers))).toEqual([401, 'unauthorized']);
    vi.useRealTimers();
    await signIn('olga', 'olga-new-password');
  });
});
