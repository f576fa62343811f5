import { type IdentityKeys, identityKeys } from '@sextant/api';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userGitIdentities, users } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import type { Executor } from '../../lib/table-repository.ts';

/** A person as other modules match blame authors to them: the account's e-mail and its git identities. */
export type GitPerson = { id: string; username: string; email: string; keys: IdentityKeys };

const TAKEN = 'Another account commits under this identity.';

/**
 * The names and e-mail addresses users commit under (issue 34; table user_git_identities, the
 * users module's). Other modules ask through `gitIdentityReads`, never by SQL of their own.
 */
export class GitIdentities {
  constructor(private readonly db: Executor) {}

  async of(userId: string, executor: Executor = this.db): Promise<string[]> {
    const rows = await executor
      .select({ identity: userGitIdentities.identity })
      .from(userGitIdentities)
      .where(eq(userGitIdentities.userId, userId))
      .orderBy(asc(userGitIdentities.createdAt), asc(userGitIdentities.identity));
    return rows.map((r) => r.identity);
  }

  /** An account's identities; null when there is no such account. */
  async ofAccount(userId: string): Promise<string[] | null> {
    const [user] = await this.db.select({ id: users.id }).from(users).where(eq(users.id, userId));
    return user ? this.of(userId) : null;
  }

  /**
   * Replaces a user's list, in the caller's transaction. An identity another account lists, or
   * another account's e-mail, is refused (409): one identity belongs to one person.
   */
  async replace(
    tx: Executor,
    userId: string,
    identities: readonly string[],
  ): Promise<{ from: string[]; to: string[] }> {
    const from = await this.of(userId, tx);
    const keys = identities.map((v) => v.toLowerCase());
    if (keys.length > 0) {
      const held = await tx
        .select({ key: userGitIdentities.identityKey })
        .from(userGitIdentities)
        .where(and(inArray(userGitIdentities.identityKey, keys), ne(userGitIdentities.userId, userId)));
      const mailed = await tx
        .select({ email: users.email })
        .from(users)
        .where(and(inArray(sql`lower(${users.email})`, keys), ne(users.id, userId)));
      const taken = [...held.map((h) => h.key), ...mailed.map((m) => m.email.toLowerCase())];
      if (taken.length > 0) {
        const message = `${TAKEN} (${taken[0]})`;
        throw new ApiError(409, 'conflict', message, { identities: message });
      }
    }
    await tx.delete(userGitIdentities).where(eq(userGitIdentities.userId, userId));
    if (identities.length > 0) {
      await tx
        .insert(userGitIdentities)
        .values(identities.map((identity, i) => ({ userId, identity, identityKey: keys[i] as string })));
    }
    return { from, to: [...identities] };
  }

  /** One account's matching keys: its e-mail and its identities; null for an unknown account. */
  async keysOf(userId: string): Promise<IdentityKeys | null> {
    const [user] = await this.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!user) return null;
    return identityKeys([user.email, ...(await this.of(userId))]);
  }

  /** Enabled accounts that list at least one identity, with their keys (to group or notify by author). */
  async peopleWithIdentities(): Promise<GitPerson[]> {
    const rows = await this.db
      .select({
        id: users.id,
        username: users.username,
        email: users.email,
        identity: userGitIdentities.identity,
      })
      .from(userGitIdentities)
      .innerJoin(users, eq(users.id, userGitIdentities.userId))
      .where(eq(users.enabled, true))
      .orderBy(asc(users.username));
    const byId = new Map<string, { id: string; username: string; email: string; identities: string[] }>();
    for (const r of rows) {
      const person = byId.get(r.id) ?? { id: r.id, username: r.username, email: r.email, identities: [] };
      person.identities.push(r.identity);
      byId.set(r.id, person);
    }
    return [...byId.values()].map((p) => ({
      id: p.id,
      username: p.username,
      email: p.email,
      keys: identityKeys([p.email, ...p.identities]),
    }));
  }
}

/** What other modules may ask of users' git identities. */
export const gitIdentityReads = (db: Db) => {
  const identities = new GitIdentities(db);
  return {
    keysOf: (userId: string) => identities.keysOf(userId),
    /** The account's e-mail and its identities as the user wrote them (to show what is matched). */
    listedOf: async (userId: string): Promise<string[]> => {
      const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
      return user ? [user.email, ...(await identities.of(userId))] : [];
    },
    peopleWithIdentities: () => identities.peopleWithIdentities(),
  };
};
export type GitIdentityReads = ReturnType<typeof gitIdentityReads>;
