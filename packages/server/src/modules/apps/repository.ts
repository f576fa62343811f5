import { asc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apps } from '../../db/schema/index.ts';
import { type Executor, type PageQuery, TableRepository } from '../../lib/table-repository.ts';

export type AppRecord = typeof apps.$inferSelect;
/** An app as other modules name it: which team owns it. */
export type AppRef = { id: string; name: string; teamId: string };

/** The only SQL of the apps module, on the apps table. */
export class AppsRepository extends TableRepository<typeof apps> {
  constructor(db: Db) {
    super(db, apps, {
      sortable: {
        name: apps.name,
        language: apps.language,
        status: apps.status,
        createdAt: apps.createdAt,
        updatedAt: apps.updatedAt,
      },
      defaultSort: 'name',
      searched: [apps.name, apps.repoUrl],
    });
  }

  listPage(query: PageQuery & { teamId?: string; status?: string; language?: string }) {
    return this.page(query, [
      query.teamId ? eq(apps.teamId, query.teamId) : undefined,
      query.status ? eq(apps.status, query.status) : undefined,
      query.language ? eq(apps.language, query.language) : undefined,
    ]);
  }

  async idForTokenHash(hash: string): Promise<string | null> {
    const [row] = await this.db.select({ id: apps.id }).from(apps).where(eq(apps.ingestionTokenHash, hash));
    return row?.id ?? null;
  }

  /** Apps named `name`, and the one whose id it is when `id` is given; by id. */
  refsNamed(name: string, id?: string): Promise<AppRef[]> {
    const byName = eq(apps.name, name);
    return this.db
      .select({ id: apps.id, name: apps.name, teamId: apps.teamId })
      .from(apps)
      .where(id ? or(eq(apps.id, id), byName) : byName)
      .orderBy(asc(apps.id));
  }

  /** Id, name and team of the apps of a team (or every app), by name then id, as the list orders them. */
  refsOf(teamId?: string): Promise<AppRef[]> {
    return this.db
      .select({ id: apps.id, name: apps.name, teamId: apps.teamId })
      .from(apps)
      .where(teamId ? eq(apps.teamId, teamId) : undefined)
      .orderBy(asc(apps.name), asc(apps.id));
  }

  async ref(id: string): Promise<AppRef | null> {
    const [row] = await this.db
      .select({ id: apps.id, name: apps.name, teamId: apps.teamId })
      .from(apps)
      .where(eq(apps.id, id));
    return row ?? null;
  }

  /** A subquery of the ids of these teams' apps, for other modules' queries to filter by (kept in SQL). */
  idsOfTeams(teamIds: readonly string[]): SQL {
    return sql`select ${apps.id} from ${apps} where ${inArray(apps.teamId, [...teamIds])}`;
  }

  /** Every app's id, in id order. */
  async allIds(): Promise<string[]> {
    return (await this.db.select({ id: apps.id }).from(apps).orderBy(asc(apps.id))).map((r) => r.id);
  }

  names(ids: string[]): Promise<Map<string, string>> {
    return this.labels(ids, apps.name);
  }

  /** Replaces the ingestion token's hash; false when there is no such app. */
  async replaceToken(tx: Executor, id: string, hash: string): Promise<boolean> {
    const [row] = await tx
      .update(apps)
      .set({ ingestionTokenHash: hash, tokenIssuedAt: new Date(), updatedAt: new Date() })
      .where(eq(apps.id, id))
      .returning({ id: apps.id });
    return row !== undefined;
  }
}
