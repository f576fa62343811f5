import { createHash, randomBytes } from 'node:crypto';
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

export class AccessTokens {
  readonly #key: Uint8Array;
  constructor(
    secret: string,
    readonly ttlSeconds: number,
  ) {
    this.#key = new TextEncoder().encode(secret);
  }

  /** `sid` names the session (refresh-token family), so that ending it ends its access tokens too. */
  sign(userId: string, sessionId: string): Promise<string> {
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.#key);
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
    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      ({ payload } = await jwtVerify(token, this.#key, { algorithms: ['HS256'] }));
    } catch (e) {
      if (e instanceof errors.JWTExpired) throw new ApiError(401, 'token-expired', 'The access token has expired.');
      throw new ApiError(401, 'unauthorized', 'Please sign in.');
    }
    const { sub, sid } = payload;
    if (typeof sub !== 'string' || !UUID.test(sub)) throw new ApiError(401, 'unauthorized', 'Please sign in.');
    if (sid !== undefined && (typeof sid !== 'string' || !UUID.test(sid))) {
      throw new ApiError(401, 'unauthorized', 'Please sign in.');
    }
    return { userId: sub, sessionId: sid ?? null };
  }
}
