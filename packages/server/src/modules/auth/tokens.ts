import { createHash, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { ApiError } from '../../plugins/errors.ts';

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

  sign(userId: string): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.#key);
  }

  /** The user id of a valid token; 401 token-expired or unauthorized otherwise. */
  async verify(token: string): Promise<string> {
    try {
      const { payload } = await jwtVerify(token, this.#key, { algorithms: ['HS256'] });
      if (!payload.sub) throw new ApiError(401, 'unauthorized', 'Please sign in.');
      return payload.sub;
    } catch (e) {
      if (e instanceof errors.JWTExpired) throw new ApiError(401, 'token-expired', 'The access token has expired.');
      throw new ApiError(401, 'unauthorized', 'Please sign in.');
    }
  }
}
