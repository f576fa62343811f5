import { hash } from '@node-rs/argon2';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, freshDatabase } from '../../../test/support/build-test-app.ts';
import type { Database } from '../../db/client.ts';
import { loginFailures, refreshTokens, roles, users } from '../../db/schema/index.ts';
import { seed } from '../../db/seed.ts';
import { usernameKey } from '../users/usernames.ts';
import { Principals } from './principals.ts';
import { AuthRepository } from './repository.ts';
import { AuthService, type Client } from './service.ts';
import type { SessionPolicy } from './sessions.ts';
import { AccessTokens, tokenHash } from './tokens.ts';

/**
 * AuthService's rules, called directly on a real database: what a sign-in, a refresh and a sign-out
 * store and answer, at the edges of a session's idle time and end. The service is only ever called
 * inside a test (never in a hook), so Stryker (scripts/mutation.mjs) runs each mutant of service.ts
 * with only the tests that reach it, and this file starts without building the app.
 *
 * Surviving mutants of service.ts, explained (`npm run mutation -- packages/server/src/modules/auth/service.ts`):
 * - `login.toLowerCase()` → `toUpperCase()`: the typed name only keys the failures of unknown names,
 *   and any one case folding keys `Ghost` and `GHOST` alike, so no answer changes. This file asserts
 *   the stored key all the same (`login:ghost`), so the mutant is killed here.
 * - `hash(randomUUID(), { algorithm: 2 })` → `hash(randomUUID(), {})`: Argon2id (2) is
 *   @node-rs/argon2's default, so the decoy hash is made the same way: equivalent.
 *
 * Surviving mutants of repository.ts (`npm run mutation -- packages/server/src/modules/auth/repository.ts`,
 * guarded by this file, sign-in-limits-rules.test.ts, auth-rules.test.ts and principals.test.ts):
 * - `.select({ id: refreshTokens.id })` → `.select({})` in `familyRevoked` and `signedInFrom`: both
 *   ask only whether a row exists, and PostgreSQL returns a row of no columns all the same
 *   (`select from …`): equivalent. The attempt counts' two are explained in auth-rules.test.ts.
 */

const POLICY: SessionPolicy = { idleMs: 10_000, maxMs: 25_000 };
const T0 = new Date('2026-03-01T10:00:00.000Z').getTime();
const SECRET = 'service-test-secret-long-enough-for-hs256!!';

describe('AuthService', () => {
  let database: Database;
  let adminId: string;
  let developerRole: string;
  beforeAll(async () => {
    database = await freshDatabase();
    await seed(database.db, ADMIN_PASSWORD);
    const [admin] = await database.db.select().from(users).where(eq(users.username, 'admin'));
    adminId = admin?.id as string;
    const [role] = await database.db.select().from(roles).where(eq(roles.name, 'developer'));
    developerRole = role?.id as string;
  }, 300_000);
  afterAll(async () => database?.close());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  const tokens = new AccessTokens(SECRET, 900);
  /** A service with its own principals (no account cached from another test). */
  const build = (policy: SessionPolicy = POLICY) => {
    const principals = new Principals(database.db);
    return { principals, auth: new AuthService(database.db, tokens, principals, policy) };
  };
  const client = (ip: string, userAgent: string | undefined = 'test-agent'): Client => ({ ip, userAgent });
  const at = (ms: number) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(ms);
  };
  const rowOf = async (refreshToken: string) => {
    const [row] = await database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash(refreshToken)));
    if (!row) throw new Error('no row for this refresh token');
    return row;
  };
  const family = (familyId: string) =>
    database.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, familyId));
  const createUser = async (username: string, password: string) => {
    const [row] = await database.db
      .insert(users)
      .values({
        username,
        usernameKey: usernameKey(username),
        email: `${username}@example.test`,
        passwordHash: await hash(password, { algorithm: 2 }),
        roleId: developerRole,
      })
      .returning({ id: users.id });
    return row?.id as string;
  };
  const failuresOf = (account: string) =>
    database.db.select().from(loginFailures).where(eq(loginFailures.account, account));
  const refused = (status: number, error: string, message: string) =>
    expect.objectContaining({ status, error, message });
  const INVALID = refused(400, 'invalid-credentials', 'Email or Password is Invalid');
  const BAD_REFRESH = refused(401, 'invalid-refresh-token', 'Please sign in again.');
  const LOCKED = refused(
    429,
    'account-locked',
    'Too many failed sign-ins on this account; wait a moment and try again.',
  );

  it('signs in: a token pair for a new session, its row, the userData and the settings', async () => {
    const { auth, principals } = build();
    at(T0);
    const agent = `agent-${'x'.repeat(600)}`;
    const session = await auth.login('admin', ADMIN_PASSWORD, client('10.1.0.1', agent));
    const row = await rowOf(session.refreshToken);
    expect(row).toMatchObject({
      userId: adminId,
      issuedAt: new Date(T0),
      sessionStartedAt: new Date(T0),
      expiresAt: new Date(T0 + POLICY.maxMs),
      ip: '10.1.0.1',
      userAgent: agent.slice(0, 512),
      usedAt: null,
      revokedAt: null,
    });
    expect(row.userAgent).toHaveLength(512);
    expect(await tokens.verifySession(session.accessToken)).toEqual({ userId: adminId, sessionId: row.familyId });
    expect(session.userData).toMatchObject({ userid: adminId, role: 'admin', usertypes: [1] });
    expect(session.settings).toEqual(await principals.settings());
    expect(Object.keys(session).sort()).toEqual(['accessToken', 'refreshToken', 'settings', 'userData']);
    // Each sign-in is a session of its own.
    const again = await auth.login('admin', ADMIN_PASSWORD, { ip: '10.1.0.1', userAgent: undefined });
    expect((await rowOf(again.refreshToken)).familyId).not.toBe(row.familyId);
    expect((await rowOf(again.refreshToken)).userAgent).toBeNull();
  });

  it('refuses a wrong password and an unknown name alike, recording each failure under the account', async () => {
    const { auth } = build();
    const ghost = client('10.2.0.1');
    await expect(auth.login('admin', 'wrong-password', ghost)).rejects.toEqual(INVALID);
    await expect(auth.login('Ghost', 'any-password', ghost)).rejects.toEqual(INVALID);
    await expect(auth.login('admin', '', ghost)).rejects.toEqual(INVALID);
    expect((await failuresOf(`user:${adminId}`)).map((f) => f.ip)).toEqual(['10.2.0.1', '10.2.0.1']);
    expect((await failuresOf('login:ghost')).map((f) => f.ip)).toEqual(['10.2.0.1']);
    // The right password clears the account's failures.
    await auth.login('admin', ADMIN_PASSWORD, client('10.2.0.2'));
    expect(await failuresOf(`user:${adminId}`)).toEqual([]);
  });

  it('refuses a disabled account with 403 only once the password is right, issuing nothing', async () => {
    const id = await createUser('olga', 'olga-password-1');
    await database.db.update(users).set({ enabled: false }).where(eq(users.id, id));
    const { auth } = build();
    await expect(auth.login('olga', 'wrong-password', client('10.3.0.1'))).rejects.toEqual(INVALID);
    await expect(auth.login('olga', 'olga-password-1', client('10.3.0.1'))).rejects.toEqual(
      refused(403, 'account-disabled', 'This account is disabled.'),
    );
    expect(await database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, id))).toEqual([]);
  });

  it('delays an account after five failures under any name, each unknown name counted on its own', async () => {
    const dora = await createUser('dora', 'dora-password-1');
    await createUser('eve', 'eve-password-1');
    const { auth } = build();
    at(T0 + 3_600_000); // the clock stands still: the delays are seconds after the last failure
    // From an address dora signed in from: known to her account, so never delayed.
    await auth.login('dora', 'dora-password-1', client('10.4.1.1'));
    for (let i = 0; i < 5; i++) {
      const name = i % 2 ? 'DORA@example.test' : 'dora';
      await expect(auth.login(name, `guess-${i}`, client(`10.4.0.${i}`))).rejects.toEqual(INVALID);
    }
    expect(await failuresOf(`user:${dora}`)).toHaveLength(5);
    await expect(auth.login('dora', 'dora-password-1', client('10.4.0.9'))).rejects.toEqual(LOCKED);
    expect(await failuresOf(`user:${dora}`)).toHaveLength(5);
    // Another account, and the owner at a known address, are not held back.
    expect((await auth.login('eve', 'eve-password-1', client('10.4.0.10'))).userData.role).toBe('developer');
    expect((await auth.login('dora', 'dora-password-1', client('10.4.1.1'))).userData.userid).toBe(dora);
    // Unknown names: five failures on one do not delay another.
    for (let i = 0; i < 5; i++)
      await expect(auth.login('ghost-a', 'x', client(`10.4.2.${i}`))).rejects.toEqual(INVALID);
    await expect(auth.login('ghost-a', 'x', client('10.4.2.9'))).rejects.toEqual(
      refused(429, 'account-locked', expect.any(String)),
    );
    await expect(auth.login('ghost-b', 'x', client('10.4.2.10'))).rejects.toEqual(INVALID);
  });

  it('starts counting again after a successful sign-in', async () => {
    const cleo = await createUser('cleo', 'cleo-password-1');
    const { auth } = build();
    at(T0 + 7_200_000);
    for (let i = 0; i < 4; i++)
      await expect(auth.login('cleo', 'wrong', client(`10.5.0.${i}`))).rejects.toEqual(INVALID);
    await auth.login('cleo', 'cleo-password-1', client('10.5.1.1'));
    for (let i = 0; i < 4; i++)
      await expect(auth.login('cleo', 'wrong', client(`10.5.2.${i}`))).rejects.toEqual(INVALID);
    // Four failures since the success: a new address is not delayed (eight would be).
    await expect(auth.login('cleo', 'wrong', client('10.5.3.1'))).rejects.toEqual(INVALID);
    expect(await failuresOf(`user:${cleo}`)).toHaveLength(5);
  });

  it('rotates a refresh token within the session: same family and end, new issue time, old token used', async () => {
    const { auth } = build();
    at(T0);
    const first = await auth.login('admin', ADMIN_PASSWORD, client('10.6.0.1'));
    const before = await rowOf(first.refreshToken);
    at(T0 + 9_000);
    const next = await auth.refresh(first.refreshToken, client('10.6.0.2', 'other-agent'));
    expect(next.userData.userid).toBe(adminId);
    expect(await tokens.verifySession(next.accessToken)).toEqual({ userId: adminId, sessionId: before.familyId });
    expect(await rowOf(next.refreshToken)).toMatchObject({
      familyId: before.familyId,
      userId: adminId,
      issuedAt: new Date(T0 + 9_000),
      sessionStartedAt: new Date(T0),
      expiresAt: new Date(T0 + POLICY.maxMs),
      ip: '10.6.0.2',
      userAgent: 'other-agent',
      usedAt: null,
      revokedAt: null,
    });
    expect(await rowOf(first.refreshToken)).toMatchObject({ usedAt: new Date(T0 + 9_000), revokedAt: null });
  });

  it('refuses an unknown refresh token, and ends the session when a used one comes back', async () => {
    const { auth } = build();
    await expect(auth.refresh('never-issued', client('10.7.0.1'))).rejects.toEqual(BAD_REFRESH);
    const first = await auth.login('admin', ADMIN_PASSWORD, client('10.7.0.1'));
    const next = await auth.refresh(first.refreshToken, client('10.7.0.1'));
    await expect(auth.refresh(first.refreshToken, client('10.7.0.1'))).rejects.toEqual(BAD_REFRESH);
    expect((await rowOf(next.refreshToken)).revokedAt).not.toBeNull();
    await expect(auth.refresh(next.refreshToken, client('10.7.0.1'))).rejects.toEqual(BAD_REFRESH);
  });

  it('ends a session unused for its idle time, not a millisecond before', async () => {
    const { auth } = build();
    at(T0);
    const a = await auth.login('admin', ADMIN_PASSWORD, client('10.8.0.1'));
    const b = await auth.login('admin', ADMIN_PASSWORD, client('10.8.0.1'));
    at(T0 + POLICY.idleMs - 1);
    await auth.refresh(a.refreshToken, client('10.8.0.1'));
    at(T0 + POLICY.idleMs);
    await expect(auth.refresh(b.refreshToken, client('10.8.0.1'))).rejects.toEqual(BAD_REFRESH);
    expect((await rowOf(b.refreshToken)).revokedAt).toEqual(new Date(T0 + POLICY.idleMs));
  });

  it('ends a session at its end though it was used within every idle time', async () => {
    const { auth, principals } = build();
    at(T0);
    let session = await auth.login('admin', ADMIN_PASSWORD, client('10.9.0.1'));
    const { familyId } = await rowOf(session.refreshToken);
    for (const t of [9_000, 18_000, POLICY.maxMs - 1]) {
      at(T0 + t);
      session = await auth.refresh(session.refreshToken, client('10.9.0.1'));
    }
    expect(await principals.sessionEnded(familyId)).toBe(false);
    at(T0 + POLICY.maxMs);
    await expect(auth.refresh(session.refreshToken, client('10.9.0.1'))).rejects.toEqual(BAD_REFRESH);
    expect((await family(familyId)).every((r) => r.revokedAt !== null)).toBe(true);
    // Ending it is seen at once, not when the cached answer runs out.
    expect(await principals.sessionEnded(familyId)).toBe(true);
  });

  it('refuses a refresh whose token another request used between the read and the claim, ending the session', async () => {
    const { auth } = build();
    const { refreshToken } = await auth.login('admin', ADMIN_PASSWORD, client('10.10.0.1'));
    const row = await rowOf(refreshToken);
    const read = AuthRepository.prototype.refreshTokenByHash;
    // The other request's claim lands just after this one read the row as unused.
    vi.spyOn(AuthRepository.prototype, 'refreshTokenByHash').mockImplementation(async function (
      this: AuthRepository,
      h,
    ) {
      const found = await read.call(this, h);
      await database.db.update(refreshTokens).set({ usedAt: new Date() }).where(eq(refreshTokens.id, row.id));
      return found;
    });
    await expect(auth.refresh(refreshToken, client('10.10.0.1'))).rejects.toEqual(BAD_REFRESH);
    vi.restoreAllMocks();
    expect((await rowOf(refreshToken)).revokedAt).not.toBeNull();
    expect(await family(row.familyId)).toHaveLength(1);
  });

  it('refuses the refresh of an account disabled while its session lived, issuing nothing', async () => {
    const id = await createUser('rita', 'rita-password-1');
    const { refreshToken } = await build().auth.login('rita', 'rita-password-1', client('10.11.0.1'));
    const { familyId } = await rowOf(refreshToken);
    await database.db.update(users).set({ enabled: false }).where(eq(users.id, id));
    await expect(build().auth.refresh(refreshToken, client('10.11.0.1'))).rejects.toEqual(BAD_REFRESH);
    expect(await family(familyId)).toHaveLength(1);
  });

  it('signs out only the caller’s own session, and nothing without or with an unknown refresh token', async () => {
    const quinnId = await createUser('quinn', 'quinn-password-1');
    const { auth, principals } = build();
    const admin = await auth.login('admin', ADMIN_PASSWORD, client('10.12.0.1'));
    const quinn = await auth.login('quinn', 'quinn-password-1', client('10.12.0.2'));
    const adminFamily = (await rowOf(admin.refreshToken)).familyId;
    await auth.logout(adminId, quinn.refreshToken);
    expect((await rowOf(quinn.refreshToken)).revokedAt).toBeNull();
    await auth.logout(adminId, undefined);
    await auth.logout(adminId, 'never-issued');
    await auth.logout(quinnId, admin.refreshToken);
    expect((await rowOf(admin.refreshToken)).revokedAt).toBeNull();
    expect(await principals.sessionEnded(adminFamily)).toBe(false);
    await auth.logout(adminId, admin.refreshToken);
    expect((await rowOf(admin.refreshToken)).revokedAt).not.toBeNull();
    expect(await principals.sessionEnded(adminFamily)).toBe(true);
    await expect(auth.refresh(admin.refreshToken, client('10.12.0.1'))).rejects.toEqual(BAD_REFRESH);
    const [quinnRow] = await database.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, quinnId), eq(refreshTokens.tokenHash, tokenHash(quinn.refreshToken))));
    expect(quinnRow?.revokedAt).toBeNull();
  });
});
