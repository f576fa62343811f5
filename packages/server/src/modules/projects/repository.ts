import { and, eq, exists, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { projectApps, projects } from '../../db/schema/index.ts';
import { type Executor, type PageQuery, TableRepository } from '../../lib/table-repository.ts';

export type ProjectRecord = typeof projects.$inferSelect;

/** The only SQL of the projects module: projects and the apps each delivers. */
export class ProjectsRepository extends TableRepository<typeof projects> {
  constructor(db: Db) {
    super(db, projects, {
      sortable: {
        name: projects.name,
        status: projects.status,
        startDate: projects.startDate,
        endDate: projects.endDate,
        createdAt: projects.createdAt,
      },
      defaultSort: 'name',
      searched: [projects.name],
    });
  }

  listPage(query: PageQuery & { teamId?: string; appId?: string; status?: string }) {
    return this.page(query, [
      query.teamId ? eq(projects.teamId, query.teamId) : undefined,
      query.status ? eq(projects.status, query.status) : undefined,
      query.appId
        ? exists(
            this.db
              .select()
              .from(projectApps)
              .where(and(eq(projectApps.projectId, projects.id), eq(projectApps.appId, query.appId))),
          )
        : undefined,
    ]);
  }

  names(ids: string[]): Promise<Map<string, string>> {
    return this.labels(ids, projects.name);
  }

  async appLinks(projectIds: string[]) {
    return projectIds.length
      ? this.db.select().from(projectApps).where(inArray(projectApps.projectId, projectIds))
      : [];
  }

  async appIdsOf(projectId: string, tx: Executor = this.db): Promise<string[]> {
    const rows = await tx
      .select({ id: projectApps.appId })
      .from(projectApps)
      .where(eq(projectApps.projectId, projectId));
    return rows.map((r) => r.id).sort();
  }

  /** Replaces the apps a project delivers. */
  async setApps(tx: Executor, projectId: string, appIds: string[], replace: boolean) {
    if (replace) await tx.delete(projectApps).where(eq(projectApps.projectId, projectId));
    if (appIds.length === 0) return;
    await tx.insert(projectApps).values(appIds.map((appId) => ({ projectId, appId })));
  }

  transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
