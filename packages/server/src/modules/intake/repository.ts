import { and, asc, count, desc, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apps, coverageAgents, coverageUploads, teamMembers } from '../../db/schema/index.ts';

export type UploadRow = typeof coverageUploads.$inferSelect;
export type NewUpload = typeof coverageUploads.$inferInsert;
export type AgentRow = typeof coverageAgents.$inferSelect;
/** What intake needs to know of an app: which team owns it (apps belong to the apps module; read only here). */
export type AppRef = { id: string; name: string; teamId: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The only SQL of coverage intake. */
export class IntakeRepository {
  constructor(private readonly db: Db) {}

  /** Apps whose id or name is `nameOrId`: one by id, possibly several by name (names are unique per team). */
  async appsNamed(nameOrId: string): Promise<AppRef[]> {
    const byName = eq(apps.name, nameOrId);
    return this.db
      .select({ id: apps.id, name: apps.name, teamId: apps.teamId })
      .from(apps)
      .where(UUID.test(nameOrId) ? or(eq(apps.id, nameOrId), byName) : byName)
      .orderBy(asc(apps.id));
  }

  async appById(id: string): Promise<AppRef | null> {
    if (!UUID.test(id)) return null;
    const [row] = await this.db
      .select({ id: apps.id, name: apps.name, teamId: apps.teamId })
      .from(apps)
      .where(eq(apps.id, id));
    return row ?? null;
  }

  async teamsOf(userId: string): Promise<Set<string>> {
    const rows = await this.db
      .select({ teamId: teamMembers.teamId })
      .from(teamMembers)
      .where(eq(teamMembers.userId, userId));
    return new Set(rows.map((r) => r.teamId));
  }

  async insertUpload(upload: NewUpload): Promise<UploadRow> {
    const [row] = await this.db.insert(coverageUploads).values(upload).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** Newest first; `teamIds` null means every team. */
  async uploads(query: { appId?: string; teamIds: string[] | null; page: number; perPage: number }) {
    const conditions: (SQL | undefined)[] = [query.appId ? eq(coverageUploads.appId, query.appId) : undefined];
    if (query.teamIds) {
      if (query.teamIds.length === 0) return { rows: [], total: 0 };
      const visible = this.db.select({ id: apps.id }).from(apps).where(inArray(apps.teamId, query.teamIds));
      conditions.push(inArray(coverageUploads.appId, visible));
    }
    const where = and(...conditions);
    const rows = await this.db
      .select()
      .from(coverageUploads)
      .where(where)
      .orderBy(desc(coverageUploads.createdAt), asc(coverageUploads.id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage);
    const [total] = await this.db.select({ n: count() }).from(coverageUploads).where(where);
    return { rows, total: total?.n ?? 0 };
  }

  /** One row per (app, agent id): a heart-beat replaces the previous one. */
  async upsertAgent(agent: Omit<AgentRow, 'id'>): Promise<AgentRow> {
    const { appId: _app, agentId: _agent, ...changes } = agent;
    const [row] = await this.db
      .insert(coverageAgents)
      .values(agent)
      .onConflictDoUpdate({ target: [coverageAgents.appId, coverageAgents.agentId], set: changes })
      .returning();
    if (!row) throw new Error('upsert returned no row');
    return row;
  }

  agents(appId: string): Promise<AgentRow[]> {
    return this.db
      .select()
      .from(coverageAgents)
      .where(eq(coverageAgents.appId, appId))
      .orderBy(asc(coverageAgents.envType), asc(coverageAgents.agentId));
  }

  /** The uploads that may hold coverage of a report: same app, environment and test type. */
  uploadsFor(appId: string, envType: string, testType: number): Promise<UploadRow[]> {
    return this.db
      .select()
      .from(coverageUploads)
      .where(
        and(
          eq(coverageUploads.appId, appId),
          eq(coverageUploads.envType, envType),
          eq(coverageUploads.testType, testType),
        ),
      )
      .orderBy(coverageUploads.createdAt, coverageUploads.id);
  }

  /** Stores what an upload's commit resolved to, once (an upload names a fixed commit). */
  async setUploadCommits(resolved: { id: string; commitSha: string }[]): Promise<void> {
    for (const upload of resolved) {
      await this.db
        .update(coverageUploads)
        .set({ commitSha: upload.commitSha })
        .where(and(eq(coverageUploads.id, upload.id), isNull(coverageUploads.commitSha)));
    }
  }
}
