import {
  type AnalyticsFilter,
  type AppAnalyticQuery,
  type AppOverview,
  type AppStanding,
  type CaseAnalyticQuery,
  type CaseImpactQuery,
  type CaseMethodsQuery,
  type Cockpit,
  type CommitterQuery,
  type CommitterTrend,
  type GroupFigures,
  MY_COVERAGE_REPORTS,
  type MyCoverage,
  type ProjectDashboard,
  type RequirementAnalyticQuery,
  type RiskBurnDown,
} from '@sextant/api';
import { ApiError } from '../../errors.ts';
import type { GenerationCache } from '../../lib/generation-cache.ts';
import type { AppsService } from '../apps/service.ts';
import type { IntakeActivityReads } from '../intake/activity-reads.ts';
import type { ProjectsService } from '../projects/service.ts';
import type { ScopedApp } from '../reports/analytics-scope.ts';
import type { CommitterPerson } from '../reports/committer-reads.ts';
import type { BurnDownScope } from '../risks/index.ts';
import type { GitIdentityReads } from '../users/index.ts';
import type { AnalyticsRepository, ReportScope } from './repository.ts';

const EVERY = 100_000;
/** How many committers the trend chart follows: those with the most uncovered changed methods. */
const TREND_AUTHORS = 5;

/** The analytics read models (issue 35): scope from the apps and projects modules, figures from the reports'. */
export class AnalyticsService {
  constructor(
    private readonly rows: AnalyticsRepository,
    private readonly apps: AppsService,
    private readonly projects: ProjectsService,
    private readonly identities: GitIdentityReads,
    /** Uploads, agents and risk history belong to the intake and risks modules: read through them. */
    private readonly activity: {
      intake: Pick<IntakeActivityReads, 'uploadsByDay' | 'agentsNow'>;
      burnDown: (scope: BurnDownScope, days?: number) => Promise<RiskBurnDown>;
    },
    /** Answers kept while the report data's generation stands (lib/generation-cache.ts); null: none kept. */
    private readonly answers: GenerationCache | null = null,
  ) {}

  /**
   * The answer of `name` for `query` over the apps `filter` scopes to: kept (see `answers`) under the
   * scope's apps, so callers whose scopes differ never share one, and the normalised query (zod's
   * output: keys in the schema's order, defaults filled). The scope itself is kept by its filter at the
   * same generation (apps, teams and projects bump it), so a request answered from the cache reads the
   * generation only.
   */
  private async answer<T>(
    name: string,
    filter: AnalyticsFilter,
    query: unknown,
    read: (scope: ReportScope) => Promise<T>,
  ): Promise<T> {
    if (!this.answers) return read(await this.scope(filter));
    const answers = this.answers;
    const at = await answers.generation();
    const scope = await answers.get(`scope|${filterKey(filter)}`, () => this.scope(filter), at);
    const apps = scope.apps.map((a) => a.id).join(',');
    // Frozen: a kept answer is shared by every caller, and written to JSON once (routes.ts).
    return answers.get(`${name}|${apps}|${JSON.stringify(query)}`, async () => Object.freeze(await read(scope)), at);
  }

  /** The signed-in user's changed methods per report (issue 34): blame authors that are their e-mail or identities. */
  mine(userId: string, filter: AnalyticsFilter): Promise<MyCoverage> {
    return this.answer('mine', filter, { userId, filter }, (scope) => this.readMine(userId, scope));
  }

  private async readMine(userId: string, scope: ReportScope): Promise<MyCoverage> {
    const keys = (await this.identities.keysOf(userId)) ?? { emails: [], names: [] };
    const { reports, authors } = await this.rows.authorReports(scope, keys, MY_COVERAGE_REPORTS);
    const names = new Map(scope.apps.map((a) => [a.id, a.name]));
    return {
      identities: await this.identities.listedOf(userId),
      authors,
      reports: reports.map((r) => ({ ...r, appName: names.get(r.appId) ?? '' })),
    };
  }

  /** The apps a filter names (team, app, project), with the report filters. An unknown project is a 404. */
  async scope(query: AnalyticsFilter): Promise<ReportScope> {
    const filter = onlyFilter(query);
    let apps: ScopedApp[] = await this.apps.scopeRefs(filter.teamId);
    if (filter.appId) apps = apps.filter((a) => a.id === filter.appId);
    if (filter.projectId) {
      const ids = await this.projects.appIdsOf(filter.projectId);
      if (!ids) throw new ApiError(404, 'not-found', 'No such project.');
      apps = apps.filter((a) => ids.includes(a.id));
    }
    return { ...filter, apps };
  }

  committers(query: CommitterQuery) {
    return this.answer('committers', query, query, async (scope) =>
      this.rows.committerPage(scope, query, await this.committerPeople()),
    );
  }

  /** Users who list git identities: each is one committer across their identities (issue 34). */
  private async committerPeople(): Promise<CommitterPerson[]> {
    return (await this.identities.peopleWithIdentities()).map((p) => ({
      label: `${p.username} <${p.email}>`,
      ...p.keys,
    }));
  }

  committerTrend(filter: AnalyticsFilter): Promise<CommitterTrend> {
    return this.answer('committerTrend', filter, filter, (scope) => this.readCommitterTrend(scope));
  }

  private async readCommitterTrend(scope: ReportScope): Promise<CommitterTrend> {
    const people = await this.committerPeople();
    const top = await this.rows.committerPage(
      scope,
      { page: 1, perPage: TREND_AUTHORS, sortBy: 'uncoveredMethods', sortDesc: true },
      people,
    );
    return this.rows.committerTrend(
      scope,
      top.items.map((c) => c.author ?? ''),
      people,
    );
  }

  /** Requirement analytics (point 6: the Requirement resource, refused in the lite edition by the gate). */
  requirements(query: RequirementAnalyticQuery) {
    return this.answer('requirements', query, query, (scope) =>
      this.rows.requirementPage({ ...scope, projectId: query.projectId }, query),
    );
  }

  cases(query: CaseAnalyticQuery) {
    return this.answer('cases', query, query, (scope) => this.rows.casePage(scope, query));
  }

  caseMethods(query: CaseMethodsQuery) {
    return this.answer('caseMethods', query, query, (scope) => this.rows.caseMethods(scope, query.caseKey));
  }

  caseImpact(query: CaseImpactQuery) {
    return this.answer('caseImpact', query, query, (scope) => this.rows.caseImpact(scope, query));
  }

  appVersions(query: AppAnalyticQuery) {
    return this.answer('appVersions', query, query, (scope) => this.rows.appVersionPage(scope, query));
  }

  appOverview(filter: AnalyticsFilter): Promise<AppOverview> {
    return this.answer('appOverview', filter, filter, (scope) => this.readAppOverview(scope));
  }

  private async readAppOverview(scope: ReportScope): Promise<AppOverview> {
    const [activity, trend, tests] = await Promise.all([
      this.rows.activityByDay(scope),
      this.rows.coverageByWeek(scope),
      this.testActivity(scope, 30),
    ]);
    return { activity, trend, ...tests };
  }

  cockpit(filter: AnalyticsFilter): Promise<Cockpit> {
    return this.answer('cockpit', filter, filter, (scope) => this.readCockpit(scope));
  }

  private async readCockpit(scope: ReportScope): Promise<Cockpit> {
    const [standings, trend, activity, tests] = await Promise.all([
      this.standings(scope),
      this.rows.coverageByWeek(scope, 12),
      this.rows.activityByDay(scope, 30),
      this.testActivity(scope, 30),
    ]);
    const reports = activity.reduce((n, d) => n + d.succeeded, 0);
    return { standings, trend, activity, ...tests, apps: scope.apps.length, reports };
  }

  /** Uploads per day, the agents alive now and the risk burn-down over the scope's apps (issue 35). */
  private async testActivity(scope: ReportScope, days: number) {
    const appIds = scope.apps.map((a) => a.id);
    const names = new Map(scope.apps.map((a) => [a.id, a.name]));
    const { testType, envType, version, from, to } = scope;
    const [uploads, agents, burnDown] = await Promise.all([
      this.activity.intake.uploadsByDay({ appIds, testType, envType, from, to }, days),
      this.activity.intake.agentsNow({ appIds, envType }, names),
      this.activity.burnDown({ appIds, testType, version, from, to }, days),
    ]);
    return { uploads, agents, burnDown };
  }

  versions(filter: AnalyticsFilter): Promise<GroupFigures[]> {
    return this.answer('versions', filter, filter, (scope) => this.rows.groupFigures(scope, null));
  }

  /** Every project in scope (its team's, or the one named), those without reports with empty figures. */
  projectFigures(filter: AnalyticsFilter): Promise<GroupFigures[]> {
    const unnamed = { ...filter, projectId: undefined };
    return this.answer('projects', unnamed, filter, (scope) => this.readProjectFigures(scope, filter));
  }

  private async readProjectFigures(scope: ReportScope, filter: AnalyticsFilter): Promise<GroupFigures[]> {
    const listed = await this.projects.list({ page: 1, perPage: EVERY, sortDesc: false, teamId: filter.teamId });
    const projects = listed.items.filter((p) => !filter.projectId || p.id === filter.projectId);
    const groups = projects.map((p) => ({ key: p.id, name: p.name, appIds: p.apps.map((a) => a.id) }));
    const figures = await this.rows.groupFigures(scope, groups);
    return groups.map((g) => {
      const found = figures.find((f) => f.key === g.key);
      return { ...(found ?? emptyFigures(g.key)), name: g.name, apps: g.appIds.length };
    });
  }

  projectDashboard(id: string, filter: AnalyticsFilter): Promise<ProjectDashboard> {
    const unnamed = { ...filter, projectId: undefined };
    return this.answer('projectDashboard', unnamed, { id, filter }, (all) =>
      this.readProjectDashboard(id, all, filter),
    );
  }

  private async readProjectDashboard(id: string, all: ReportScope, filter: AnalyticsFilter): Promise<ProjectDashboard> {
    const project = await this.projects.get(id);
    const [figures] = await this.readProjectFigures(all, { ...filter, projectId: project.id });
    const scope = await this.scope({ ...filter, projectId: project.id });
    const [standings, versions] = await Promise.all([
      this.standings(scope),
      this.rows.appVersionPage(scope, { page: 1, perPage: 50, sortBy: 'finishedAt', sortDesc: true }),
    ]);
    return {
      project: figures ?? { ...emptyFigures(project.id), name: project.name },
      standings,
      versions: versions.items,
    };
  }

  private async standings(scope: ReportScope): Promise<AppStanding[]> {
    const byId = new Map(scope.apps.map((a) => [a.id, a]));
    return (await this.rows.latestStandings(scope)).flatMap((s) => {
      const app = byId.get(s.appId);
      return app ? [{ ...s, appName: app.name, teamId: app.teamId, teamName: app.teamName }] : [];
    });
  }
}

function emptyFigures(key: string): GroupFigures {
  return {
    key,
    name: key,
    apps: 0,
    unitLineCoverage: null,
    functionalLineCoverage: null,
    diffLineCoverage: null,
    changedMethods: 0,
    coveredMethods: 0,
    reports: 0,
    lastReportAt: null,
  };
}

/** The filter's fields alone (a query also carries its page and sort), as the scope is read from them. */
function onlyFilter(query: AnalyticsFilter): AnalyticsFilter {
  const { teamId, appId, projectId, version, testType, envType, from, to } = query;
  return { teamId, appId, projectId, version, testType, envType, from, to };
}

const filterKey = (filter: AnalyticsFilter): string => JSON.stringify(onlyFilter(filter));
