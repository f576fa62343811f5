import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { seededDatabase } from '../../../test/support/build-test-app.ts';
import type { Database } from '../../db/client.ts';
import { refreshTokens } from '../../db/schema/index.ts';
import { ACCOUNT_FREE_FAILURES, IP_LIMIT, MAX_DELAY_MS, SignInLimits } from './sign-in-limits.ts';
import { tokenHash } from './tokens.ts';

/**
 * SignInLimits' numbers, called directly on a real database with the clock held still: the address
 * limit and its window, the account's doubling delay and its cap, the Retry-After seconds, and the
 * addresses an account is known at. sign-in-limits.test.ts checks the same through the sign-in
 * route; this file is the one scripts/mutation.mjs runs against sign-in-limits.ts.
 *
 * Surviving mutants, explained:
 * - `if (!row) return` made `if (false)`: an aggregate without GROUP BY always answers one row.
 * - `row.lastOnAccount === null` made `false`: the latest failure on an account is null only when
 *   it has none, and then `byAccount < ACCOUNT_FREE_FAILURES` has already let the sign-in through.
 */

const T0 = new Date('2026-04-01T08:00:00.000Z').getTime();
const WINDOW_MS = 15 * 60_000;
const DAY = 24 * 3600_000;

describe('SignInLimits', () => {
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
  /** What refuseIfLimited answers: 'free', or the refusal's status, code, Retry-After and message. */
  const check = async (limits: SignInLimits, account: string, ip: string, userId?: string) => {
    try {
      await limits.refuseIfLimited(account, userId, ip);
      return 'free';
    } catch (e) {
      const { status, error, retryAfterSeconds, message } = e as Record<string, unknown>;
      return { status, error, retryAfterSeconds, message };
    }
  };
  const BY_IP = 'Too many failed sign-ins from your address; try again later.';
  const BY_ACCOUNT = 'Too many failed sign-ins on this account; wait a moment and try again.';
  const locked = (retryAfterSeconds: number, message: string) => ({
    status: 429,
    error: 'account-locked',
    retryAfterSeconds,
    message,
  });

  it('holds back an address after ten failures on any accounts, until the first is out of the window', async () => {
    const limits = new SignInLimits(database.db);
    at(T0);
    for (let i = 0; i < IP_LIMIT - 1; i++) await limits.recordFailure(`login:ip-${i}`, '10.1.0.1');
    expect(await check(limits, 'login:other', '10.1.0.1')).toBe('free');
    at(T0 + 60_000);
    await limits.recordFailure('login:ip-last', '10.1.0.1');
    expect(await check(limits, 'login:other', '10.1.0.1')).toEqual(locked(840, BY_IP));
    expect(await check(limits, 'login:other', '10.1.0.2')).toBe('free');
    at(T0 + WINDOW_MS - 1);
    expect(await check(limits, 'login:other', '10.1.0.1')).toEqual(locked(1, BY_IP));
    // The nine at T0 leave the window: one failure left there, under the limit.
    at(T0 + WINDOW_MS);
    expect(await check(limits, 'login:other', '10.1.0.1')).toBe('free');
  });

  it('delays an account after five failures, the delay doubling from a second up to five minutes', async () => {
    const limits = new SignInLimits(database.db);
    at(T0);
    for (let i = 0; i < ACCOUNT_FREE_FAILURES - 1; i++) await limits.recordFailure('login:dan', `10.2.0.${i}`);
    expect(await check(limits, 'login:dan', '10.2.1.1')).toBe('free');
    await limits.recordFailure('login:dan', '10.2.0.9');
    expect(await check(limits, 'login:dan', '10.2.1.1')).toEqual(locked(1, BY_ACCOUNT));
    at(T0 + 999);
    expect(await check(limits, 'login:dan', '10.2.1.1')).toEqual(locked(1, BY_ACCOUNT));
    // The delay runs from the latest failure: free exactly when it has passed.
    at(T0 + 1000);
    expect(await check(limits, 'login:dan', '10.2.1.1')).toBe('free');
    for (let i = 0; i < 2; i++) await limits.recordFailure('login:dan', `10.2.2.${i}`);
    expect(await check(limits, 'login:dan', '10.2.1.1')).toEqual(locked(4, BY_ACCOUNT));
    at(T0 + 1000 + 2500);
    expect(await check(limits, 'login:dan', '10.2.1.1')).toEqual(locked(2, BY_ACCOUNT));
    for (let i = 0; i < 8; i++) await limits.recordFailure('login:dan', `10.2.3.${i}`);
    expect(await check(limits, 'login:dan', '10.2.1.1')).toEqual(locked(MAX_DELAY_MS / 1000, BY_ACCOUNT));
    // Another account's failures are its own; clearing ends the delay.
    expect(await check(limits, 'login:dana', '10.2.1.1')).toBe('free');
    await limits.clear('login:dan');
    expect(await check(limits, 'login:dan', '10.2.1.1')).toBe('free');
  });

  it('lets the owner through at an address the account signed in from within thirty days', async () => {
    const limits = new SignInLimits(database.db);
    const account = `user:${adminId}`;
    at(T0 + 40 * DAY);
    const now = Date.now();
    const issued = async (ip: string, issuedAt: number) =>
      database.db.insert(refreshTokens).values({
        tokenHash: tokenHash(randomUUID()),
        familyId: randomUUID(),
        userId: adminId,
        issuedAt: new Date(issuedAt),
        sessionStartedAt: new Date(issuedAt),
        expiresAt: new Date(issuedAt + 14 * DAY),
        ip,
      });
    await issued('10.3.0.1', now - 30 * DAY + 1);
    await issued('10.3.0.2', now - 30 * DAY);
    for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) await limits.recordFailure(account, `10.3.1.${i}`);
    expect(await check(limits, account, '10.3.0.1', adminId)).toBe('free');
    expect(await check(limits, account, '10.3.0.2', adminId)).toEqual(locked(1, BY_ACCOUNT));
    // Known for that user only, and only when the user is known.
    expect(await check(limits, account, '10.3.0.1')).toEqual(locked(1, BY_ACCOUNT));
    expect(await check(limits, account, '10.3.0.1', randomUUID())).toEqual(locked(1, BY_ACCOUNT));
    // The address limit holds even at a known address.
    for (let i = 0; i < IP_LIMIT; i++) await limits.recordFailure(`login:x${i}`, '10.3.0.1');
    expect(await check(limits, account, '10.3.0.1', adminId)).toEqual(locked(WINDOW_MS / 1000, BY_IP));
  });
});
