import { and, count, desc, eq, gt, isNotNull, isNull, max, ne, sql } from 'drizzle-orm';
import { loginFailures, passwordResets, refreshTokens, throttleEvents } from '../../db/schema/index.ts';
import type { Executor } from '../../lib/table-repository.ts';

export type RefreshTokenRecord = typeof refreshTokens.$inferSelect;

/**
 * The only SQL of the auth module, on its own tables: refresh tokens (one family per session),
 * password reset links, failed sign-ins and throttled attempts. On the database or the caller's
 * transaction; the accounts themselves are the users module's.
 */
export class AuthRepository {
  constructor(private readonly db: Executor) {}

  async insertRefreshToken(values: typeof refreshTokens.$inferInsert): Promise<void> {
    await this.db.insert(refreshTokens).values(values);
  }

  async refreshTokenByHash(hash: string): Promise<RefreshTokenRecord | undefined> {
    const [row] = await this.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hash));
    return row;
  }

  /** Marks an unused token used; false when another request used it first. */
  async claimRefreshToken(id: string): Promise<boolean> {
    const claimed = await this.db
      .update(refreshTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt)))
      .returning({ id: refreshTokens.id });
    return claimed.length > 0;
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  /** Whether any token of the family was revoked (the session was ended). */
  async familyRevoked(familyId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.familyId, familyId), isNotNull(refreshTokens.revokedAt)))
      .limit(1);
    return rows.length > 0;
  }

  /** The user's tokens still usable: unused, unrevoked, not expired, issued after `issuedAfter`; newest first. */
  liveTokens(userId: string, now: Date, issuedAfter: Date): Promise<RefreshTokenRecord[]> {
    return this.db
      .select()
      .from(refreshTokens)
      .where(
        and(
          eq(refreshTokens.userId, userId),
          isNull(refreshTokens.usedAt),
          isNull(refreshTokens.revokedAt),
          gt(refreshTokens.expiresAt, now),
          gt(refreshTokens.issuedAt, issuedAfter),
        ),
      )
      .orderBy(desc(refreshTokens.issuedAt));
  }

  /** Revokes one of the user's families; false when the user has no such live family. */
  async revokeUsersFamily(userId: string, familyId: string): Promise<boolean> {
    const ended = await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(
        and(eq(refreshTokens.userId, userId), eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)),
      )
      .returning({ id: refreshTokens.id });
    return ended.length > 0;
  }

  /** Revokes every token of the user but those of the family `keep` (all when it is null). */
  async revokeUserBut(userId: string, keep: string | null): Promise<void> {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(refreshTokens.userId, userId),
          isNull(refreshTokens.revokedAt),
          keep ? ne(refreshTokens.familyId, keep) : undefined,
        ),
      );
  }

  /** Whether the user was issued a token at this address since `since`. */
  async signedInFrom(userId: string, ip: string, since: Date): Promise<boolean> {
    const [known] = await this.db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, userId), eq(refreshTokens.ip, ip), gt(refreshTokens.issuedAt, since)))
      .limit(1);
    return known !== undefined;
  }

  /** Failed sign-ins since `since`: on the account (count, latest) and from the address (count, earliest), in ms. */
  async failuresSince(account: string, ip: string, since: Date) {
    const [row] = await this.db
      .select({
        byAccount: sql<number>`count(*) filter (where ${loginFailures.account} = ${account})::int`,
        lastOnAccount: sql<
          number | null
        >`(extract(epoch from max(${loginFailures.at}) filter (where ${loginFailures.account} = ${account})) * 1000)::float8`,
        byIp: sql<number>`count(*) filter (where ${loginFailures.ip} = ${ip})::int`,
        firstByIp: sql<
          number | null
        >`(extract(epoch from min(${loginFailures.at}) filter (where ${loginFailures.ip} = ${ip})) * 1000)::float8`,
      })
      .from(loginFailures)
      .where(gt(loginFailures.at, since));
    return row;
  }

  async recordFailure(account: string, ip: string): Promise<void> {
    await this.db.insert(loginFailures).values({ account, ip, at: new Date() });
  }

  async clearFailures(account: string): Promise<void> {
    await this.db.delete(loginFailures).where(eq(loginFailures.account, account));
  }

  /** Attempts of a kind by a subject since `since`: how many, and the latest. */
  async attemptsSince(kind: string, subject: string, since: Date): Promise<{ n: number; last: Date | null }> {
    const [row] = await this.db
      .select({ n: count(), last: max(throttleEvents.at) })
      .from(throttleEvents)
      .where(and(eq(throttleEvents.kind, kind), eq(throttleEvents.subject, subject), gt(throttleEvents.at, since)));
    return { n: row?.n ?? 0, last: row?.last ?? null };
  }

  async recordAttempt(kind: string, subject: string): Promise<void> {
    await this.db.insert(throttleEvents).values({ kind, subject });
  }

  async clearAttempts(kind: string, subject: string): Promise<void> {
    await this.db.delete(throttleEvents).where(and(eq(throttleEvents.kind, kind), eq(throttleEvents.subject, subject)));
  }

  async insertReset(values: typeof passwordResets.$inferInsert): Promise<void> {
    await this.db.insert(passwordResets).values(values);
  }

  async dropUnusedResets(userId: string): Promise<void> {
    await this.db.delete(passwordResets).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
  }

  /** Marks an unused, unexpired reset used; its user, or undefined when there is none such. */
  async claimReset(hash: string): Promise<string | undefined> {
    const claimed = await this.db
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(passwordResets.tokenHash, hash),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, new Date()),
        ),
      )
      .returning({ userId: passwordResets.userId });
    return claimed[0]?.userId;
  }
}
