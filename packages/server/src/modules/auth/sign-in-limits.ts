import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import { AuthRepository } from './repository.ts';

const WINDOW_MS = 15 * 60_000;
/** Failed sign-ins from one address, whatever the account, before that address waits out the window. */
export const IP_LIMIT = 10;
/** Failed sign-ins on one account before each further try from an unknown address waits. */
export const ACCOUNT_FREE_FAILURES = 5;
const FIRST_DELAY_MS = 1000;
export const MAX_DELAY_MS = 5 * 60_000;
/** An address the account signed in from within this time is known (it had the password then). */
const KNOWN_FOR_MS = 30 * 24 * 3600_000;

function locked(retryAfterMs: number, message: string): ApiError {
  return new ApiError(429, 'account-locked', message, undefined, Math.max(1, Math.ceil(retryAfterMs / 1000)));
}

/**
 * Sign-in throttling that an attacker cannot turn against the account's owner (issue 32, finding 7;
 * OWASP's advice against hard account lockout): an address with too many failures waits out the
 * window; failures on one account make each further try from an address the account has never
 * signed in from wait a delay doubling from 1 s up to 5 minutes after the last failure, and tries
 * refused during a delay are not counted. No permanent lock, no captcha: the owner signs in at once
 * from an address they used before, and from a new one after at most the delay.
 */
export class SignInLimits {
  private readonly rows: AuthRepository;

  constructor(db: Db) {
    this.rows = new AuthRepository(db);
  }

  async refuseIfLimited(account: string, userId: string | undefined, ip: string): Promise<void> {
    const now = Date.now();
    const since = new Date(now - WINDOW_MS);
    const row = await this.rows.failuresSince(account, ip, since);
    if (!row) return;
    if (row.byIp >= IP_LIMIT) {
      const freeAt = Number(row.firstByIp ?? now) + WINDOW_MS;
      throw locked(freeAt - now, 'Too many failed sign-ins from your address; try again later.');
    }
    if (row.byAccount < ACCOUNT_FREE_FAILURES || row.lastOnAccount === null) return;
    const delay = Math.min(FIRST_DELAY_MS * 2 ** (row.byAccount - ACCOUNT_FREE_FAILURES), MAX_DELAY_MS);
    const wait = Number(row.lastOnAccount) + delay - now;
    if (wait <= 0 || (userId && (await this.rows.signedInFrom(userId, ip, new Date(now - KNOWN_FOR_MS))))) return;
    throw locked(wait, 'Too many failed sign-ins on this account; wait a moment and try again.');
  }

  recordFailure(account: string, ip: string): Promise<void> {
    return this.rows.recordFailure(account, ip);
  }

  clear(account: string): Promise<void> {
    return this.rows.clearFailures(account);
  }
}
