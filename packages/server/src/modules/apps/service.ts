import type { AppInput, AppUpdate, ConnectionCheck } from '@sextant/api';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import type { PageQuery } from '../../lib/table-repository.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { TeamsService } from '../teams/service.ts';
import { lsRemote, RemoteError, type RemoteRef } from './git-remote.ts';
import { checkRepoLocation, RepoLocationRefused, type RepoPolicy } from './repo-location.ts';
import { type AppRecord, type AppRef, AppsRepository } from './repository.ts';
import { ingestionTokenHash, issueIngestionToken } from './token.ts';

export type { AppRef } from './repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const RULES = {
  entity: 'app',
  meanings: {
    apps_team_name_unique: { field: 'name', message: 'This team already has an app with this name.' },
    apps_team_id_teams_id_fk: { field: 'teamId', message: 'No such team.' },
  },
  referencedBy: { versions: 'versions', cases: 'test cases', project_apps: 'projects' },
};

/**
 * How long an ingestion token's app is remembered. Every trace export and upload names its token, and
 * OTLP exporters send hundreds a second: one query each is saved. A rotation or removal made here
 * forgets at once; one made by another server process shows within this time.
 */
export const TOKEN_CACHE_MS = 2000;
/** Past this many remembered tokens (someone sending many unknown ones), the memory starts again. */
const TOKEN_CACHE_SIZE = 10_000;

/** What the audit log may show of an app: everything but the token hash. */
function snapshot(row: AppRecord): Record<string, unknown> {
  const { ingestionTokenHash: _hash, tokenIssuedAt: _issued, createdAt: _c, updatedAt: _u, id: _id, ...shown } = row;
  return shown;
}

export class AppsService {
  private readonly rows: AppsRepository;
  /** Token hash → its app's id (null: no app's), as looked up at `at`; shared while in flight. */
  private readonly tokenApps = new Map<string, { at: number; appId: Promise<string | null> }>();

  constructor(
    db: Db,
    private readonly audit: AuditService,
    private readonly teams: TeamsService,
    // Without one, no local path and no loopback host passes (issue 32, finding 10).
    private readonly repoPolicy: RepoPolicy = { localFolders: [], allowLoopback: false },
  ) {
    this.rows = new AppsRepository(db);
  }

  async list(query: PageQuery & { teamId?: string; status?: string; language?: string }) {
    const { rows, total } = await this.rows.listPage(query);
    return { items: await this.present(rows), total };
  }

  async get(id: string) {
    const [row] = await this.present([await this.record(id)]);
    return row as NonNullable<typeof row>;
  }

  /** The app an ingestion token belongs to, for uploads and traces; null when no app has it. */
  appIdForToken(token: string): Promise<string | null> {
    const hash = ingestionTokenHash(token);
    const now = Date.now();
    const known = this.tokenApps.get(hash);
    if (known && now - known.at < TOKEN_CACHE_MS) return known.appId;
    if (this.tokenApps.size >= TOKEN_CACHE_SIZE) this.tokenApps.clear();
    const appId = this.rows.idForTokenHash(hash);
    this.tokenApps.set(hash, { at: now, appId });
    appId.catch(() => this.tokenApps.delete(hash));
    return appId;
  }

  /** Apps whose id or name is `nameOrId`, as the intake names them: one by id, possibly several by name. */
  refsNamed(nameOrId: string): Promise<AppRef[]> {
    return this.rows.refsNamed(nameOrId, UUID.test(nameOrId) ? nameOrId : undefined);
  }

  /** Every app's id (the scheduled branch refresh walks them); a few thousand at most. */
  allIds(): Promise<string[]> {
    return this.rows.allIds();
  }

  /**
   * The apps of a team (or every app) as the analytics scope names them: id, name, team and its name,
   * ordered as the list orders them, without the list's count and presentation (issue 35: each
   * analytics request reads its scope).
   */
  async scopeRefs(teamId?: string): Promise<(AppRef & { teamName: string })[]> {
    const refs = await this.rows.refsOf(teamId);
    const teamNames = await this.teams.names([...new Set(refs.map((r) => r.teamId))]);
    return refs.map((r) => ({ ...r, teamName: teamNames.get(r.teamId) ?? '' }));
  }

  /** The app's id, name and team; null when the id is not an app's. */
  async ref(id: string): Promise<AppRef | null> {
    return UUID.test(id) ? this.rows.ref(id) : null;
  }

  /** The app's id and team, or null when no app has this id (the owner of an idle agent's messages). */
  async ownerOf(id: string): Promise<{ appId: string; teamId: string } | null> {
    const ref = await this.rows.ref(id);
    return ref && { appId: ref.id, teamId: ref.teamId };
  }

  /** A subquery of the ids of these teams' apps, for other modules' queries to filter by (kept in SQL). */
  idsOfTeams(teamIds: readonly string[]): SQL {
    return this.rows.idsOfTeams(teamIds);
  }

  /** App names by id, for lists of things that concern apps. */
  names(ids: string[]): Promise<Map<string, string>> {
    return this.rows.names(ids);
  }

  async repoUrlOf(id: string): Promise<string> {
    return (await this.record(id)).repoUrl;
  }

  async create(input: AppInput, actor: Actor) {
    await this.checkLocation(input.repoUrl);
    const { token, hash } = issueIngestionToken();
    const values = {
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
    };
    const id = await this.audit.createRow(this.rows, { entity: 'app', actor, rules: RULES, values, snapshot });
    return { ...(await this.get(id)), ingestionToken: token };
  }

  async update(id: string, input: AppUpdate, actor: Actor) {
    if (input.repoUrl !== undefined) await this.checkLocation(input.repoUrl);
    const buildCommand = input.buildCommand !== undefined ? { buildCommand: input.buildCommand || null } : {};
    const values = { ...input, ...buildCommand, updatedAt: new Date() };
    await this.audit.updateRow(this.rows, { ...this.audited(id, actor), values });
    return this.get(id);
  }

  /** A new token replaces the old one at once; the old one stops working. */
  async rotateToken(id: string, actor: Actor) {
    const { token, hash } = issueIngestionToken();
    await this.audit.audited(actor, async (tx) => {
      if (!(await this.rows.replaceToken(tx, id, hash))) throw new ApiError(404, 'not-found', 'No such app.');
      return { result: null, entry: { entity: 'app', entityId: id, action: 'rotate-token', changes: {} } };
    });
    // Rare enough to forget every token: the old one must stop working here now, not in TOKEN_CACHE_MS.
    this.tokenApps.clear();
    return { ...(await this.get(id)), ingestionToken: token };
  }

  async remove(id: string, actor: Actor) {
    await this.audit.removeRow(this.rows, this.audited(id, actor));
    this.tokenApps.clear();
  }

  private audited(id: string, actor: Actor) {
    return { entity: 'app', id, actor, notFound: 'No such app.', rules: RULES, snapshot } as const;
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
    const row = await this.rows.find(id);
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
