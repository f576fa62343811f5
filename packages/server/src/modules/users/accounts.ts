import type { UserRef } from '@sextant/api';
import type { Executor } from '../../lib/table-repository.ts';
import { type UserRecord, UsersRepository } from './repository.ts';
import { usernameKey } from './usernames.ts';

/**
 * What other modules ask of the users module: an account to sign in or to load as the caller, who
 * people are (names shown beside rows, ids from usernames), how many hold a role, and the account an
 * approved access request becomes. On the database or the caller's transaction.
 */
export class Accounts {
  private readonly rows: UsersRepository;

  constructor(private readonly db: Executor) {
    this.rows = new UsersRepository(db);
  }

  /** The account a sign-in names, by username (compared form or exact) or email. */
  signingIn(login: string): Promise<UserRecord | undefined> {
    return this.rows.signingIn(login, usernameKey(login));
  }

  find(id: string): Promise<UserRecord | undefined> {
    return this.rows.find(id);
  }

  /** The username now, for the audit log's entries. */
  usernameOf(id: string): Promise<string | undefined> {
    return this.rows.usernameOf(id);
  }

  /** Accounts holding this compared username or this (lower-case) email, as (key, email). */
  namesHeld(key: string, email: string): Promise<{ key: string; email: string }[]> {
    return this.rows.holdersOf(key, email);
  }

  /** An account with a password nobody knows yet (the applicant sets it through a reset link). */
  async create(values: {
    username: string;
    usernameKey: string;
    email: string;
    displayName: string;
    passwordHash: string;
    roleId: string;
  }): Promise<string> {
    return (await this.rows.insert(this.db, values)).id;
  }

  /** How many accounts hold each role (absent: none). */
  holdersByRole(): Promise<Map<string, number>> {
    return this.rows.holdersByRole();
  }

  async holdersOf(roleId: string): Promise<number> {
    return (await this.rows.holdersByRole(roleId)).get(roleId) ?? 0;
  }

  /** Username and display name of these users (leaders, owners), by id. */
  async refs(ids: (string | null)[]): Promise<Map<string, UserRef>> {
    return new Map((await this.orderedRefs(ids)).map((r) => [r.id, r]));
  }

  /** The same, in username order. */
  orderedRefs(ids: (string | null)[]): Promise<UserRef[]> {
    return this.rows.refs([...new Set(ids.filter((id): id is string => id !== null))]);
  }

  /** User ids by username, for imports that name people by username. */
  idsByUsername(usernames: string[]): Promise<Map<string, string>> {
    return this.rows.idsByUsername([...new Set(usernames)]);
  }

  /** Who owns each of these rows, as shown beside it (null for none). */
  async ownersOf(rows: { ownerId: string | null }[]): Promise<(ownerId: string | null) => UserRef | null> {
    const refs = await this.refs(rows.map((r) => r.ownerId));
    return (ownerId) => (ownerId && refs.get(ownerId)) || null;
  }
}

/** Who owns each of these rows (projects, requirements, cases), as shown beside it. */
export function ownersOf(db: Executor, rows: { ownerId: string | null }[]) {
  return new Accounts(db).ownersOf(rows);
}

/** User ids by username, for imports that name people by username. */
export function userIdsByUsername(db: Executor, usernames: string[]): Promise<Map<string, string>> {
  return new Accounts(db).idsByUsername(usernames);
}
