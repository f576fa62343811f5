import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { classBlobs, classLists, coverageAgents, coverageUploads, uploadBlobs } from '../../db/schema/index.ts';

export type UploadRow = typeof coverageUploads.$inferSelect;
export type NewUpload = typeof coverageUploads.$inferInsert;
export type AgentRow = typeof coverageAgents.$inferSelect;
export type ClassListRow = typeof classLists.$inferInsert;
export type { AppRef } from '../apps/service.ts';

/** The only SQL of coverage intake. */
export class IntakeRepository {
  constructor(
    private readonly db: Db,
    /** A subquery of the ids of these teams' apps (apps belong to the apps module). */
    private readonly appIdsOfTeams: (teamIds: readonly string[]) => SQL,
  ) {}

  async insertUpload(upload: NewUpload): Promise<UploadRow> {
    const [row] = await this.db.insert(coverageUploads).values(upload).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** The row and its chunks in one transaction: both, or neither (ADR 0006). */
  insertUploadWithBlobs(upload: NewUpload & { id: string }, chunks: AsyncIterable<Buffer>): Promise<UploadRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(coverageUploads).values(upload).returning();
      if (!row) throw new Error('insert returned no row');
      let seq = 0;
      for await (const data of chunks) await tx.insert(uploadBlobs).values({ uploadId: upload.id, seq: seq++, data });
      return row;
    });
  }

  /** One chunk of a database-kept upload; null past its last. */
  async blobChunk(uploadId: string, seq: number): Promise<Buffer | null> {
    const [row] = await this.db
      .select({ data: uploadBlobs.data })
      .from(uploadBlobs)
      .where(and(eq(uploadBlobs.uploadId, uploadId), eq(uploadBlobs.seq, seq)));
    return row?.data ?? null;
  }

  /** Newest first; `teamIds` null means every team. */
  async uploads(query: { appId?: string; teamIds: string[] | null; page: number; perPage: number }) {
    const conditions: (SQL | undefined)[] = [query.appId ? eq(coverageUploads.appId, query.appId) : undefined];
    if (query.teamIds) {
      if (query.teamIds.length === 0) return { rows: [], total: 0 };
      conditions.push(sql`${coverageUploads.appId} in (${this.appIdsOfTeams(query.teamIds)})`);
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

  /** Of these class file contents, the ones kept for the app. */
  async classBlobHashes(appId: string, hashes: readonly string[]): Promise<string[]> {
    if (hashes.length === 0) return [];
    const rows = await this.db
      .select({ sha256: classBlobs.sha256 })
      .from(classBlobs)
      .where(and(eq(classBlobs.appId, appId), inArray(classBlobs.sha256, [...hashes])));
    return rows.map((r) => r.sha256);
  }

  /** Keeps class file contents (gzipped); one kept meanwhile by another request is skipped. Answers how many were new. */
  async insertClassBlobs(appId: string, blobs: readonly { sha256: string; data: Buffer }[]): Promise<number> {
    if (blobs.length === 0) return 0;
    const rows = await this.db
      .insert(classBlobs)
      .values(blobs.map((b) => ({ appId, sha256: b.sha256, data: b.data })))
      .onConflictDoNothing()
      .returning({ sha256: classBlobs.sha256 });
    return rows.length;
  }

  /** The gzipped contents of these class files, those kept for the app. */
  classBlobsOf(appId: string, hashes: readonly string[]): Promise<{ sha256: string; data: Buffer }[]> {
    if (hashes.length === 0) return Promise.resolve([]);
    return this.db
      .select({ sha256: classBlobs.sha256, data: classBlobs.data })
      .from(classBlobs)
      .where(and(eq(classBlobs.appId, appId), inArray(classBlobs.sha256, [...hashes])));
  }

  /** Records a class list once: the same list again, even concurrently, is no failure. */
  async insertClassList(list: ClassListRow): Promise<void> {
    await this.db.insert(classLists).values(list).onConflictDoNothing();
  }

  /** The class lists recorded for a commit as sent, by list hash. */
  classListsOf(appId: string, commit: string): Promise<{ commit: string; classes: ClassListRow['classes'] }[]> {
    return this.db
      .select({ commit: classLists.commit, classes: classLists.classes })
      .from(classLists)
      .where(and(eq(classLists.appId, appId), eq(classLists.commit, commit)))
      .orderBy(asc(classLists.listSha256));
  }
}
