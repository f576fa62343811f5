import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { refreshTokens } from '../../src/db/schema/index.ts';
import { tokenHash } from '../../src/modules/auth/tokens.ts';
import { ADMIN_PASSWORD, signIn, useAdminApp } from '../support/build-test-app.ts';

/**
 * Guards two refresh-token rules no other test noticed missing (issue 40's hand mutations): an
 * expired token is refused, and of two refreshes racing with one token exactly one wins.
 */
describe('refresh tokens: expiry and the claim race', () => {
  const t = useAdminApp();
  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: '/api/refreshToken', payload: { refreshToken } });

  it('refuses a refresh token past its expiry, though it was never used nor revoked', async () => {
    const { refreshToken } = await signIn(t.app, 'admin', ADMIN_PASSWORD);
    await t.database.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.tokenHash, tokenHash(refreshToken)));
    const res = await refresh(refreshToken);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      code: 401,
      message: 'Please sign in again.',
      data: { error: 'invalid-refresh-token' },
    });
    const [row] = await t.database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash(refreshToken)));
    expect(row?.usedAt).toBeNull();
  });

  it('still accepts the same kind of token a second before it expires', async () => {
    const { refreshToken } = await signIn(t.app, 'admin', ADMIN_PASSWORD);
    await t.database.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(refreshTokens.tokenHash, tokenHash(refreshToken)));
    expect((await refresh(refreshToken)).statusCode).toBe(200);
  });

  it('lets exactly one of two refreshes racing with the same token win', async () => {
    // Several rounds: each pair is sent at once, so both read the unused row before either claims it.
    for (let round = 0; round < 5; round++) {
      const { refreshToken } = await signIn(t.app, 'admin', ADMIN_PASSWORD);
      const answers = await Promise.all([refresh(refreshToken), refresh(refreshToken)]);
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes, `round ${round}`).toEqual([200, 401]);
      expect(answers.find((a) => a.statusCode === 401)?.json().data.error).toBe('invalid-refresh-token');
    }
  });
});
