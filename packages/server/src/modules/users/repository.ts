import type { UserRef } from '@sextant/api';
import { and, asc, count, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { users } from '../../db/schema/index.ts';
import { type Executor, type PageQuery, TableRepository } from '../../lib/table-repository.ts';

export type UserRecord = typeof users.$inferSelect;

/**
 * The only SQL of the users module, on the users table, on the database or the audited change's
 * transaction. Roles, sessions, reset links and access requests are other modules' (their services).
 */
export class UsersRepository extends TableRepository<typeof users> {
  constructor(db: Executor) {
    super(db, users, {
      sortable: {
        username: users.username,
        email: users.email,
        displayName: users.displayName,
        enabled: users.enabled,
        createdAt: users.createdAt,
      },
      defaultSort: 'username',
      searched: [users.username, users.email, users.displayName],
    });
  }

  listPage(query: PageQuery) {
    return this.page(query, []);
  }

  /** Accounts holding this compared username or this (lower-case) email. */
  holdersOf(key: string, email: string): Promise<{ key: string; email: string }[]> {
    return this.db
      .select({ key: users.usernameKey, email: users.email })
      .from(users)
      .where(or(eq(users.usernameKey, key), eq(users.email, email)));
  }

  /** Whether another account than `exceptId` has this email. */
  async emailTaken(email: string, exceptId?: string): Promise<boolean> {
    const [taken] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), exceptId ? ne(users.id, exceptId) : undefined));
    return taken !== undefined;
  }

  /**
   * The account a sign-in names: by the compared form of the name (issue 32, finding 7), the exact
   * name too (an older account whose stored key the migration could not make its own), or the email.
   */
  async signingIn(login: string, key: string): Promise<UserRecord | undefined> {
    const [user] = await this.db
      .select()
      .from(users)
      .where(
        or(eq(users.usernameKey, key), eq(users.username, login), sql`lower(${users.email}) = ${login.toLowerCase()}`),
      );
    return user;
  }

  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, id));
  }

  /** Username and display name of these users, by username. */
  refs(ids: string[]): Promise<UserRef[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .select({ id: users.id, username: users.username, displayName: users.displayName })
      .from(users)
      .where(inArray(users.id, ids))
      .orderBy(asc(users.username));
  }

  async idsByUsername(usernames: string[]): Promise<Map<string, string>> {
    if (usernames.length === 0) return new Map();
    const rows = await this.db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(inArray(users.username, usernames));
    return new Map(rows.map((r) => [r.username, r.id]));
  }

  async usernameOf(id: string): Promise<string | undefined> {
    const [row] = await this.db.select({ username: users.username }).from(users).where(eq(users.id, id));
    return row?.username;
  }

  /** How many accounts hold each role (roles no account holds are absent). */
  async holdersByRole(roleId?: string): Promise<Map<string, number>> {
    const rows = await this.db
      .select({ roleId: users.roleId, n: count() })
      .from(users)
      .where(roleId ? eq(users.roleId, roleId) : undefined)
      .groupBy(users.roleId);
    return new Map(rows.map((r) => [r.roleId, r.n]));
  }
}
