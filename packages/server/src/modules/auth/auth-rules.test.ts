import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { seededDatabase } from '../../../test/support/build-test-app.ts';
import type { Database } from '../../db/client.ts';
import { passwordResets, refreshTokens, throttleEvents, users } from '../../db/schema/index.ts';
import { PasswordResets } from './password-resets.ts';
import { endSessionsBut, Sessions } from './sessions.ts';
import { networkOf, Throttle } from './throttle.ts';
import { tokenHash } from './tokens.ts';

/**
 * The session list, reset links and attempt throttles of the auth module, called directly on a real
 * database with the clock held still (sessions.test.ts and the users tests check them through the
 * routes). scripts/mutation.mjs runs this file against sessions.ts, password-resets.ts and throttle.ts.
 */

const T0 = new Date('2026-05-01T12:00:00.000Z').getTime();
const HOUR = 3600_000;
const POLICY = { idleMs: 2 * HOUR, maxMs: 48 * HOUR };

describe('auth rules', () => {
  let database: Database;
  let adminId: string;
  beforeAll(async () => {
    ({ database, adminId } = await seededDatabase());
  }, 300_000);
  afterAll(async () => database?.close());
  afterEach(() => vi.useRealTimers());
  const at = (ms: number) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(ms);
  };
  /** A refresh token row of a new session (family) of the user's, issued at `issuedAt`. */
  const token = async (userId: string, issuedAt: number, extra: Partial<typeof refreshTokens.$inferInsert> = {}) => {
    const familyId = randomUUID();
    await database.db.insert(refreshTokens).values({
      tokenHash: tokenHash(randomUUID()),
      familyId,
      userId,
      issuedAt: new Date(issuedAt),
      sessionStartedAt: new Date(issuedAt - HOUR),
      expiresAt: new Date(issuedAt + 24 * HOUR),
      ip: '10.0.0.1',
      userAgent: 'agent',
      ...extra,
    });
    return familyId;
  };
  const newUser = async (username: string) => {
    const [row] = await database.db
      .insert(users)
      .values({
        username,
        usernameKey: username,
        email: `${username}@example.test`,
        passwordHash: 'x',
        roleId: await roleOfAdmin(),
      })
      .returning({ id: users.id });
    return row?.id as string;
  };
  const roleOfAdmin = async () => {
    const [row] = await database.db.select({ roleId: users.roleId }).from(users).where(eq(users.id, adminId));
    return row?.roleId as string;
  };
  const revoked = async (familyId: string) => {
    const rows = await database.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, familyId));
    return rows.every((r) => r.revokedAt !== null);
  };

  describe('sessions', () => {
    it('lists the live sessions newest first, marking the current one', async () => {
      const uma = await newUser('uma');
      at(T0);
      const current = await token(uma, T0 - HOUR, { ip: '10.9.0.1', userAgent: 'phone' });
      const older = await token(uma, T0 - 2 * HOUR + 1, { userAgent: null });
      await token(uma, T0 - 2 * HOUR); // idle exactly its idle time: ended
      await token(uma, T0 - 10, { expiresAt: new Date(T0) }); // at its end
      await token(uma, T0 - 10, { usedAt: new Date(T0 - 5) });
      await token(uma, T0 - 10, { revokedAt: new Date(T0 - 5) });
      await token(adminId, T0 - 10);
      const list = await new Sessions(database.db, POLICY).list(uma, current);
      expect(list).toEqual([
        {
          id: current,
          createdAt: new Date(T0 - 2 * HOUR).toISOString(),
          lastUsedAt: new Date(T0 - HOUR).toISOString(),
          ip: '10.9.0.1',
          userAgent: 'phone',
          current: true,
        },
        {
          id: older,
          createdAt: new Date(T0 - 3 * HOUR + 1).toISOString(),
          lastUsedAt: new Date(T0 - 2 * HOUR + 1).toISOString(),
          ip: '10.0.0.1',
          userAgent: null,
          current: false,
        },
      ]);
      expect((await new Sessions(database.db, POLICY).list(uma, null)).map((s) => s.current)).toEqual([false, false]);
    });

    it('ends one of the user’s own sessions, 404 for another’s or an unknown one', async () => {
      const vic = await newUser('vic');
      const sessions = new Sessions(database.db, POLICY);
      const mine = await token(vic, Date.now());
      const theirs = await token(adminId, Date.now());
      const refusal = expect.objectContaining({ status: 404, error: 'not-found', message: 'No such session.' });
      await expect(sessions.revoke(vic, theirs)).rejects.toEqual(refusal);
      await expect(sessions.revoke(vic, randomUUID())).rejects.toEqual(refusal);
      expect(await revoked(theirs)).toBe(false);
      await sessions.revoke(vic, mine);
      expect(await revoked(mine)).toBe(true);
      await expect(sessions.revoke(vic, mine)).rejects.toEqual(refusal);
    });

    it('ends every session of the user but the one kept, or all of them', async () => {
      const wes = await newUser('wes');
      const [a, b, c] = [await token(wes, Date.now()), await token(wes, Date.now()), await token(wes, Date.now())];
      const other = await token(adminId, Date.now());
      await new Sessions(database.db, POLICY).revokeAllBut(wes, b);
      expect([await revoked(a), await revoked(b), await revoked(c), await revoked(other)]).toEqual([
        true,
        false,
        true,
        false,
      ]);
      await endSessionsBut(database.db, wes, null);
      expect([await revoked(b), await revoked(other)]).toEqual([true, false]);
    });
  });

  describe('reset links', () => {
    const resetsOf = (userId: string) =>
      database.db.select().from(passwordResets).where(eq(passwordResets.userId, userId));
    const INVALID = expect.objectContaining({
      status: 400,
      error: 'bad-request',
      message: 'This reset link is invalid, used or expired.',
    });

    it('issues a link valid for a day, only the newest of a user’s working', async () => {
      const xia = await newUser('xia');
      at(T0);
      const resets = new PasswordResets(database.db);
      const first = await resets.issue(xia);
      const link = await resets.issue(xia);
      expect(link.expiresAt).toBe(new Date(T0 + 24 * HOUR).toISOString());
      expect(link.url).toBe(`/pages/dashboard/reset-password?token=${link.token}`);
      expect(link.token).toMatch(/^[\w-]{43}$/);
      const rows = await resetsOf(xia);
      expect(rows.map((r) => [r.tokenHash, r.expiresAt.getTime(), r.usedAt])).toEqual([
        [tokenHash(link.token), T0 + 24 * HOUR, null],
      ]);
      vi.useRealTimers();
      await expect(resets.redeem(first.token)).rejects.toEqual(INVALID);
    });

    it('redeems a link once, for its user, dropping the user’s other unused links', async () => {
      const yan = await newUser('yan');
      const resets = new PasswordResets(database.db);
      const link = await resets.issue(yan);
      // Another link issued beside it (e.g. by another instance at the same moment).
      await database.db
        .insert(passwordResets)
        .values({ tokenHash: tokenHash('other-link'), userId: yan, expiresAt: new Date(Date.now() + HOUR) });
      const other = await resets.issue(adminId);
      expect(await resets.redeem(link.token)).toBe(yan);
      expect((await resetsOf(yan)).map((r) => r.tokenHash)).toEqual([tokenHash(link.token)]);
      await expect(resets.redeem(link.token)).rejects.toEqual(INVALID);
      await expect(resets.redeem('other-link')).rejects.toEqual(INVALID);
      expect(await resets.redeem(other.token)).toBe(adminId);
    });
  });

  describe('throttles', () => {
    const WINDOW = 60_000;
    /** An attempt of the kind by the subject, `ago` ms before the frozen now. */
    const attempt = (kind: string, subject: string, ago: number) =>
      database.db.insert(throttleEvents).values({ kind, subject, at: new Date(Date.now() - ago) });
    const answer = async (run: () => Promise<void>) => {
      try {
        await run();
        return 'free';
      } catch (e) {
        const { status, error, message, retryAfterSeconds } = e as Record<string, unknown>;
        return { status, error, message, retryAfterSeconds };
      }
    };
    const spent = (retryAfterSeconds: number) => ({
      status: 429,
      error: 'rate-limited',
      message: 'Slow down.',
      retryAfterSeconds,
    });

    it('refuses once the limit fell within the window, until the latest attempt leaves it', async () => {
      at(T0);
      const throttle = new Throttle(database.db, 'k1', 3, WINDOW, 'Slow down.');
      await attempt('k1', 's', WINDOW); // just outside the window
      await attempt('k1', 's', 20_500);
      await attempt('k1', 's', 20_200);
      expect(await answer(() => throttle.refuseIfSpent('s'))).toBe('free');
      await attempt('k1', 's', 20_000);
      // The wait runs to the latest attempt's leaving the window.
      expect(await answer(() => throttle.refuseIfSpent('s'))).toEqual(spent(40));
      // Other kinds and subjects count apart.
      expect(await answer(() => new Throttle(database.db, 'k2', 3, WINDOW, 'x').refuseIfSpent('s'))).toBe('free');
      expect(await answer(() => throttle.refuseIfSpent('t'))).toBe('free');
      // Half a second left (all three still inside): a whole second, never zero.
      at(T0 + 39_499);
      expect(await answer(() => throttle.refuseIfSpent('s'))).toEqual(spent(1));
      at(T0 + 39_501);
      expect(await answer(() => throttle.refuseIfSpent('s'))).toBe('free');
      at(T0);
      await throttle.clear('s');
      expect(await answer(() => throttle.refuseIfSpent('s'))).toBe('free');
    });

    it('takes an attempt: counted first, refused beyond the limit', async () => {
      const throttle = new Throttle(database.db, 'k3', 2, WINDOW, 'Slow down.');
      expect(await answer(() => throttle.take('u'))).toBe('free');
      expect(await answer(() => throttle.take('u'))).toBe('free');
      const third = await answer(() => throttle.take('u'));
      expect(third).toMatchObject({ status: 429, error: 'rate-limited', message: 'Slow down.' });
      // The latest attempt was just now: about the whole window to wait.
      expect((third as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(55);
      expect((third as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(60);
      const rows = await database.db.select().from(throttleEvents).where(eq(throttleEvents.kind, 'k3'));
      expect(rows.map((r) => r.subject)).toEqual(['u', 'u', 'u']);
      await throttle.record('v');
      expect(await answer(() => throttle.take('v'))).toBe('free');
      expect(await answer(() => throttle.take('v'))).toMatchObject({ status: 429 });
    });

    // Surviving mutants of repository.ts here: `row?.n` and `row?.last` in `attemptsSince` made
    // `row.n` and `row.last`: an aggregate without GROUP BY answers exactly one row, even over no
    // attempts (n = 0, last null), so `row` is never undefined: equivalent.
    // Surviving mutants of throttle.ts, each equivalent (`npm run mutation -- …/throttle.ts`):
    // - `last?.getTime()` made `last.getTime()`: `last` is null only when no attempt fell within the
    //   window, and then n = 0 is under any limit, so `refuse` is never reached with it.
    // networkOf takes socket addresses, which Node writes in one canonical form:
    // - the mapped-IPv4 test without its `$`: no canonical address has text after the fourth number;
    // - `.replace(/^::ffff:/i)` without its `^`: it runs only on IPv4 addresses (no `::ffff:`) or
    //   on addresses that start with it;
    // - `tail = ''` defaulting to another string, `right` of an address ending in `::` starting with
    //   one more element, and `ip.includes("")` for `ip.includes('::')`: each only changes groups
    //   after the first four, or pads an address that already has eight groups with none;
    // - `head = ''` defaulting to another string (no coverage): split always yields a first element.
    it('groups IPv6 addresses by their /64 and keeps IPv4 ones whole', () => {
      expect(networkOf('192.0.2.7')).toBe('192.0.2.7');
      expect(networkOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
      expect(networkOf('::FFFF:192.0.2.7')).toBe('192.0.2.7');
      expect(networkOf('::ffff:192.168.100.200')).toBe('192.168.100.200');
      // An IPv4 tail inside a longer IPv6 address is not a mapped IPv4 address.
      expect(networkOf('2001:db8::ffff:192.0.2.7')).toBe('2001:db8:0:0::/64');
      expect(networkOf('2001:0DB8:0000:00a1:1:2:3:4')).toBe('2001:db8:0:a1::/64');
      expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
      expect(networkOf('2001:db8:1:2::')).toBe('2001:db8:1:2::/64');
      expect(networkOf('::1')).toBe('0:0:0:0::/64');
      expect(networkOf('fe80::1:2:3:4:5')).toBe('fe80:0:0:1::/64');
      expect(networkOf('::ffff:c000:207')).toBe('0:0:0:0::/64');
    });
  });
});
