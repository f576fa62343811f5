import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { UserUpdate } from '@sextant/api';
import { type AnyColumn, and, asc, count, desc, eq, gt, ilike, isNull, or } from 'drizzle-orm';
import { applications, passwordResets, refreshTokens, roles, users } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import type { Executor } from '../audit/service.ts';
import { networkOf, Throttle } from '../auth/throttle.ts';
import { opaqueToken, tokenHash } from '../auth/tokens.ts';
import { type Rights, refuseEscalation } from '../roles/grants.ts';
import { usernameKey } from './usernames.ts';

const RESET_TTL_MS = 24 * 3600_000;
/** Access requests per network and hour: enough for a person, too few to test which names exist. */
export const REGISTRATIONS_PER_HOUR = 5;
const USERNAME_TAKEN = 'This username is already in use.';
const EMAIL_TAKEN = 'This email is already in use.';

export type UserRow = {
  id: string;
  username: string;
  email: string;
  displayName: string;
  role: string;
  usertypes: number[];
  enabled: boolean;
};

const SORTABLE: Record<string, AnyColumn> = {
  username: users.username,
  email: users.email,
  displayName: users.displayName,
  enabled: users.enabled,
  createdAt: users.createdAt,
};

function toRow(user: typeof users.$inferSelect, role: string): UserRow {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    displayName: user.displayName,
    role,
    usertypes: user.usertypes,
    enabled: user.enabled,
  };
}

/** An argon2id hash of the password, or of a random one nobody knows when none is given. */
export function hashPassword(password?: string): Promise<string> {
  return hash(password ?? randomBytes(24).toString('base64url'), { algorithm: 2 });
}

export class UsersService {
  constructor(private readonly db: Executor) {}

  /** The same service on a transaction (an audited change runs in one). */
  within(tx: Executor): UsersService {
    return new UsersService(tx);
  }

  private async refuseDuplicates(username: string, email: string): Promise<void> {
    const fields: Record<string, string> = {};
    const lower = email.toLowerCase();
    const key = usernameKey(username);
    const taken = await this.db
      .select({ key: users.usernameKey, email: users.email })
      .from(users)
      .where(or(eq(users.usernameKey, key), eq(users.email, lower)));
    const pending = await this.db
      .select({ key: applications.usernameKey, email: applications.email })
      .from(applications)
      .where(
        and(eq(applications.status, 'pending'), or(eq(applications.usernameKey, key), eq(applications.email, lower))),
      );
    for (const row of [...taken, ...pending]) {
      if (row.key === key) fields.username = USERNAME_TAKEN;
      if (row.email === lower) fields.email = EMAIL_TAKEN;
    }
    if (fields.username || fields.email) {
      throw new ApiError(409, 'conflict', fields.username ?? fields.email ?? USERNAME_TAKEN, fields);
    }
  }

  /**
   * The duplicate messages of specification point 5 stay (an applicant must learn why a request
   * cannot be made); what keeps them from listing the accounts is the hard limit per network.
   */
  async apply(
    input: {
      username: string;
      email: string;
      displayName?: string;
      teamId?: string;
      wantedRole?: string;
      reason?: string;
    },
    ip: string,
  ) {
    const registrations = new Throttle(
      this.db,
      'register',
      REGISTRATIONS_PER_HOUR,
      3600_000,
      'Too many access requests from your network; try again later.',
    );
    await registrations.take(networkOf(ip));
    await this.refuseDuplicates(input.username, input.email);
    await this.db.insert(applications).values({
      username: input.username,
      usernameKey: usernameKey(input.username),
      email: input.email.toLowerCase(),
      displayName: input.displayName ?? '',
      team: input.teamId ?? null,
      wantedRole: input.wantedRole ?? null,
      reason: input.reason ?? '',
    });
  }

  /**
   * `passwordHash` comes from `hashPassword`, made before the transaction: argon2 takes a while,
   * and the embedded database serves no other connection while a transaction is open.
   */
  async create(
    input: { username: string; email: string; displayName?: string; role: string; passwordHash: string },
    actor: Rights,
  ): Promise<UserRow> {
    const role = await this.roleNamed(input.role);
    refuseEscalation({ ability: role.abilities, resourceNums: role.resourceNums }, actor, `The role ${role.name}`);
    await this.refuseDuplicates(input.username, input.email);
    const [user] = await this.db
      .insert(users)
      .values({
        username: input.username,
        usernameKey: usernameKey(input.username),
        email: input.email.toLowerCase(),
        displayName: input.displayName ?? '',
        passwordHash: input.passwordHash,
        roleId: role.id,
      })
      .returning();
    if (!user) throw new Error('insert returned no row');
    return toRow(user, role.name);
  }

  async list(query: {
    page: number;
    perPage: number;
    q?: string;
    sortBy?: string;
    sortDesc?: boolean;
  }): Promise<{ items: UserRow[]; total: number }> {
    const pattern = query.q ? `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const where = pattern
      ? or(ilike(users.username, pattern), ilike(users.email, pattern), ilike(users.displayName, pattern))
      : undefined;
    const column = SORTABLE[query.sortBy ?? 'username'] ?? users.username;
    const rows = await this.db
      .select({ user: users, role: roles.name })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(where)
      .orderBy(query.sortDesc ? desc(column) : asc(column), asc(users.id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage);
    const [total] = await this.db.select({ n: count() }).from(users).where(where);
    return { items: rows.map(({ user, role }) => toRow(user, role)), total: total?.n ?? 0 };
  }

  private async roleNamed(name: string) {
    const [role] = await this.db.select().from(roles).where(eq(roles.name, name));
    if (!role) throw new ApiError(400, 'validation-failed', 'Unknown role.', { role: 'Unknown role.' });
    return role;
  }

  /** An account's rights: its role's abilities and resources, and its user types. */
  private async rightsOf(userId: string): Promise<Rights & { role: string }> {
    const [row] = await this.db
      .select({ usertypes: users.usertypes, role: roles })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(eq(users.id, userId));
    if (!row) throw new ApiError(404, 'not-found', 'No such user.');
    return {
      role: row.role.name,
      ability: row.role.abilities,
      resourceNums: row.role.resourceNums,
      usertypes: row.usertypes,
    };
  }

  /**
   * Issue 32, finding 3: an account is changed only by someone holding all its rights, gets no role
   * or user type beyond the changer's own, and nobody changes their own role or user types.
   */
  private async refuseEscalatingUpdate(id: string, input: UserUpdate, actor: Rights & { id: string }) {
    const target = await this.rightsOf(id);
    const sameTypes = (types: readonly number[]) =>
      JSON.stringify([...types].sort()) === JSON.stringify([...(target.usertypes ?? [])].sort());
    if (
      id === actor.id &&
      ((input.role && input.role !== target.role) || (input.usertypes && !sameTypes(input.usertypes)))
    ) {
      throw new ApiError(403, 'forbidden', 'You cannot change your own role or user types; ask another administrator.');
    }
    refuseEscalation(target, actor, 'This account');
    if (input.role && input.role !== target.role) {
      const role = await this.roleNamed(input.role);
      refuseEscalation({ ability: role.abilities, resourceNums: role.resourceNums }, actor, `The role ${role.name}`);
    }
    if (input.usertypes)
      refuseEscalation({ ability: [], resourceNums: {}, usertypes: input.usertypes }, actor, 'These user types');
  }

  /** Disabling is how a user leaves: the account keeps what it owns; an admin cannot lock themself out. */
  async update(
    id: string,
    input: UserUpdate,
    actor: Rights & { id: string },
  ): Promise<{ before: UserRow; after: UserRow }> {
    const [current] = await this.db.select().from(users).where(eq(users.id, id));
    if (!current) throw new ApiError(404, 'not-found', 'No such user.');
    await this.refuseEscalatingUpdate(id, input, actor);
    const before = await this.row(id);
    if (id === actor.id && input.enabled === false) {
      const message = 'You cannot disable yourself.';
      throw new ApiError(400, 'validation-failed', message, { enabled: message });
    }
    const email = input.email?.toLowerCase();
    if (email && email !== current.email) {
      const [taken] = await this.db.select({ id: users.id }).from(users).where(eq(users.email, email));
      if (taken) throw new ApiError(409, 'conflict', EMAIL_TAKEN, { email: EMAIL_TAKEN });
    }
    const roleId = input.role ? (await this.roleNamed(input.role)).id : current.roleId;
    await this.db
      .update(users)
      .set({
        displayName: input.displayName ?? current.displayName,
        email: email ?? current.email,
        roleId,
        usertypes: input.usertypes ?? current.usertypes,
        enabled: input.enabled ?? current.enabled,
        updatedAt: new Date(),
      })
      .where(eq(users.id, id));
    if (input.enabled === false) {
      await this.db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.userId, id), isNull(refreshTokens.revokedAt)));
    }
    return { before, after: await this.row(id) };
  }

  private async row(id: string): Promise<UserRow> {
    const [row] = await this.db
      .select({ user: users, role: roles.name })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(eq(users.id, id));
    if (!row) throw new ApiError(404, 'not-found', 'No such user.');
    return toRow(row.user, row.role);
  }

  /** A reset link lets its holder become that account, so only someone holding all its rights issues one. */
  async resetLink(userId: string, actor: Rights) {
    refuseEscalation(await this.rightsOf(userId), actor, 'This account');
    const token = opaqueToken();
    const expiresAt = new Date(Date.now() + RESET_TTL_MS);
    // Only the newest link works (issue 32, finding 7): one passed on earlier cannot be used later.
    await this.dropUnusedResetLinks(userId);
    await this.db.insert(passwordResets).values({ tokenHash: tokenHash(token), userId, expiresAt });
    return { token, url: `/pages/dashboard/reset-password?token=${token}`, expiresAt: expiresAt.toISOString() };
  }

  private async dropUnusedResetLinks(userId: string): Promise<void> {
    await this.db.delete(passwordResets).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
  }

  /** Single use: the token is claimed atomically; all refresh tokens of the user die with the old password. */
  async resetPassword(token: string, password: string): Promise<void> {
    const claimed = await this.db
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(passwordResets.tokenHash, tokenHash(token)),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, new Date()),
        ),
      )
      .returning({ userId: passwordResets.userId });
    const row = claimed[0];
    if (!row) throw new ApiError(400, 'bad-request', 'This reset link is invalid, used or expired.');
    await this.dropUnusedResetLinks(row.userId);
    await this.db
      .update(users)
      .set({ passwordHash: await hashPassword(password), updatedAt: new Date() })
      .where(eq(users.id, row.userId));
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.userId, row.userId), isNull(refreshTokens.revokedAt)));
  }
}
