import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import { Accounts } from '../users/accounts.ts';
import type { Principals } from './principals.ts';
import { AuthRepository } from './repository.ts';
import type { SessionPolicy } from './sessions.ts';
import { SignInLimits } from './sign-in-limits.ts';
import { type AccessTokens, opaqueToken, tokenHash } from './tokens.ts';

const INVALID = () => new ApiError(400, 'invalid-credentials', 'Email or Password is Invalid');
const BAD_REFRESH = () => new ApiError(401, 'invalid-refresh-token', 'Please sign in again.');

/** Where a request came from, kept with the session for the user's session list. */
export type Client = { ip: string; userAgent: string | undefined };

let decoy: Promise<string> | null = null;
function decoyHash(): Promise<string> {
  decoy ??= hash(randomUUID(), { algorithm: 2 });
  return decoy;
}

export class AuthService {
  private readonly limits: SignInLimits;
  private readonly rows: AuthRepository;
  private readonly accounts: Accounts;

  constructor(
    db: Db,
    private readonly tokens: AccessTokens,
    private readonly principals: Principals,
    private readonly policy: SessionPolicy,
  ) {
    this.limits = new SignInLimits(db);
    this.rows = new AuthRepository(db);
    this.accounts = new Accounts(db);
  }

  async login(login: string, password: string, client: Client) {
    const typed = login.toLowerCase();
    const user = await this.accounts.signingIn(login);
    // Failures count against the account whichever name or email was typed.
    const account = user ? `user:${user.id}` : `login:${typed}`;
    await this.limits.refuseIfLimited(account, user?.id, client.ip);
    // Unknown users cost one hash verification too, so timing does not tell which names exist.
    const hashToCheck = user?.passwordHash ?? (await decoyHash());
    if (!(await verify(hashToCheck, password)) || !user) {
      await this.limits.recordFailure(account, client.ip);
      throw INVALID();
    }
    if (!user.enabled) throw new ApiError(403, 'account-disabled', 'This account is disabled.');
    await this.limits.clear(account);
    return this.issue(user.id, { id: randomUUID(), startedAt: new Date() }, client);
  }

  private async issue(userId: string, session: { id: string; startedAt: Date }, client: Client) {
    const principal = await this.principals.load(userId);
    if (!principal) throw BAD_REFRESH();
    const refreshToken = opaqueToken();
    await this.rows.insertRefreshToken({
      tokenHash: tokenHash(refreshToken),
      familyId: session.id,
      userId,
      issuedAt: new Date(),
      sessionStartedAt: session.startedAt,
      expiresAt: new Date(session.startedAt.getTime() + this.policy.maxMs),
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
    });
    return {
      accessToken: await this.tokens.sign(userId, session.id),
      refreshToken,
      userData: principal.userData,
      settings: principal.settings,
    };
  }

  /**
   * Rotation: the presented token dies; presenting a dead one revokes its whole family. A token
   * unused for the idle time (issue 32, finding 8) ends its session, as does the session's end.
   */
  async refresh(refreshToken: string, client: Client) {
    const row = await this.rows.refreshTokenByHash(tokenHash(refreshToken));
    if (!row) throw BAD_REFRESH();
    if (row.usedAt || row.revokedAt) {
      await this.revokeFamily(row.familyId);
      throw BAD_REFRESH();
    }
    const now = Date.now();
    if (row.expiresAt.getTime() <= now || row.issuedAt.getTime() + this.policy.idleMs <= now) {
      await this.revokeFamily(row.familyId);
      throw BAD_REFRESH();
    }
    if (!(await this.rows.claimRefreshToken(row.id))) {
      await this.revokeFamily(row.familyId);
      throw BAD_REFRESH();
    }
    return this.issue(row.userId, { id: row.familyId, startedAt: row.sessionStartedAt }, client);
  }

  async logout(userId: string, refreshToken: string | undefined): Promise<void> {
    if (!refreshToken) return;
    const row = await this.rows.refreshTokenByHash(tokenHash(refreshToken));
    if (row && row.userId === userId) await this.revokeFamily(row.familyId);
  }

  private async revokeFamily(familyId: string): Promise<void> {
    await this.rows.revokeFamily(familyId);
    this.principals.forgetSession(familyId);
  }
}
