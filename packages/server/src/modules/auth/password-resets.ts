import { ApiError } from '../../errors.ts';
import type { Executor } from '../../lib/table-repository.ts';
import { AuthRepository } from './repository.ts';
import { opaqueToken, tokenHash } from './tokens.ts';

const RESET_TTL_MS = 24 * 3600_000;

/** What the administrator passes on (packages/api's ResetLinkSchema). */
export type ResetLink = { token: string; url: string; expiresAt: string };

/**
 * Single-use links that set an account's password: issued by an administrator (a user's reset link,
 * an approved access request), redeemed on `/reset-password`. Only the token's hash is stored.
 */
export class PasswordResets {
  private readonly rows: AuthRepository;

  constructor(db: Executor) {
    this.rows = new AuthRepository(db);
  }

  /** Issues a link for the user; only the newest works (issue 32, finding 7): earlier unused ones go. */
  async issue(userId: string): Promise<ResetLink> {
    const token = opaqueToken();
    const expiresAt = new Date(Date.now() + RESET_TTL_MS);
    await this.rows.dropUnusedResets(userId);
    await this.rows.insertReset({ tokenHash: tokenHash(token), userId, expiresAt });
    return { token, url: `/pages/dashboard/reset-password?token=${token}`, expiresAt: expiresAt.toISOString() };
  }

  /** Claims the link atomically and drops the user's other unused ones; whose it was. */
  async redeem(token: string): Promise<string> {
    const userId = await this.rows.claimReset(tokenHash(token));
    if (!userId) throw new ApiError(400, 'bad-request', 'This reset link is invalid, used or expired.');
    await this.rows.dropUnusedResets(userId);
    return userId;
  }
}
