import { randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../errors.ts';
import { AccessTokens, opaqueToken, tokenHash } from './tokens.ts';

// Access, refresh and reset tokens (tokens.ts), including tokens the server never signs the way a
// leaked key or an old build would. scripts/mutation.mjs runs this file against tokens.ts.

const SECRET = 'tokens-test-secret';
const key = new TextEncoder().encode(SECRET);
const tokens = new AccessTokens(SECRET, 900);

/** A token signed with the server's key but claims of our choosing. */
function forge(claims: Record<string, unknown>, alg = 'HS256', expiresAt = Math.floor(Date.now() / 1000) + 60) {
  return new SignJWT(claims).setProtectedHeader({ alg }).setIssuedAt().setExpirationTime(expiresAt).sign(key);
}

async function refusalOf(token: string): Promise<ApiError> {
  const e = await tokens.verifySession(token).then(
    () => null,
    (err: unknown) => err,
  );
  if (!(e instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(e)}`);
  return e;
}

describe('opaque tokens and their stored hash', () => {
  it('makes 256-bit URL-safe tokens, a new one each time', () => {
    const a = opaqueToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(opaqueToken()).not.toBe(a);
  });

  it('stores a token as its SHA-256 in hex', () => {
    expect(tokenHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('access tokens', () => {
  it('signs HS256 tokens naming the user and the session, valid for the configured time', async () => {
    const user = randomUUID();
    const session = randomUUID();
    const token = await tokens.sign(user, session);
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    const claims = decodeJwt(token);
    expect([claims.sub, claims.sid]).toEqual([user, session]);
    expect((claims.exp as number) - (claims.iat as number)).toBe(900);
    expect(tokens.ttlSeconds).toBe(900);
    expect(await tokens.verifySession(token)).toEqual({ userId: user, sessionId: session });
    expect(await tokens.verify(token)).toBe(user);
  });

  it('accepts a token without a session (older builds) and upper-case ids', async () => {
    const user = randomUUID().toUpperCase();
    expect(await tokens.verifySession(await forge({ sub: user }))).toEqual({ userId: user, sessionId: null });
  });

  it('answers 401 token-expired for an expired token', async () => {
    const expired = await forge({ sub: randomUUID() }, 'HS256', Math.floor(Date.now() / 1000) - 60);
    const e = await refusalOf(expired);
    expect([e.status, e.error, e.message]).toEqual([401, 'token-expired', 'The access token has expired.']);
  });

  it('answers 401 unauthorized for another key, another algorithm or no token at all', async () => {
    const user = randomUUID();
    const others = [
      await new AccessTokens('another-secret', 900).sign(user, randomUUID()),
      await forge({ sub: user }, 'HS512'),
      'not-a-jwt',
    ];
    for (const token of others) {
      const e = await refusalOf(token);
      expect([e.status, e.error, e.message], token).toEqual([401, 'unauthorized', 'Please sign in.']);
    }
  });

  it('answers 401 unauthorized when the user or the session is not a UUID (issue 32, finding 9)', async () => {
    const id = randomUUID();
    const claims = [
      {},
      { sub: 42 },
      // An array of one id reads as that id where JavaScript turns it into a string.
      { sub: [id] },
      { sub: 'admin' },
      { sub: `x${id}` },
      { sub: `${id}x` },
      { sub: id, sid: 7 },
      { sub: id, sid: [id] },
      { sub: id, sid: 'session' },
      { sub: id, sid: `${id}0` },
      { sub: id, sid: `0${id}` },
    ];
    for (const c of claims) {
      const e = await refusalOf(await forge(c));
      expect([e.status, e.error, e.message], JSON.stringify(c)).toEqual([401, 'unauthorized', 'Please sign in.']);
    }
  });
});

describe('verified access tokens kept until they expire', () => {
  afterEach(() => vi.useRealTimers());

  it('answers a repeated token from what it verified, and 401 token-expired once its second has come', async () => {
    const kept = new AccessTokens(SECRET, 900);
    const user = randomUUID();
    const expiresAt = Math.floor(Date.now() / 1000) + 60;
    const token = await forge({ sub: user }, 'HS256', expiresAt);
    expect(await kept.verifySession(token)).toEqual({ userId: user, sessionId: null });
    expect(kept.verifiedNow).toBe(1);
    expect(await kept.verifySession(token)).toEqual({ userId: user, sessionId: null });
    expect(kept.verifiedNow).toBe(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((expiresAt - 1) * 1000 + 999);
    expect(await kept.verifySession(token)).toEqual({ userId: user, sessionId: null });
    vi.setSystemTime(expiresAt * 1000);
    const e = await kept.verifySession(token).then(
      () => null,
      (err: unknown) => err as ApiError,
    );
    expect([e?.status, e?.error]).toEqual([401, 'token-expired']);
    expect(kept.verifiedNow).toBe(0);
  });

  it('keeps nothing it refused: a token whose signature was altered stays refused beside the genuine one', async () => {
    const kept = new AccessTokens(SECRET, 900);
    const token = await kept.sign(randomUUID(), randomUUID());
    await kept.verifySession(token);
    const [head, body, signature = ''] = token.split('.');
    const altered = `${head}.${body}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    for (let i = 0; i < 2; i++) {
      const e = await kept.verifySession(altered).then(
        () => null,
        (err: unknown) => err as ApiError,
      );
      expect([e?.status, e?.error]).toEqual([401, 'unauthorized']);
    }
    expect(kept.verifiedNow).toBe(1);
  });

  it('starts again when full, and keeps no token without an expiry', async () => {
    const kept = new AccessTokens(SECRET, 900, 2);
    const a = await kept.sign(randomUUID(), randomUUID());
    const b = await kept.sign(randomUUID(), randomUUID());
    await kept.verifySession(a);
    await kept.verifySession(b);
    expect(kept.verifiedNow).toBe(2);
    const c = await kept.sign(randomUUID(), randomUUID());
    expect((await kept.verifySession(c)).userId).toBe(decodeJwt(c).sub);
    expect(kept.verifiedNow).toBe(1);
    const user = randomUUID();
    const forever = await new SignJWT({ sub: user }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect(await kept.verifySession(forever)).toEqual({ userId: user, sessionId: null });
    expect(kept.verifiedNow).toBe(1);
  });
});
