import { randomUUID } from 'node:crypto';
import { DEFAULT_SETTINGS } from '@sextant/api';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { seededDatabase } from '../../../test/support/build-test-app.ts';
import type { Database } from '../../db/client.ts';
import { refreshTokens, roles, settings, users } from '../../db/schema/index.ts';
import { Accounts } from '../users/accounts.ts';
import { CACHE_MS, Principals } from './principals.ts';
import { AuthRepository } from './repository.ts';
import { tokenHash } from './tokens.ts';

/**
 * Who the caller is (userData, profile, settings) and whether their session ended, loaded from a
 * real database and kept for CACHE_MS with the clock held still. scripts/mutation.mjs runs this file
 * against principals.ts.
 *
 * Surviving mutant, explained: `if (!role) return undefined` made `if (false)`: users.role_id
 * references roles, so an account's role is always found.
 */

const T0 = new Date('2026-06-01T09:00:00.000Z').getTime();

describe('principals', () => {
  let database: Database;
  let adminId: string;
  beforeAll(async () => {
    ({ database, adminId } = await seededDatabase());
  }, 300_000);
  afterAll(async () => database?.close());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  const at = (ms: number) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(ms);
  };
  const newUser = async (username: string, role: string, extra: Partial<typeof users.$inferInsert> = {}) => {
    const [r] = await database.db.select().from(roles).where(eq(roles.name, role));
    const [row] = await database.db
      .insert(users)
      .values({
        username,
        usernameKey: username,
        email: `${username}@example.test`,
        passwordHash: 'x',
        roleId: r?.id as string,
        ...extra,
      })
      .returning({ id: users.id });
    return row?.id as string;
  };
  const rename = (id: string, displayName: string) =>
    database.db.update(users).set({ displayName }).where(eq(users.id, id));

  it('loads the userData, profile and settings of an enabled account, nothing for others', async () => {
    const id = await newUser('pia', 'tester', {
      displayName: 'Pia P',
      usertypes: [2, 3],
      preferences: { lang: 'zh' },
    });
    await database.db.update(settings).set({ value: 7 }).where(eq(settings.key, 'traceSeriousThreshold'));
    const [tester] = await database.db.select().from(roles).where(eq(roles.name, 'tester'));
    const loaded = await new Principals(database.db).load(id);
    const expectedSettings = { ...DEFAULT_SETTINGS, traceSeriousThreshold: 7 };
    expect(loaded).toEqual({
      settings: expectedSettings,
      userData: {
        userid: id,
        usertypes: [2, 3],
        resourceNums: tester?.resourceNums,
        performanceRiskRules: {
          trace_consuming_time_serious_threshold: 7,
          trace_consuming_time_warn_threshold: DEFAULT_SETTINGS.traceWarnThreshold,
        },
        ability: tester?.abilities,
        role: 'tester',
      },
      profile: { username: 'pia', displayName: 'Pia P', email: 'pia@example.test', preferences: { lang: 'zh' } },
    });
    expect((await new Principals(database.db).load(adminId))?.profile.preferences).toEqual({});
    const off = await newUser('pete', 'tester', { enabled: false });
    expect(await new Principals(database.db).load(off)).toBeUndefined();
    expect(await new Principals(database.db).load(randomUUID())).toBeUndefined();
    await database.db
      .update(settings)
      .set({ value: DEFAULT_SETTINGS.traceSeriousThreshold })
      .where(eq(settings.key, 'traceSeriousThreshold'));
  });

  it('keeps a load for CACHE_MS, shared by concurrent callers, and forgets it when invalidated', async () => {
    const id = await newUser('quin', 'developer', { displayName: 'Before' });
    const principals = new Principals(database.db);
    at(T0);
    const [a, b] = await Promise.all([principals.load(id), principals.load(id)]);
    expect(a).toBe(b);
    await rename(id, 'After');
    at(T0 + CACHE_MS - 1);
    expect((await principals.load(id))?.profile.displayName).toBe('Before');
    at(T0 + CACHE_MS);
    expect((await principals.load(id))?.profile.displayName).toBe('After');
    await rename(id, 'Again');
    principals.invalidate();
    expect((await principals.load(id))?.profile.displayName).toBe('Again');
  });

  it('does not keep a failed load', async () => {
    const principals = new Principals(database.db);
    vi.spyOn(Accounts.prototype, 'find').mockRejectedValueOnce(new Error('database away'));
    await expect(principals.load(adminId)).rejects.toThrow('database away');
    expect((await principals.load(adminId))?.userData.userid).toBe(adminId);
  });

  it('keeps the settings for CACHE_MS, not a failed read, and forgets them when invalidated', async () => {
    const principals = new Principals(database.db);
    const setGrade = (value: number) =>
      database.db.update(settings).set({ value }).where(eq(settings.key, 'passingGrade'));
    at(T0);
    const read = vi.spyOn(Principals.prototype as unknown as { readSettings: () => Promise<unknown> }, 'readSettings');
    read.mockRejectedValueOnce(new Error('database away'));
    await expect(principals.settings()).rejects.toThrow('database away');
    expect((await principals.settings()).passingGrade).toBe(DEFAULT_SETTINGS.passingGrade);
    await setGrade(0.55);
    at(T0 + CACHE_MS - 1);
    expect((await principals.settings()).passingGrade).toBe(DEFAULT_SETTINGS.passingGrade);
    at(T0 + CACHE_MS);
    expect((await principals.settings()).passingGrade).toBe(0.55);
    await setGrade(0.56);
    principals.invalidate();
    expect((await principals.settings()).passingGrade).toBe(0.56);
    await setGrade(DEFAULT_SETTINGS.passingGrade);
  });

  it('tells whether a session ended, cached for CACHE_MS unless forgotten or invalidated', async () => {
    const principals = new Principals(database.db);
    const familyId = randomUUID();
    await database.db.insert(refreshTokens).values({
      tokenHash: tokenHash(randomUUID()),
      familyId,
      userId: adminId,
      expiresAt: new Date(Date.now() + 3600_000),
    });
    const end = () =>
      database.db.update(refreshTokens).set({ revokedAt: new Date() }).where(eq(refreshTokens.familyId, familyId));
    const reopen = () =>
      database.db.update(refreshTokens).set({ revokedAt: null }).where(eq(refreshTokens.familyId, familyId));
    at(T0);
    vi.spyOn(AuthRepository.prototype, 'familyRevoked').mockRejectedValueOnce(new Error('database away'));
    await expect(principals.sessionEnded(familyId)).rejects.toThrow('database away');
    expect(await principals.sessionEnded(familyId)).toBe(false);
    await end();
    at(T0 + CACHE_MS - 1);
    expect(await principals.sessionEnded(familyId)).toBe(false);
    at(T0 + CACHE_MS);
    expect(await principals.sessionEnded(familyId)).toBe(true);
    await reopen();
    principals.forgetSession(familyId);
    expect(await principals.sessionEnded(familyId)).toBe(false);
    await end();
    principals.invalidate();
    expect(await principals.sessionEnded(familyId)).toBe(true);
    // Another session's answer is its own.
    expect(await principals.sessionEnded(randomUUID())).toBe(false);
  });

  it('holds at most ten thousand sessions’ and accounts’ answers, starting afresh beyond', async () => {
    const principals = new Principals(database.db);
    at(T0); // all of them within one cache time
    const ended = vi.spyOn(AuthRepository.prototype, 'familyRevoked').mockResolvedValue(false);
    const read = vi.spyOn(Principals.prototype as unknown as { read: () => Promise<unknown> }, 'read');
    read.mockResolvedValue(undefined);
    const ids = Array.from({ length: 10_001 }, () => randomUUID());
    for (const id of ids) {
      await principals.sessionEnded(id);
      await principals.load(id);
    }
    ended.mockResolvedValue(true);
    read.mockResolvedValue('reloaded');
    // Ten thousand and one kept: the first is still a hit.
    expect(await principals.sessionEnded(ids[0] as string)).toBe(false);
    expect(await principals.load(ids[0] as string)).toBeUndefined();
    // One more clears them.
    await principals.sessionEnded(randomUUID());
    await principals.load(randomUUID());
    expect(await principals.sessionEnded(ids[0] as string)).toBe(true);
    expect(await principals.load(ids[0] as string)).toBe('reloaded');
  });
});
