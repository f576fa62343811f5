import {
  type AskDecisionRequest,
  abilityAllows,
  authorIs,
  can,
  type IdentityKeys,
  type JudgmentRequest,
  type RiskHeadline,
  type RiskHistoryEntry,
  type RiskItem,
  type RiskListQuery,
  type Settings,
  type UserData,
  type UserRef,
} from '@sextant/api';
import type pg from 'pg';
import { ApiError } from '../../errors.ts';
import { GenerationCache } from '../../lib/generation-cache.ts';
import type { AuditService } from '../audit/service.ts';
import type { CoverageRiskInput, CoverageRiskOutcome, CoverageRisks } from '../reports/generate/index.ts';
import type { TraceRiskReads } from '../traces/index.ts';
import { writeCoverageRisks } from './coverage-writer.ts';
import type { AppEntry, RiskDirectory } from './directory.ts';
import type { RiskFilter, RiskRow, RisksRepository } from './repository.ts';
import { TRACE_RISK_WINDOW_MS, traceRiskCandidates } from './trace-writer.ts';

/** The signed-in caller as the risk rules see them (specification point 6, issue 34). */
export type Viewer = {
  userId: string;
  /**
   * The account's e-mail and git identities (blame authors that are this user), read on first use: only
   * `mine` and the author rule of judging need them, and an administrator's list neither (two reads saved).
   */
  identities: () => Promise<IdentityKeys>;
  role: string;
  everyTeam: boolean;
  teamIds: ReadonlySet<string>;
  /** update on the Risk resource (administrators hold it through manage all). */
  updatesRisks: boolean;
  showJudgment: boolean;
};

export type Notify = (userId: string, title: string, text: string) => Promise<void>;
type TeamIdsOf = (userId: string) => Promise<Set<string>>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export class RisksService implements CoverageRisks {
  constructor(
    private readonly repository: RisksRepository,
    private readonly directory: RiskDirectory,
    private readonly audit: AuditService,
    private readonly notify: Notify,
    private readonly teamIdsOf: TeamIdsOf,
    private readonly teamPeople: (teamId: string) => Promise<UserRef[]> = async () => [],
    /** The home screen's answers, kept while the risk data's generation stands (lib/generation-cache.ts). */
    private readonly answers = new GenerationCache(() => repository.generation()),
  ) {}

  /**
   * Whom a "needs test" judgment of this item may assign, for judges who cannot list every account
   * (testers, authors): the app's team, the method's author and the judge, by username.
   */
  async assignees(viewer: Viewer, id: string): Promise<UserRef[]> {
    const { rows, apps } = await this.visible(viewer, [id]);
    const item = rows[0] as RiskRow;
    const app = apps.get(item.appId);
    const team = app ? await this.teamPeople(app.teamId) : [];
    const authors = item.author ? [...(await this.directory.peopleByAuthors([item.author])).values()] : [];
    const others = await this.directory.people([viewer.userId, ...authors.map((a) => a.id)]);
    const byId = new Map<string, UserRef>();
    for (const p of others) byId.set(p.id, { id: p.id, username: p.username, displayName: '' });
    for (const p of team) byId.set(p.id, p);
    return [...byId.values()].sort((a, b) => a.username.localeCompare(b.username));
  }

  async viewerOf(principal: { userData: UserData; settings: Settings }): Promise<Viewer> {
    const { userData, settings } = principal;
    const everyTeam = abilityAllows(userData.ability, 'manage', 'all');
    let identities: Promise<IdentityKeys> | undefined;
    const permissions = {
      ability: userData.ability,
      resourceNums: userData.resourceNums,
      edition: settings.licenseVersion,
    };
    return {
      userId: userData.userid,
      identities: () => {
        identities ??= this.directory.identityKeysOf(userData.userid).then((k) => k ?? { emails: [], names: [] });
        return identities;
      },
      role: userData.role,
      everyTeam,
      teamIds: everyTeam ? new Set() : await this.teamIdsOf(userData.userid),
      updatesRisks: can(permissions, 'update', 'Risk'),
      showJudgment: settings.showJudgment,
    };
  }

  /**
   * Judges: the method's author (by e-mail or git identity), testers of the app's team, and holders of
   * update Risk. `keys`: the viewer's identities (`judgeKeys`), null where the author rule cannot matter.
   */
  mayJudge(viewer: Viewer, keys: IdentityKeys | null, item: { author: string | null }, app: AppEntry | undefined) {
    if (viewer.updatesRisks) return true;
    if (keys && authorIs(item.author, keys)) return true;
    return viewer.role === 'tester' && app !== undefined && viewer.teamIds.has(app.teamId);
  }

  /** The identities the author rule needs: none while judging is off or the viewer may judge everything. */
  private judgeKeys(viewer: Viewer): Promise<IdentityKeys | null> {
    return viewer.showJudgment && !viewer.updatesRisks ? viewer.identities() : Promise.resolve(null);
  }

  /**
   * A page of the list. Answers are kept (lib/generation-cache.ts) under the visible apps (or every app) and the
   * whole query. Who asks matters only to `mayJudge`: holders of update Risk all see the same answer,
   * kept as presented and frozen (so its JSON is written once, lib/typed-json.ts); for others the rows
   * are kept and presented per request.
   */
  async list(viewer: Viewer, query: RiskListQuery): Promise<{ items: RiskItem[]; total: number }> {
    const [filter, keys] = await Promise.all([this.filterOf(viewer, query), this.judgeKeys(viewer)]);
    const key = JSON.stringify(filter);
    const read = () => this.repository.list(filter, query);
    const presented = (page: { rows: RiskRow[]; total: number }) => ({
      items: page.rows.map((row) =>
        this.present(
          viewer,
          keys,
          row,
          row.appName && row.teamId ? { id: row.appId, name: row.appName, teamId: row.teamId } : undefined,
        ),
      ),
      total: page.total,
    });
    if (!viewer.updatesRisks) return presented(await this.answers.get(`list|${key}`, read));
    return this.answers.get(`list|judges-all|${viewer.showJudgment}|${key}`, async () => {
      const page = presented(await read());
      for (const item of page.items) Object.freeze(item);
      Object.freeze(page.items);
      return Object.freeze(page) as typeof page;
    });
  }

  async headline(viewer: Viewer, query: RiskListQuery): Promise<RiskHeadline> {
    const filter = await this.filterOf(viewer, query);
    return this.answers.get(
      `headline|${JSON.stringify(filter)}`,
      async () => Object.freeze(await this.repository.headline(filter)) as RiskHeadline,
    );
  }

  async history(viewer: Viewer, id: string): Promise<RiskHistoryEntry[]> {
    await this.visible(viewer, [id]);
    const entries = await this.repository.history(id);
    const people = await this.directory.people([...new Set(entries.flatMap((e) => (e.actorId ? [e.actorId] : [])))]);
    const names = new Map(people.map((p) => [p.id, p.username]));
    return entries.map((e) => ({
      at: e.at.toISOString(),
      actorId: e.actorId,
      actorName: e.actorId ? (names.get(e.actorId) ?? null) : null,
      reportId: e.reportId,
      fromState: e.fromState as RiskHistoryEntry['fromState'],
      toState: e.toState as RiskHistoryEntry['toState'],
      judgment: e.judgment as RiskHistoryEntry['judgment'],
      reason: e.reason,
    }));
  }

  /** Observing items move to pending; anyone who sees an item may ask for a decision on it. */
  async askDecision(viewer: Viewer, body: AskDecisionRequest): Promise<{ asked: number }> {
    const { rows } = await this.visible(viewer, body.ids);
    let asked = 0;
    for (const item of rows.filter((r) => r.state === 'observing')) {
      await this.audit.audited({ id: viewer.userId }, async (tx) => {
        await this.repository.update(tx, item.id, { state: 'pending' });
        await this.repository.addHistory(tx, {
          riskItemId: item.id,
          actorId: viewer.userId,
          fromState: 'observing',
          toState: 'pending',
          reason: body.reason ?? null,
        });
        return {
          result: undefined,
          entry: {
            entity: 'risk',
            entityId: item.id,
            action: 'update',
            changes: { state: { from: 'observing', to: 'pending' } },
          },
        };
      });
      asked++;
    }
    return { asked };
  }

  async judge(viewer: Viewer, id: string, body: JudgmentRequest): Promise<RiskItem> {
    if (!viewer.showJudgment) {
      throw new ApiError(403, 'forbidden', 'Judgments are switched off (setting showJudgment).');
    }
    const { rows, apps } = await this.visible(viewer, [id]);
    const item = rows[0] as RiskRow;
    const keys = await this.judgeKeys(viewer);
    if (!this.mayJudge(viewer, keys, item, apps.get(item.appId))) {
      throw new ApiError(403, 'forbidden', "Only the method's author, testers of its team or risk managers judge it.");
    }
    if (item.state === 'resolved')
      throw new ApiError(409, 'conflict', 'This risk is resolved; there is nothing to judge.');
    const needsTest = body.judgment === 'needs-test';
    if (needsTest && (await this.directory.people([body.assigneeId])).length === 0) {
      throw new ApiError(400, 'validation-failed', 'No such user.', { assigneeId: 'No such user.' });
    }
    const values = {
      state: 'judged',
      judgment: body.judgment,
      reason: body.reason ?? null,
      assigneeId: needsTest ? body.assigneeId : null,
      dueDate: needsTest ? body.dueDate : null,
    };
    await this.audit.audited({ id: viewer.userId }, async (tx) => {
      await this.repository.update(tx, id, values);
      await this.repository.addHistory(tx, {
        riskItemId: id,
        actorId: viewer.userId,
        fromState: item.state,
        toState: 'judged',
        judgment: body.judgment,
        reason: body.reason ?? null,
      });
      const changes = Object.fromEntries(
        Object.entries(values)
          .filter(([k, v]) => (item as Record<string, unknown>)[k] !== v)
          .map(([k, v]) => [k, { from: (item as Record<string, unknown>)[k] ?? null, to: v }]),
      );
      return { result: undefined, entry: { entity: 'risk', entityId: id, action: 'update', changes } };
    });
    const method = `${item.className}.${item.methodName}`;
    for (const assignee of new Set([values.assigneeId, item.assigneeId].filter((x): x is string => !!x))) {
      if (assignee === viewer.userId) continue;
      await this.notify(
        assignee,
        needsTest && assignee === values.assigneeId
          ? 'A risk was assigned to you'
          : 'A risk assigned to you was judged',
        `${method} (${apps.get(item.appId)?.name ?? ''} ${item.version}): ${body.judgment}${needsTest ? `, due ${body.dueDate}` : ''}.`,
      );
    }
    const [after] = (await this.visible(viewer, [id])).rows;
    return this.present(viewer, keys, after as RiskRow, apps.get(item.appId));
  }

  /**
   * The traces' side (issue 34): exception and performance risks from the last week's spans, the
   * performance threshold being the stored `traceWarnThreshold` (seconds).
   */
  async recordTraceRisks(reads: TraceRiskReads, warnThresholdSeconds: number, now = Date.now()) {
    const since = new Date(now - TRACE_RISK_WINDOW_MS);
    const exceptions = await reads.exceptionGroups(since);
    const slow = await reads.slowInterfaces(since, warnThresholdSeconds * 1000);
    return this.repository.traceRisks.record(traceRiskCandidates(exceptions, slow));
  }

  /** The daily rewrite of the stored severity's age part. */
  refreshSeverity(): Promise<void> {
    return this.repository.refreshSeverity();
  }

  /** The report pipeline's side (the reports module's CoverageRisks): writes now, notifies after commit. */
  async record(client: pg.ClientBase, input: CoverageRiskInput): Promise<CoverageRiskOutcome> {
    const written = await writeCoverageRisks(client, input);
    return {
      opened: written.opened,
      resolved: written.resolved,
      announce: () => this.announceNewRisks(input, written.newByAuthor),
    };
  }

  /** One notification per author and report, not one per method (issue 34). */
  private async announceNewRisks(input: CoverageRiskInput, newByAuthor: Map<string, number>): Promise<void> {
    const byPerson = new Map<string, number>();
    for (const [author, person] of await this.directory.peopleByAuthors([...newByAuthor.keys()])) {
      byPerson.set(person.id, (byPerson.get(person.id) ?? 0) + (newByAuthor.get(author) ?? 0));
    }
    const [app] = await this.directory.apps({ appId: input.appId });
    for (const [personId, n] of byPerson) {
      await this.notify(
        personId,
        'New risks in your changes',
        `${n} changed method(s) of yours in ${app?.name ?? 'an app'} ${input.version} are below the passing grade.`,
      );
    }
  }

  /** The items, all of which the viewer may see (a missing one and a hidden one both answer 404). */
  private async visible(viewer: Viewer, ids: readonly string[]) {
    const rows = await this.repository.byIds(ids);
    const apps = new Map((await this.scopeApps(viewer, {})).map((a) => [a.id, a]));
    if (rows.length !== new Set(ids).size || rows.some((r) => !apps.has(r.appId))) {
      throw new ApiError(404, 'not-found', 'No such risk item.');
    }
    return { rows, apps };
  }

  private scopeApps(viewer: Viewer, q: { teamId?: string; projectId?: string; appId?: string }) {
    return this.directory.apps({ ...q, ...(viewer.everyTeam ? {} : { teamIds: [...viewer.teamIds] }) });
  }

  /** The filter of a list or headline; `appIds` null when every app is in scope (not listed each time). */
  private async filterOf(viewer: Viewer, query: RiskListQuery): Promise<RiskFilter> {
    const base = {
      ...query,
      ...(query.mine ? { authorIdentities: await viewer.identities() } : {}),
      ...(query.assignedToMe ? { assigneeId: viewer.userId } : {}),
    };
    if (viewer.everyTeam && !query.teamId && !query.projectId) {
      // Every app is visible: an app filter needs no read of apps (an unknown app has no items).
      return { ...base, appIds: query.appId ? [query.appId] : null };
    }
    const apps = await this.scopeApps(viewer, { teamId: query.teamId, projectId: query.projectId, appId: query.appId });
    return { ...base, appIds: apps.map((a) => a.id) };
  }

  private present(viewer: Viewer, keys: IdentityKeys | null, row: RiskRow, app: AppEntry | undefined): RiskItem {
    return {
      id: row.id,
      kind: row.kind as RiskItem['kind'],
      appId: row.appId,
      appName: app?.name ?? '',
      teamId: app?.teamId ?? null,
      reportId: row.reportId,
      testType: row.testType,
      version: row.version,
      className: row.className,
      methodName: row.methodName,
      signature: row.signature,
      filePath: row.filePath,
      startLine: row.startLine,
      endLine: row.endLine,
      author: row.author,
      requirement: row.requirement,
      lineCovered: row.lineCovered,
      lineTotal: row.lineTotal,
      changedLines: row.changedLines,
      fanIn: row.fanIn,
      severity: Number(row.severity),
      state: row.state as RiskItem['state'],
      judgment: row.judgment as RiskItem['judgment'],
      reason: row.reason,
      assigneeId: row.assigneeId,
      dueDate: row.dueDate,
      overdue: Boolean(row.overdue),
      resolvedByReportId: row.resolvedByReportId,
      createdAt: row.createdAt.toISOString(),
      resolvedAt: iso(row.resolvedAt),
      occurrences: row.occurrences,
      firstSeenAt: iso(row.firstSeenAt),
      lastSeenAt: iso(row.lastSeenAt),
      sampleTraceId: row.sampleTraceId,
      p95Ms: row.p95Ms,
      mayJudge: viewer.showJudgment && row.state !== 'resolved' && this.mayJudge(viewer, keys, row, app),
    };
  }

  /** How many of a report's items are still open (the reports module shows it with the report). */
  openOfReport(reportId: string): Promise<number> {
    return this.repository.openOfReport(reportId);
  }
}
