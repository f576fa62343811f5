import { asc, eq, inArray } from 'drizzle-orm';
import { roles } from '../../db/schema/index.ts';
import type { Executor } from '../../lib/table-repository.ts';

export type RoleRecord = typeof roles.$inferSelect;
type RoleValues = Pick<typeof roles.$inferInsert, 'name' | 'abilities' | 'resourceNums'>;

/**
 * The only SQL of the roles module, on the database or the audited change's transaction. How many
 * users hold a role is the users module's to count.
 */
export class RolesRepository {
  constructor(private readonly db: Executor) {}

  /** Every role, by name. */
  list(): Promise<RoleRecord[]> {
    return this.db.select().from(roles).orderBy(asc(roles.name));
  }

  async find(id: string): Promise<RoleRecord | undefined> {
    const [role] = await this.db.select().from(roles).where(eq(roles.id, id));
    return role;
  }

  async named(name: string): Promise<RoleRecord | undefined> {
    const [role] = await this.db.select().from(roles).where(eq(roles.name, name));
    return role;
  }

  /** Role names by id. */
  async names(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: roles.id, name: roles.name })
      .from(roles)
      .where(inArray(roles.id, [...new Set(ids)]));
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async insert(values: RoleValues): Promise<string> {
    const [role] = await this.db.insert(roles).values(values).returning({ id: roles.id });
    if (!role) throw new Error('insert returned no row');
    return role.id;
  }

  async update(id: string, values: RoleValues): Promise<void> {
    await this.db.update(roles).set(values).where(eq(roles.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(roles).where(eq(roles.id, id));
  }
}
