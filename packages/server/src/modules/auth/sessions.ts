import type { Session } from '@sextant/api';
import { ApiError } from '../../errors.ts';
import type { Executor } from '../../lib/table-repository.ts';
import { AuthRepository } from './repository.ts';

/** How long refresh tokens live: `idleMs` unused (rotation restarts it), `maxMs` from the sign-in. */
export type SessionPolicy = { idleMs: number; maxMs: number };
export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMs: 12 * 3600_000, maxMs: 14 * 24 * 3600_000 };

/**
 * A session is one refresh-token family: a sign-in on one device, alive while its newest token is
 * unused, unrevoked and neither idle too long nor past its end. Its id is the family id, which the
 * access tokens of that session carry as `sid`.
 */
export class Sessions {
  private readonly rows: AuthRepository;

  constructor(
    db: Executor,
    private readonly policy: SessionPolicy,
  ) {
    this.rows = new AuthRepository(db);
  }

  async list(userId: string, currentSessionId: string | null): Promise<Session[]> {
    const now = Date.now();
    const rows = await this.rows.liveTokens(userId, new Date(now), new Date(now - this.policy.idleMs));
    return rows.map((row) => ({
      id: row.familyId,
      createdAt: row.sessionStartedAt.toISOString(),
      lastUsedAt: row.issuedAt.toISOString(),
      ip: row.ip,
      userAgent: row.userAgent,
      current: row.familyId === currentSessionId,
    }));
  }

  /** Ends one of the user's own sessions; another user's, or none, answers 404 alike. */
  async revoke(userId: string, sessionId: string): Promise<void> {
    if (!(await this.rows.revokeUsersFamily(userId, sessionId)))
      throw new ApiError(404, 'not-found', 'No such session.');
  }

  /** Ends every session of the user but `keep` (all of them when it is null). */
  revokeAllBut(userId: string, keep: string | null): Promise<void> {
    return this.rows.revokeUserBut(userId, keep);
  }
}

/** Ends every session of a user but `keep` (all of them when it is null): after a password change. */
export function endSessionsBut(db: Executor, userId: string, keep: string | null): Promise<void> {
  return new AuthRepository(db).revokeUserBut(userId, keep);
}
