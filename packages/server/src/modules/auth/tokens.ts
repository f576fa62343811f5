import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { ApiError } from '../../errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function opaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Refresh and reset tokens are stored only as this hash. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

type Verified = { userId: string; sessionId: string | null; expiresAt: number };
/** Verified tokens kept at most; past it the cache starts again (tokens are re-verified, nothing is refused). */
export const VERIFIED_TOKENS_KEPT = 10_000;

export class AccessTokens {
  /**
   * The secret imported once: given raw bytes, jose imports them again as a key on every sign and
   * verify, a cost paid by every API call (bench/risks.ts). The secret is fixed for the process's life
   * (SEXTANT_JWT_SECRET; no rotation), so the key never goes stale.
   */
  readonly #key: Promise<webcrypto.CryptoKey>;
  /**
   * Tokens whose signature and claims were checked, until they expire: every call of a signed-in
   * client repeats its token, and checking an HMAC runs on the thread pool. A token is text signed by
   * us, so its check gives the same answer until its expiry; revoked sessions are checked apart
   * (`sessionEnded`), on every call, cached or not.
   */
  readonly #verified = new Map<string, Verified>();

  constructor(
    secret: string,
    readonly ttlSeconds: number,
    private readonly verifiedKept = VERIFIED_TOKENS_KEPT,
  ) {
    this.#key = webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }

  /** `sid` names the session (refresh-token family), so that ending it ends its access tokens too. */
  async sign(userId: string, sessionId: string): Promise<string> {
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(await this.#key);
  }

  /** The user id of a valid token; 401 token-expired or unauthorized otherwise. */
  async verify(token: string): Promise<string> {
    return (await this.verifySession(token)).userId;
  }

  /**
   * The user and session of a valid token. Ids that are not UUIDs are refused here (issue 32,
   * finding 9): only our key signs tokens, but a leaked key must not turn into 500s.
   */
  async verifySession(token: string): Promise<{ userId: string; sessionId: string | null }> {
    const known = this.#verified.get(token);
    if (known) {
      // jose's rule: expired once `exp` is not after the current second.
      if (known.expiresAt <= Math.floor(Date.now() / 1000)) {
        this.#verified.delete(token);
        throw new ApiError(401, 'token-expired', 'The access token has expired.');
      }
      return { userId: known.userId, sessionId: known.sessionId };
    }
    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      ({ payload } = await jwtVerify(token, await this.#key, { algorithms: ['HS256'] }));
    } catch (e) {
      if (e instanceof errors.JWTExpired) throw new ApiError(401, 'token-expired', 'The access token has expired.');
      throw new ApiError(401, 'unauthorized', 'Please sign in.');
    }
    const { sub, sid } = payload;
    if (typeof sub !== 'string' || !UUID.test(sub)) throw new ApiError(401, 'unauthorized', 'Please sign in.');
    if (sid !== undefined && (typeof sid !== 'string' || !UUID.test(sid))) {
      throw new ApiError(401, 'unauthorized', 'Please sign in.');
    }
    const verified = { userId: sub, sessionId: sid ?? null };
    // Tokens without an expiry (never ours) are checked every time.
    if (typeof payload.exp === 'number') {
      if (this.#verified.size >= this.verifiedKept) this.#verified.clear();
      this.#verified.set(token, { ...verified, expiresAt: payload.exp });
    }
    return verified;
  }

  /** How many verified tokens are kept now (tests). */
  get verifiedNow(): number {
    return this.#verified.size;
  }
}
