import { hash, verify } from '@node-rs/argon2';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { ApiError } from '../../plugins/errors.ts';

export class ProfileService {
  constructor(private readonly db: Db) {}

  async update(
    userId: string,
    input: { displayName?: string; email?: string; preferences?: Record<string, string | undefined> },
  ): Promise<void> {
    const [current] = await this.db.select().from(users).where(eq(users.id, userId));
    if (!current) throw new ApiError(404, 'not-found', 'No such user.');
    const email = input.email?.toLowerCase();
    if (email && email !== current.email) {
      const [taken] = await this.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, email), ne(users.id, userId)));
      if (taken) {
        throw new ApiError(409, 'conflict', 'This email is already in use.', {
          email: 'This email is already in use.',
        });
      }
    }
    await this.db
      .update(users)
      .set({
        displayName: input.displayName ?? current.displayName,
        email: email ?? current.email,
        preferences: { ...(current.preferences as Record<string, string>), ...input.preferences },
      })
      .where(eq(users.id, userId));
  }

  async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<void> {
    const [user] = await this.db.select().from(users).where(eq(users.id, userId));
    if (!user || !(await verify(user.passwordHash, currentPassword))) {
      const message = 'The current password is not right.';
      throw new ApiError(400, 'validation-failed', message, { currentPassword: message });
    }
    await this.db
      .update(users)
      .set({ passwordHash: await hash(newPassword, { algorithm: 2 }) })
      .where(eq(users.id, userId));
  }
}
