import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, buildTestApp, signIn } from '../../../test/support/build-test-app.ts';
import { refreshTokens, users } from '../../db/schema/index.ts';
import { DEFAULT_SESSION_POLICY } from './sessions.ts';
import { tokenHash } from './tokens.ts';

// The sign-in service's rules that auth.test.ts and sessions.test.ts do not reach: disabled
// accounts, what a session row keeps across rotations, and sign-outs that must not end another
// person's session. scripts/mutation.mjs runs it with those files against service.ts.

describe('sign-in service', () => {
  const t = {} as Awaited<ReturnType<typeof buildTestApp>> & { admin: Awaited<ReturnType<typeof signIn>> };
  // Five minutes, not useAdminApp's one: Stryker re-runs this setup for every mutant on a busy machine.
  beforeAll(async () => {
    Object.assign(t, await buildTestApp());
    t.admin = await signIn(t.app, 'admin', ADMIN_PASSWORD);
  }, 300_000);
  afterAll(async () => t.close?.());
  afterEach(() => vi.useRealTimers());
  const login = (username: string, password: string, headers: Record<string, string | undefined> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password }, headers });
  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: '/api/refreshToken', payload: { refreshToken } });
  const logout = (accessToken: string, refreshToken?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/jwt/logout',
      headers: { authorization: `Bearer ${accessToken}` },
      payload: refreshToken ? { refreshToken } : {},
    });
  const rowOf = async (refreshToken: string) => {
    const [row] = await t.database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash(refreshToken)));
    if (!row) throw new Error('no row for this refresh token');
    return row;
  };
  const createUser = async (username: string, password: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: t.admin.headers,
      payload: { username, email: `${username}@example.test`, role: 'developer', password },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.username, username));
    return row?.id as string;
  };

  it('signs in by the name in any case and by the e-mail in any case', async () => {
    for (const name of ['ADMIN', 'Admin@Sextant.Local'])
      expect((await login(name, ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a disabled account with 403, only once the password is right', async () => {
    const id = await createUser('olga', 'olga-password-1');
    await t.database.db.update(users).set({ enabled: false }).where(eq(users.id, id));
    expect((await login('olga', 'wrong-password')).json().data.error).toBe('invalid-credentials');
    const res = await login('olga', 'olga-password-1');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 403,
      message: 'This account is disabled.',
      data: { error: 'account-disabled' },
    });
  });

  it('starts a session ending 14 days after sign-in, kept by every rotation with its address and agent', async () => {
    const before = Date.now();
    const agent = `agent-${'x'.repeat(600)}`;
    const first = (await login('admin', ADMIN_PASSWORD, { 'user-agent': agent })).json().data;
    const row = await rowOf(first.refreshToken);
    expect(row.sessionStartedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row.expiresAt.getTime() - row.sessionStartedAt.getTime()).toBe(DEFAULT_SESSION_POLICY.maxMs);
    expect(row.userAgent).toBe(agent.slice(0, 512));
    expect(row.ip).toBe('127.0.0.1');
    expect([row.usedAt, row.revokedAt]).toEqual([null, null]);

    const rotated = await refresh(first.refreshToken);
    expect(rotated.statusCode).toBe(200);
    const { refreshToken, userData } = rotated.json().data;
    expect(userData.userid).toBe(row.userId);
    const next = await rowOf(refreshToken);
    expect(next.familyId).toBe(row.familyId);
    expect(next.sessionStartedAt).toEqual(row.sessionStartedAt);
    expect(next.expiresAt).toEqual(row.expiresAt);
    expect(next.issuedAt.getTime()).toBeGreaterThanOrEqual(row.issuedAt.getTime());
    expect((await rowOf(first.refreshToken)).usedAt).not.toBeNull();
  });

  it('refuses an unknown refresh token with 401 and a known one once its session is past its end', async () => {
    expect((await refresh('never-issued')).json().data.error).toBe('invalid-refresh-token');
    const { refreshToken } = (await login('admin', ADMIN_PASSWORD)).json().data;
    await t.database.db
      .update(refreshTokens)
      .set({ expiresAt: new Date() })
      .where(eq(refreshTokens.tokenHash, tokenHash(refreshToken)));
    expect((await refresh(refreshToken)).statusCode).toBe(401);
    expect((await rowOf(refreshToken)).revokedAt).not.toBeNull();
  });

  it('ends the whole session when a token of it is reused after rotation', async () => {
    const { refreshToken } = (await login('admin', ADMIN_PASSWORD)).json().data;
    const next = (await refresh(refreshToken)).json().data.refreshToken;
    expect((await refresh(refreshToken)).statusCode).toBe(401);
    expect((await rowOf(next)).revokedAt).not.toBeNull();
  });

  it('signs out only the caller’s own session, and nothing without a refresh token', async () => {
    const admin = (await login('admin', ADMIN_PASSWORD)).json().data;
    await createUser('quinn', 'quinn-password-1');
    const quinn = (await login('quinn', 'quinn-password-1')).json().data;
    expect((await logout(admin.accessToken, quinn.refreshToken)).statusCode).toBe(200);
    expect((await rowOf(quinn.refreshToken)).revokedAt).toBeNull();
    expect((await logout(admin.accessToken)).statusCode).toBe(200);
    expect((await rowOf(admin.refreshToken)).revokedAt).toBeNull();
    expect((await logout(admin.accessToken, admin.refreshToken)).statusCode).toBe(200);
    expect((await rowOf(admin.refreshToken)).revokedAt).not.toBeNull();
  });

  it('signs in a client that sends no User-Agent, keeping no agent for its session', async () => {
    const res = await login('admin', ADMIN_PASSWORD, { 'user-agent': undefined });
    expect(res.statusCode).toBe(200);
    expect((await rowOf(res.json().data.refreshToken)).userAgent).toBeNull();
  });

  it('answers 401, not 500, to the refresh of an account disabled while its session lived', async () => {
    // Disabling through the API ends the sessions too; here the row changes under a live session
    // (another instance, or a refresh racing the change), so only the loaded account refuses it.
    const id = await createUser('rita', 'rita-password-1');
    const { refreshToken } = (await login('rita', 'rita-password-1')).json().data;
    await t.database.db.update(users).set({ enabled: false }).where(eq(users.id, id));
    // Past the two seconds the account stays cached after the sign-in loaded it.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 5000);
    const res = await refresh(refreshToken);
    expect(res.statusCode).toBe(401);
    expect(res.json().data.error).toBe('invalid-refresh-token');
  });
});
