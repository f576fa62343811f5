import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { versions } from '../../db/schema/index.ts';
import { type PageQuery, TableRepository } from '../../lib/table-repository.ts';

export type VersionRecord = typeof versions.$inferSelect;

/** The only SQL of the versions module, on its one table. */
export class VersionsRepository extends TableRepository<typeof versions> {
  constructor(db: Db) {
    super(db, versions, {
      sortable: {
        name: versions.name,
        status: versions.status,
        plannedRelease: versions.plannedRelease,
        createdAt: versions.createdAt,
      },
      defaultSort: 'createdAt',
      searched: [versions.name, versions.newRef, versions.baseRef],
    });
  }

  listPage(query: PageQuery & { projectId?: string; appId?: string; status?: string }) {
    return this.page(query, [
      query.projectId ? eq(versions.projectId, query.projectId) : undefined,
      query.appId ? eq(versions.appId, query.appId) : undefined,
      query.status ? eq(versions.status, query.status) : undefined,
    ]);
  }

  async projectIdOf(id: string): Promise<string | null> {
    const [row] = await this.db.select({ projectId: versions.projectId }).from(versions).where(eq(versions.id, id));
    return row?.projectId ?? null;
  }

  names(ids: string[]): Promise<Map<string, string>> {
    return this.labels(ids, versions.name);
  }
}
