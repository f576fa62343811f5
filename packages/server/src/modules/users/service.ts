import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { PageQuery, UserUpdate } from '@sextant/api';
import { ApiError } from '../../errors.ts';
import type { Executor } from '../../lib/table-repository.ts';
import { PasswordResets } from '../auth/password-resets.ts';
import { endSessionsBut } from '../auth/sessions.ts';
import { type Rights, refuseEscalation } from '../roles/grants.ts';
import { RolesService } from '../roles/service.ts';
import { type UserRecord, UsersRepository } from './repository.ts';
import { EMAIL_TAKEN, refuseTakenNames, usernameKey } from './usernames.ts';

export type UserRow = {
  id: string;
  username: string;
  email: string;
  displayName: string;
  role: string;
  usertypes: number[];
  enabled: boolean;
};

/**
 * Pending access requests holding a compared username or an email: the applications module's,
 * handed in where the modules are wired (that module creates accounts through this one).
 */
export type PendingRequests = {
  namesHeld(executor: Executor, key: string, email: string): Promise<{ key: string; email: string }[]>;
};

function toRow(user: UserRecord, role: string): UserRow {
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

/** The accounts on `/system/users`: listed, created, changed, given a reset link; and the reset itself. */
export class UsersService {
  private readonly rows: UsersRepository;
  private readonly roles: RolesService;

  constructor(
    private readonly db: Executor,
    private readonly requests: PendingRequests,
  ) {
    this.rows = new UsersRepository(db);
    this.roles = new RolesService(db);
  }

  /** The same service on a transaction (an audited change runs in one). */
  within(tx: Executor): UsersService {
    return new UsersService(tx, this.requests);
  }

  async list(query: PageQuery): Promise<{ items: UserRow[]; total: number }> {
    const { rows, total } = await this.rows.listPage(query);
    const roles = await this.roles.names(rows.map((r) => r.roleId));
    return { items: rows.map((user) => toRow(user, roles.get(user.roleId) ?? '')), total };
  }

  /**
   * `passwordHash` comes from `hashPassword`, made before the transaction: argon2 takes a while,
   * and the embedded database serves no other connection while a transaction is open.
   */
  async create(
    input: { username: string; email: string; displayName?: string; role: string; passwordHash: string },
    actor: Rights,
  ): Promise<UserRow> {
    const role = await this.roles.named(input.role);
    refuseEscalation({ ability: role.abilities, resourceNums: role.resourceNums }, actor, `The role ${role.name}`);
    const key = usernameKey(input.username);
    const email = input.email.toLowerCase();
    const held = [...(await this.rows.holdersOf(key, email)), ...(await this.requests.namesHeld(this.db, key, email))];
    refuseTakenNames(held, key, email);
    const user = await this.rows.insert(this.db, {
      username: input.username,
      usernameKey: key,
      email,
      displayName: input.displayName ?? '',
      passwordHash: input.passwordHash,
      roleId: role.id,
    });
    return toRow(user, role.name);
  }

  /** An account's rights: its role's abilities and resources, and its user types. */
  private async rightsOf(userId: string): Promise<Rights & { role: string }> {
    const user = await this.rows.find(userId, this.db);
    const role = user && (await this.roles.byId(user.roleId));
    if (!user || !role) throw new ApiError(404, 'not-found', 'No such user.');
    return { role: role.name, ability: role.abilities, resourceNums: role.resourceNums, usertypes: user.usertypes };
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
      const role = await this.roles.named(input.role);
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
    const current = await this.rows.find(id, this.db);
    if (!current) throw new ApiError(404, 'not-found', 'No such user.');
    await this.refuseEscalatingUpdate(id, input, actor);
    const before = await this.row(id);
    if (id === actor.id && input.enabled === false) {
      const message = 'You cannot disable yourself.';
      throw new ApiError(400, 'validation-failed', message, { enabled: message });
    }
    const email = input.email?.toLowerCase();
    if (email && email !== current.email && (await this.rows.emailTaken(email))) {
      throw new ApiError(409, 'conflict', EMAIL_TAKEN, { email: EMAIL_TAKEN });
    }
    const roleId = input.role ? (await this.roles.named(input.role)).id : current.roleId;
    await this.rows.update(this.db, id, {
      displayName: input.displayName ?? current.displayName,
      email: email ?? current.email,
      roleId,
      usertypes: input.usertypes ?? current.usertypes,
      enabled: input.enabled ?? current.enabled,
      updatedAt: new Date(),
    });
    if (input.enabled === false) await endSessionsBut(this.db, id, null);
    return { before, after: await this.row(id) };
  }

  private async row(id: string): Promise<UserRow> {
    const user = await this.rows.find(id, this.db);
    const role = user && (await this.roles.byId(user.roleId));
    if (!user || !role) throw new ApiError(404, 'not-found', 'No such user.');
    return toRow(user, role.name);
  }

  /** Refuses (403) a change of someone holding rights the changer lacks; 404 for an unknown account. */
  async refuseOutranked(userId: string, actor: Rights): Promise<void> {
    refuseEscalation(await this.rightsOf(userId), actor, 'This account');
  }

  /** A reset link lets its holder become that account, so only someone holding all its rights issues one. */
  async resetLink(userId: string, actor: Rights) {
    refuseEscalation(await this.rightsOf(userId), actor, 'This account');
    return new PasswordResets(this.db).issue(userId);
  }

  /** Single use: the link is claimed atomically; all sessions of the user end with the old password. */
  async resetPassword(token: string, password: string): Promise<void> {
    const userId = await new PasswordResets(this.db).redeem(token);
    await this.rows.setPassword(userId, await hashPassword(password));
    await endSessionsBut(this.db, userId, null);
  }
}
