import type { RoleInput } from '@sextant/api';
import { ApiError } from '../../errors.ts';
import type { Executor } from '../../lib/table-repository.ts';
import { Accounts } from '../users/accounts.ts';
import { type Rights, refuseEscalation } from './grants.ts';
import { type RoleRecord, RolesRepository } from './repository.ts';

const NAME_TAKEN = 'A role with this name exists.';

export class RolesService {
  private readonly rows: RolesRepository;
  private readonly accounts: Accounts;

  constructor(db: Executor) {
    this.rows = new RolesRepository(db);
    this.accounts = new Accounts(db);
  }

  /** The same service on a transaction (an audited change runs in one). */
  within(tx: Executor): RolesService {
    return new RolesService(tx);
  }

  async list() {
    const [rows, holders] = await Promise.all([this.rows.list(), this.accounts.holdersByRole()]);
    return rows.map((role) => ({
      id: role.id,
      name: role.name,
      ability: role.abilities,
      resourceNums: role.resourceNums,
      builtin: role.builtin,
      users: holders.get(role.id) ?? 0,
    }));
  }

  /** The role of this name; 400 on `role` when there is none (a user's or an applicant's role). */
  async named(name: string): Promise<RoleRecord> {
    const role = await this.rows.named(name);
    if (!role) throw new ApiError(400, 'validation-failed', 'Unknown role.', { role: 'Unknown role.' });
    return role;
  }

  /** The role by id (an account's), if it exists. */
  byId(id: string): Promise<RoleRecord | undefined> {
    return this.rows.find(id);
  }

  /** Role names by id, for lists of accounts. */
  names(ids: string[]): Promise<Map<string, string>> {
    return this.rows.names(ids);
  }

  private async find(id: string) {
    const role = await this.rows.find(id);
    if (!role) throw new ApiError(404, 'not-found', 'No such role.');
    return role;
  }

  private async refuseTakenName(name: string, exceptId?: string) {
    const otherId = (await this.rows.named(name))?.id;
    if (otherId && otherId !== exceptId) throw new ApiError(409, 'conflict', NAME_TAKEN, { name: NAME_TAKEN });
  }

  /** Nobody makes a role holding more than they do (issue 32, finding 3). */
  async create(input: RoleInput, actor: Rights) {
    refuseEscalation({ ability: input.ability, resourceNums: input.resourceNums }, actor, `The role ${input.name}`);
    await this.refuseTakenName(input.name);
    const id = await this.rows.insert({ name: input.name, abilities: input.ability, resourceNums: input.resourceNums });
    return this.one(id);
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
    await this.rows.update(id, { name: input.name, abilities: input.ability, resourceNums: input.resourceNums });
    return this.one(id);
  }

  async remove(id: string) {
    const role = await this.find(id);
    if (role.builtin) throw new ApiError(409, 'conflict', 'Built-in roles cannot be deleted.');
    const held = await this.accounts.holdersOf(id);
    if (held > 0) {
      throw new ApiError(409, 'conflict', `${held} user(s) hold this role; give them another role first.`);
    }
    await this.rows.delete(id);
  }

  private async one(id: string) {
    const found = (await this.list()).find((r) => r.id === id);
    if (!found) throw new ApiError(404, 'not-found', 'No such role.');
    return found;
  }
}
