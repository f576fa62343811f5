import type { AppInput, AppUpdate, ConnectionCheck } from '@sextant/api';
import { type AnyColumn, and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apps } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import { asApiError, containsPattern } from '../audit/constraint-errors.ts';
import { type Actor, type AuditService, changedFields, firstRow } from '../audit/service.ts';
import type { TeamsService } from '../teams/service.ts';
import { lsRemote, RemoteError, type RemoteRef } from './git-remote.ts';
import { checkRepoLocation, RepoLocationRefused, type RepoPolicy } from './repo-location.ts';
import { ingestionTokenHash, issueIngestionToken } from './token.ts';

type AppRecord = typeof apps.$inferSelect;
/** An app as other modules name it: which team owns it. */
export type AppRef = { id: string; name: string; teamId: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SORTABLE: Record<string, AnyColumn> = {
  name: apps.name,
  language: apps.language,
  status: apps.status,
  createdAt: apps.createdAt,
  updatedAt: apps.updatedAt,
};
const RULES = {
  entity: 'app',
  meanings: {
    apps_team_name_unique: { field: 'name', message: 'This team already has an app with this name.' },
    apps_team_id_teams_id_fk: { field: 'teamId', message: 'No such team.' },
  },
  referencedBy: { versions: 'versions', cases: 'test cases', project_apps: 'projects' },
};

/** What the audit log may show of an app: everything but the token hash. */
function snapshot(row: AppRecord): Record<string, unknown> {
  const { ingestionTokenHash: _hash, tokenIssuedAt: _issued, createdAt: _c, updatedAt: _u, id: _id, ...shown } = row;
  return shown;
}

export class AppsService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly teams: TeamsService,
    // Without one, no local path and no loopback host passes (issue 32, finding 10).
    private readonly repoPolicy: RepoPolicy = { localFolders: [], allowLoopback: false },
  ) {}

  async list(query: {
    page: number;
    perPage: number;
    q?: string;
    sortBy?: string;
    sortDesc: boolean;
    teamId?: string;
    status?: string;
    language?: string;
  }) {
    const pattern = query.q ? containsPattern(query.q) : null;
    const where = and(
      pattern ? or(ilike(apps.name, pattern), ilike(apps.repoUrl, pattern)) : undefined,
      query.teamId ? eq(apps.teamId, query.teamId) : undefined,
      query.status ? eq(apps.status, query.status) : undefined,
      query.language ? eq(apps.language, query.language) : undefined,
    );
    const column = SORTABLE[query.sortBy ?? 'name'] ?? apps.name;
    const rows = await this.db
      .select()
      .from(apps)
      .where(where)
      .orderBy(query.sortDesc ? desc(column) : asc(column), asc(apps.id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage);
    const [total] = await this.db.select({ n: count() }).from(apps).where(where);
    return { items: await this.present(rows), total: total?.n ?? 0 };
  }

  async get(id: string) {
    const [row] = await this.present([await this.record(id)]);
    return row as NonNullable<typeof row>;
  }

  /** The app an ingestion token belongs to, for uploads and traces; null when no app has it. */
  async appIdForToken(token: string): Promise<string | null> {
    const [row] = await this.db
      .select({ id: apps.id })
      .from(apps)
      .where(eq(apps.ingestionTokenHash, ingestionTokenHash(token)));
    return row?.id ?? null;
  }

  /** Apps whose id or name is `nameOrId`, as the intake names them: one by id, possibly several by name. */
  async refsNamed(nameOrId: string): Promise<AppRef[]> {
    const byName = eq(apps.name, nameOrId);
    return this.db
      .select({ id: apps.id, name: apps.name, teamId: apps.teamId })
      .from(apps)
      .where(UUID.test(nameOrId) ? or(eq(apps.id, nameOrId), byName) : byName)
      .orderBy(asc(apps.id));
  }

  /** Every app's id (the scheduled branch refresh walks them); a few thousand at most. */
  async allIds(): Promise<string[]> {
    return (await this.db.select({ id: apps.id }).from(apps).orderBy(asc(apps.id))).map((r) => r.id);
  }

  /** The app's id, name and team; null when the id is not an app's. */
  async ref(id: string): Promise<AppRef | null> {
    if (!UUID.test(id)) return null;
    const [row] = await this.db
      .select({ id: apps.id, name: apps.name, teamId: apps.teamId })
      .from(apps)
      .where(eq(apps.id, id));
    return row ?? null;
  }

  /** The app's id and team, or null when no app has this id (the owner of an idle agent's messages). */
  async ownerOf(id: string): Promise<{ appId: string; teamId: string } | null> {
    const [row] = await this.db.select({ appId: apps.id, teamId: apps.teamId }).from(apps).where(eq(apps.id, id));
    return row ?? null;
  }

  /** A subquery of the ids of these teams' apps, for other modules' queries to filter by (kept in SQL). */
  idsOfTeams(teamIds: readonly string[]): SQL {
    return sql`select ${apps.id} from ${apps} where ${inArray(apps.teamId, [...teamIds])}`;
  }

  /** App names by id, for lists of things that concern apps. */
  async names(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: apps.id, name: apps.name })
      .from(apps)
      .where(inArray(apps.id, [...new Set(ids)]));
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async repoUrlOf(id: string): Promise<string> {
    return (await this.record(id)).repoUrl;
  }

  async create(input: AppInput, actor: Actor) {
    await this.checkLocation(input.repoUrl);
    const { token, hash } = issueIngestionToken();
    const id = await this.db
      .transaction(async (tx) => {
        const [row] = await tx
          .insert(apps)
          .values({
            teamId: input.teamId,
            name: input.name,
            language: input.language,
            repoUrl: input.repoUrl,
            defaultBranch: input.defaultBranch ?? 'main',
            coverageSource: input.coverageSource ?? 'upload',
            buildCommand: input.buildCommand || null,
            environments: input.environments ?? [],
            status: input.status ?? 'active',
            ingestionTokenHash: hash,
          })
          .returning();
        if (!row) throw new Error('insert returned no row');
        const changes = changedFields({}, snapshot(row));
        await this.audit.record(tx, actor, { entity: 'app', entityId: row.id, action: 'create', changes });
        return row.id;
      })
      .catch((e: unknown) => {
        throw asApiError(e, RULES);
      });
    return { ...(await this.get(id)), ingestionToken: token };
  }

  async update(id: string, input: AppUpdate, actor: Actor) {
    if (input.repoUrl !== undefined) await this.checkLocation(input.repoUrl);
    const buildCommand = input.buildCommand !== undefined ? { buildCommand: input.buildCommand || null } : {};
    await this.audit.updateAudited({
      entity: 'app',
      id,
      actor,
      notFound: 'No such app.',
      rules: RULES,
      current: (tx) => firstRow(tx.select().from(apps).where(eq(apps.id, id)).for('update')),
      update: (tx) =>
        firstRow(
          tx
            .update(apps)
            .set({ ...input, ...buildCommand, updatedAt: new Date() })
            .where(eq(apps.id, id))
            .returning(),
        ),
      snapshot,
    });
    return this.get(id);
  }

  /** A new token replaces the old one at once; the old one stops working. */
  async rotateToken(id: string, actor: Actor) {
    const { token, hash } = issueIngestionToken();
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(apps)
        .set({ ingestionTokenHash: hash, tokenIssuedAt: new Date(), updatedAt: new Date() })
        .where(eq(apps.id, id))
        .returning({ id: apps.id });
      if (!row) throw new ApiError(404, 'not-found', 'No such app.');
      await this.audit.record(tx, actor, { entity: 'app', entityId: id, action: 'rotate-token', changes: {} });
    });
    return { ...(await this.get(id)), ingestionToken: token };
  }

  async remove(id: string, actor: Actor) {
    await this.audit.removeAudited({
      entity: 'app',
      id,
      actor,
      notFound: 'No such app.',
      rules: RULES,
      snapshot: async (tx) => {
        const [current] = await tx.select().from(apps).where(eq(apps.id, id));
        return current && snapshot(current);
      },
      remove: (tx) => tx.delete(apps).where(eq(apps.id, id)),
    });
  }

  /** The repository's refs (heads only when asked), its location checked again first (issue 32). */
  async remoteRefs(id: string, opts: { heads?: boolean } = {}): Promise<RemoteRef[]> {
    const url = await this.repoUrlOf(id);
    const { gitConfig } = await this.checkLocation(url);
    return lsRemote(url, { ...opts, gitConfig });
  }

  async testConnection(id: string): Promise<ConnectionCheck> {
    try {
      const refs = await this.remoteRefs(id);
      return { ok: true, refs: refs.length, error: null };
    } catch (e) {
      if (e instanceof RemoteError) return { ok: false, refs: null, error: e.message };
      throw e;
    }
  }

  /** A repository location the policy refuses is a 400 on repoUrl, before anything is probed. */
  private async checkLocation(url: string) {
    try {
      return await checkRepoLocation(url, this.repoPolicy);
    } catch (error) {
      if (!(error instanceof RepoLocationRefused)) throw error;
      throw new ApiError(400, 'validation-failed', error.message, { repoUrl: error.message });
    }
  }

  private async record(id: string): Promise<AppRecord> {
    const [row] = await this.db.select().from(apps).where(eq(apps.id, id));
    if (!row) throw new ApiError(404, 'not-found', 'No such app.');
    return row;
  }

  private async present(rows: AppRecord[]) {
    const teamNames = await this.teams.names(rows.map((r) => r.teamId));
    return rows.map((r) => ({
      id: r.id,
      teamId: r.teamId,
      teamName: teamNames.get(r.teamId) ?? '',
      name: r.name,
      language: r.language as AppInput['language'],
      repoUrl: r.repoUrl,
      defaultBranch: r.defaultBranch,
      coverageSource: r.coverageSource as NonNullable<AppInput['coverageSource']>,
      buildCommand: r.buildCommand,
      environments: r.environments,
      status: r.status as NonNullable<AppInput['status']>,
      tokenIssuedAt: r.tokenIssuedAt.toISOString(),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}
