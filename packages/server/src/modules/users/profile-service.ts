import { verify } from '@node-rs/argon2';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import { endSessionsBut } from '../auth/sessions.ts';
import { Throttle } from '../auth/throttle.ts';
import { UsersRepository } from './repository.ts';
import { hashPassword } from './service.ts';
import { EMAIL_TAKEN } from './usernames.ts';

/** Wrong current passwords per account and quarter hour before `/api/me/password` answers 429. */
export const PASSWORD_CHANGE_TRIES = 5;

export class ProfileService {
  private readonly wrongPasswords: Throttle;
  private readonly rows: UsersRepository;

  constructor(private readonly db: Db) {
    this.rows = new UsersRepository(db);
    this.wrongPasswords = new Throttle(
      db,
      'password-change',
      PASSWORD_CHANGE_TRIES,
      15 * 60_000,
      'Too many wrong current passwords; try again later.',
    );
  }

  async update(
    userId: string,
    input: { displayName?: string; email?: string; preferences?: Record<string, string | undefined> },
  ): Promise<void> {
    const current = await this.rows.find(userId);
    if (!current) throw new ApiError(404, 'not-found', 'No such user.');
    const email = input.email?.toLowerCase();
    if (email && email !== current.email && (await this.rows.emailTaken(email, userId))) {
      throw new ApiError(409, 'conflict', EMAIL_TAKEN, { email: EMAIL_TAKEN });
    }
    await this.rows.update(this.db, userId, {
      displayName: input.displayName ?? current.displayName,
      email: email ?? current.email,
      preferences: { ...(current.preferences as Record<string, string>), ...input.preferences },
    });
  }

  /**
   * Needs the current password, with a limit on wrong ones per account (issue 32, finding 7): a
   * stolen access token must not become a way to guess it. The user's other sessions end; the one
   * that made the change (`sessionId`) stays signed in.
   */
  async changePassword(userId: string, sessionId: string | null, currentPassword: string, newPassword: string) {
    await this.wrongPasswords.refuseIfSpent(userId);
    const user = await this.rows.find(userId);
    if (!user || !(await verify(user.passwordHash, currentPassword))) {
      await this.wrongPasswords.record(userId);
      const message = 'The current password is not right.';
      throw new ApiError(400, 'validation-failed', message, { currentPassword: message });
    }
    await this.wrongPasswords.clear(userId);
    await this.rows.setPassword(userId, await hashPassword(newPassword));
    await endSessionsBut(this.db, userId, sessionId);
  }
}
