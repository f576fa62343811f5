import type { Session } from '@sextant/api';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import { refreshTokens } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import type { Executor } from '../audit/service.ts';

/** How long refresh tokens live: `idleMs` unused (rotation restarts it), `maxMs` from the sign-in. */
export type SessionPolicy = { idleMs: number; maxMs: number };
export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMs: 12 * 3600_000, maxMs: 14 * 24 * 3600_000 };

/**
 * A session is one refresh-token family: a sign-in on one device, alive while its newest token is
 * unused, unrevoked and neither idle too long nor past its end. Its id is the family id, which the
 * access tokens of that session carry as `sid`.
 */
export class Sessions {
  constructor(
    private readonly db: Executor,
    private readonly policy: SessionPolicy,
  ) {}

  async list(userId: string, currentSessionId: string | null): Promise<Session[]> {
    const now = Date.now();
    const rows = await this.db
      .select()
      .from(refreshTokens)
      .where(
        and(
          eq(refreshTokens.userId, userId),
          isNull(refreshTokens.usedAt),
          isNull(refreshTokens.revokedAt),
          gt(refreshTokens.expiresAt, new Date(now)),
          gt(refreshTokens.issuedAt, new Date(now - this.policy.idleMs)),
        ),
      )
      .orderBy(desc(refreshTokens.issuedAt));
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
    const ended = await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(
        and(eq(refreshTokens.userId, userId), eq(refreshTokens.familyId, sessionId), isNull(refreshTokens.revokedAt)),
      )
      .returning({ id: refreshTokens.id });
    if (ended.length === 0) throw new ApiError(404, 'not-found', 'No such session.');
  }

  /** Ends every session of the user but `keep` (all of them when it is null). */
  revokeAllBut(userId: string, keep: string | null): Promise<void> {
    return endSessionsBut(this.db, userId, keep);
  }
}

/** Ends every session of a user but `keep` (all of them when it is null): after a password change. */
export async function endSessionsBut(db: Executor, userId: string, keep: string | null): Promise<void> {
  await db
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
