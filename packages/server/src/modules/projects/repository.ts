import { and, eq, exists, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { projectApps, projects } from '../../db/schema/index.ts';
import { LinkedRows } from '../../lib/linked-rows.ts';
import { type PageQuery, TableRepository } from '../../lib/table-repository.ts';

export type ProjectRecord = typeof projects.$inferSelect;

/** The only SQL of the projects module: projects and the apps each delivers (project_apps). */
export class ProjectsRepository extends TableRepository<typeof projects> {
  /** Projects with the apps each delivers. */
  readonly withApps = new LinkedRows(this.db, this, {
    table: projectApps,
    owner: projectApps.projectId,
    target: projectApps.appId,
    value: (projectId, appId) => ({ projectId, appId }),
  });

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

  /** Project ids by name, for these names (an import that names projects). */
  async idsByName(names: string[]): Promise<Map<string, string>> {
    if (names.length === 0) return new Map();
    const rows = await this.db
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(inArray(projects.name, [...new Set(names)]));
    return new Map(rows.map((r) => [r.name, r.id]));
  }
}
