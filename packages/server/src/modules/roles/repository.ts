import { count, eq } from 'drizzle-orm';
import { roles, users } from '../../db/schema/index.ts';
import type { Executor } from '../../lib/table-repository.ts';

export type RoleRecord = typeof roles.$inferSelect;
type RoleValues = Pick<typeof roles.$inferInsert, 'name' | 'abilities' | 'resourceNums'>;

/**
 * The only SQL of the roles module, on the database or the audited change's transaction. How many
 * users hold a role is counted here (users.role_id); the users module owns that table.
 */
export class RolesRepository {
  constructor(private readonly db: Executor) {}

  /** Every role with the number of users holding it, by name. */
  listWithHolders() {
    return this.db
      .select({ role: roles, users: count(users.id) })
      .from(roles)
      .leftJoin(users, eq(users.roleId, roles.id))
      .groupBy(roles.id)
      .orderBy(roles.name);
  }

  async find(id: string): Promise<RoleRecord | undefined> {
    const [role] = await this.db.select().from(roles).where(eq(roles.id, id));
    return role;
  }

  async idByName(name: string): Promise<string | undefined> {
    const [other] = await this.db.select({ id: roles.id }).from(roles).where(eq(roles.name, name));
    return other?.id;
  }

  async insert(values: RoleValues): Promise<string> {
    const [role] = await this.db.insert(roles).values(values).returning({ id: roles.id });
    if (!role) throw new Error('insert returned no row');
    return role.id;
  }

  async update(id: string, values: RoleValues): Promise<void> {
    await this.db.update(roles).set(values).where(eq(roles.id, id));
  }

  async holders(id: string): Promise<number> {
    const [held] = await this.db.select({ n: count() }).from(users).where(eq(users.roleId, id));
    return held?.n ?? 0;
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(roles).where(eq(roles.id, id));
  }
}
