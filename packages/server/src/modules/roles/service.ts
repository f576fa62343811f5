import type { RoleInput } from '@sextant/api';
import { count, eq } from 'drizzle-orm';
import { roles, users } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import type { Executor } from '../audit/service.ts';
import { type Rights, refuseEscalation } from './grants.ts';

const NAME_TAKEN = 'A role with this name exists.';

export class RolesService {
  constructor(private readonly db: Executor) {}

  /** The same service on a transaction (an audited change runs in one). */
  within(tx: Executor): RolesService {
    return new RolesService(tx);
  }

  async list() {
    const rows = await this.db
      .select({ role: roles, users: count(users.id) })
      .from(roles)
      .leftJoin(users, eq(users.roleId, roles.id))
      .groupBy(roles.id)
      .orderBy(roles.name);
    return rows.map(({ role, users: holders }) => ({
      id: role.id,
      name: role.name,
      ability: role.abilities,
      resourceNums: role.resourceNums,
      builtin: role.builtin,
      users: holders,
    }));
  }

  private async find(id: string) {
    const [role] = await this.db.select().from(roles).where(eq(roles.id, id));
    if (!role) throw new ApiError(404, 'not-found', 'No such role.');
    return role;
  }

  private async refuseTakenName(name: string, exceptId?: string) {
    const [other] = await this.db.select({ id: roles.id }).from(roles).where(eq(roles.name, name));
    if (other && other.id !== exceptId) throw new ApiError(409, 'conflict', NAME_TAKEN, { name: NAME_TAKEN });
  }

  /** Nobody makes a role holding more than they do (issue 32, finding 3). */
  async create(input: RoleInput, actor: Rights) {
    refuseEscalation({ ability: input.ability, resourceNums: input.resourceNums }, actor, `The role ${input.name}`);
    await this.refuseTakenName(input.name);
    const [role] = await this.db
      .insert(roles)
      .values({ name: input.name, abilities: input.ability, resourceNums: input.resourceNums })
      .returning({ id: roles.id });
    if (!role) throw new Error('insert returned no row');
    return this.one(role.id);
  }

  /**
   * Built-in roles keep their name (navigation rule 3 depends on `admin` and `client`); admin keeps
   * manage-all. Only someone holding all a role's rights, before and after, may edit it.
   */
  async update(id: string, input: RoleInput, actor: Rights) {
    const role = await this.find(id);
    refuseEscalation({ ability: role.abilities, resourceNums: role.resourceNums }, actor, `The role ${role.name}`);
    refuseEscalation({ ability: input.ability, resourceNums: input.resourceNums }, actor, `The role ${input.name}`);
    if (role.builtin && input.name !== role.name) {
      const message = 'Built-in roles keep their name.';
      throw new ApiError(400, 'validation-failed', message, { name: message });
    }
    if (role.name === 'admin') {
      const message = 'The admin role always manages everything.';
      throw new ApiError(400, 'validation-failed', message, { ability: message });
    }
    await this.refuseTakenName(input.name, id);
    await this.db
      .update(roles)
      .set({ name: input.name, abilities: input.ability, resourceNums: input.resourceNums })
      .where(eq(roles.id, id));
    return this.one(id);
  }

  async remove(id: string) {
    const role = await this.find(id);
    if (role.builtin) throw new ApiError(409, 'conflict', 'Built-in roles cannot be deleted.');
    const [held] = await this.db.select({ n: count() }).from(users).where(eq(users.roleId, id));
    if ((held?.n ?? 0) > 0) {
      throw new ApiError(409, 'conflict', `${held?.n} user(s) hold this role; give them another role first.`);
    }
    await this.db.delete(roles).where(eq(roles.id, id));
  }

  private async one(id: string) {
    const found = (await this.list()).find((r) => r.id === id);
    if (!found) throw new ApiError(404, 'not-found', 'No such role.');
    return found;
  }
}
