import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginFailures, refreshTokens, users } from '../../db/schema/index.ts';
import { ApiError } from '../../plugins/errors.ts';
import { usernameKey } from '../users/usernames.ts';
import type { Principals } from './principals.ts';
import { type AccessTokens, opaqueToken, tokenHash } from './tokens.ts';

const LOCK_WINDOW_MS = 15 * 60_000;
const LOCK_AFTER = 10;
const REFRESH_TTL_MS = 14 * 24 * 3600_000;
const INVALID = () => new ApiError(400, 'invalid-credentials', 'Email or Password is Invalid');
const BAD_REFRESH = () => new ApiError(401, 'invalid-refresh-token', 'Please sign in again.');

let decoy: Promise<string> | null = null;
function decoyHash(): Promise<string> {
  decoy ??= hash(randomUUID(), { algorithm: 2 });
  return decoy;
}

export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly tokens: AccessTokens,
    private readonly principals: Principals,
  ) {}

  async login(login: string, password: string, ip: string) {
    const typed = login.toLowerCase();
    const [user] = await this.db
      .select()
      .from(users)
      // By the compared form of the name (issue 32, finding 7); the exact name too, for an older
      // account whose stored key the migration could not make its own.
      .where(
        or(eq(users.usernameKey, usernameKey(login)), eq(users.username, login), sql`lower(${users.email}) = ${typed}`),
      );
    // Failures count against the account whichever name or email was typed.
    const account = user ? `user:${user.id}` : `login:${typed}`;
    await this.refuseIfLocked(account, ip);
    // Unknown users cost one hash verification too, so timing does not tell which names exist.
    const hashToCheck = user?.passwordHash ?? (await decoyHash());
    if (!(await verify(hashToCheck, password)) || !user) {
      await this.db.insert(loginFailures).values({ account, ip });
      throw INVALID();
    }
    if (!user.enabled) throw new ApiError(403, 'account-disabled', 'This account is disabled.');
    await this.db.delete(loginFailures).where(eq(loginFailures.account, account));
    return this.issue(user.id, randomUUID());
  }

  private async refuseIfLocked(account: string, ip: string): Promise<void> {
    const since = new Date(Date.now() - LOCK_WINDOW_MS);
    const [row] = await this.db
      .select({
        byAccount: sql<number>`count(*) filter (where ${loginFailures.account} = ${account})::int`,
        byIp: sql<number>`count(*) filter (where ${loginFailures.ip} = ${ip})::int`,
      })
      .from(loginFailures)
      .where(gt(loginFailures.at, since));
    if ((row?.byAccount ?? 0) >= LOCK_AFTER || (row?.byIp ?? 0) >= LOCK_AFTER) {
      throw new ApiError(429, 'account-locked', 'Too many failed sign-ins; try again in 15 minutes.');
    }
  }

  private async issue(userId: string, familyId: string) {
    const principal = await this.principals.load(userId);
    if (!principal) throw BAD_REFRESH();
    const refreshToken = opaqueToken();
    await this.db.insert(refreshTokens).values({
      tokenHash: tokenHash(refreshToken),
      familyId,
      userId,
      expiresAt: new Date(Date.now() + REFRESH_TTL_MS),
    });
    return {
      accessToken: await this.tokens.sign(userId),
      refreshToken,
      userData: principal.userData,
      settings: principal.settings,
    };
  }

  /** Rotation: the presented token dies; presenting a dead one revokes its whole family. */
  async refresh(refreshToken: string) {
    const [row] = await this.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash(refreshToken)));
    if (!row) throw BAD_REFRESH();
    if (row.usedAt || row.revokedAt) {
      await this.revokeFamily(row.familyId);
      throw BAD_REFRESH();
    }
    if (row.expiresAt < new Date()) throw BAD_REFRESH();
    const claimed = await this.db
      .update(refreshTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt)))
      .returning({ id: refreshTokens.id });
    if (claimed.length === 0) {
      await this.revokeFamily(row.familyId);
      throw BAD_REFRESH();
    }
    return this.issue(row.userId, row.familyId);
  }

  async logout(userId: string, refreshToken: string | undefined): Promise<void> {
    if (!refreshToken) return;
    const [row] = await this.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash(refreshToken)));
    if (row && row.userId === userId) await this.revokeFamily(row.familyId);
  }

  private async revokeFamily(familyId: string): Promise<void> {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }
}
