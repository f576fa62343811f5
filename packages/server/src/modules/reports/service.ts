import type { CreateReport, Report, UpdateReport, UserData } from '@sextant/api';
import { ApiError } from '../../errors.ts';
import type { AppsService } from '../apps/service.ts';
import { type Actor, type AuditService, changedFields } from '../audit/service.ts';
import type { TeamsService } from '../teams/service.ts';
import { presentReport } from './present.ts';
import type { ReportJobs } from './report-jobs.ts';
import type { ReportRow, ReportsRepository } from './repository.ts';

type AppView = Awaited<ReturnType<AppsService['get']>>;
export type Caller = { userData: UserData };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the audit log shows of a report: what a user chose, not the pipeline's results. */
function snapshot(row: ReportRow): Record<string, unknown> {
  return {
    appId: row.appId,
    name: row.name,
    baseVersion: row.baseVersion,
    newVersion: row.newVersion,
    envType: row.envType,
    testType: row.testType,
    coverageType: row.coverageType,
    carryForwardDays: row.carryForwardDays,
    run: row.run,
  };
}

/** Creating, editing, re-running and deleting reports; the pipeline itself runs in ReportJobs. */
export class ReportsService {
  constructor(
    private readonly repository: ReportsRepository,
    private readonly apps: AppsService,
    private readonly teams: TeamsService,
    private readonly audit: AuditService,
    private readonly jobs: ReportJobs,
    private readonly announce: (report: ReportRow, text: string) => Promise<void>,
    /** A report's risk items still open (the risks module's). */
    private readonly openRisks: (reportId: string) => Promise<number>,
  ) {}

  async create(input: CreateReport, caller: Caller): Promise<Report> {
    const app = await this.appNamed(input.app);
    await this.mayChangeReportsOf(app, caller);
    const actor: Actor = { id: caller.userData.userid };
    const row = await this.repository.db.transaction(async (tx) => {
      const inserted = await this.repository.insert(tx, {
        appId: app.id,
        name: input.name,
        baseVersion: input.baseVersion,
        newVersion: input.newVersion,
        envType: input.envType,
        testType: input.testType,
        coverageType: input.coverageType,
        carryForwardDays: input.carryForwardDays ?? 0,
        status: 'QUEUED',
        run: 1,
        createdBy: actor.id,
      });
      const changes = changedFields({}, snapshot(inserted));
      await this.audit.record(tx, actor, { entity: 'report', entityId: inserted.id, action: 'create', changes });
      return inserted;
    });
    await this.queue(row, 'queued');
    return this.present(row, app);
  }

  /**
   * Renames without touching the results. A change of versions, environment or coverage type, or
   * `rerun`, runs the pipeline again: `run` goes up, so the job of the earlier run stops.
   */
  async update(id: string, input: UpdateReport, caller: Caller): Promise<Report> {
    const current = await this.repository.find(id);
    if (!current) throw new ApiError(404, 'not-found', 'No such report.');
    const app = await this.apps.get(current.appId);
    await this.mayChangeReportsOf(app, caller);
    const { rerun, ...fields } = input;
    const changesInputs = (Object.keys(fields) as (keyof typeof fields)[]).some(
      (key) => key !== 'name' && fields[key] !== undefined && fields[key] !== current[key],
    );
    const runAgain = rerun === true || changesInputs;
    const actor: Actor = { id: caller.userData.userid };
    const row = await this.audit.updateAudited({
      entity: 'report',
      id,
      actor,
      notFound: 'No such report.',
      current: (tx) => this.repository.find(id, tx),
      update: async (tx, before) => {
        const updated = await this.repository.update(tx, id, {
          ...fields,
          ...(runAgain
            ? {
                run: before.run + 1,
                status: 'QUEUED',
                errMsg: null,
                finishedAt: null,
                baseCommit: null,
                newCommit: null,
              }
            : {}),
        });
        if (!updated) throw new ApiError(404, 'not-found', 'No such report.');
        return updated;
      },
      snapshot,
    });
    if (runAgain) {
      await this.jobs.cancel(id);
      await this.queue(row, 'queued again');
    }
    return this.present(row, app);
  }

  async remove(id: string, caller: Caller): Promise<void> {
    const current = await this.repository.find(id);
    if (!current) throw new ApiError(404, 'not-found', 'No such report.');
    await this.mayChangeReportsOf(await this.apps.get(current.appId), caller);
    await this.audit.removeAudited({
      entity: 'report',
      id,
      actor: { id: caller.userData.userid },
      notFound: 'No such report.',
      rules: { entity: 'report', meanings: {}, referencedBy: {} },
      snapshot: async (tx) => {
        const row = await this.repository.find(id, tx);
        return row && snapshot(row);
      },
      remove: (tx) => this.repository.delete(tx, id),
    });
    await this.jobs.cancel(id);
  }

  private async queue(row: ReportRow, text: string): Promise<void> {
    await this.announce(row, text);
    await this.jobs.enqueue(row.id, row.run);
  }

  /** An app by id, or by its name when that names exactly one app. */
  private async appNamed(nameOrId: string): Promise<AppView> {
    if (UUID.test(nameOrId)) return this.apps.get(nameOrId);
    const { items } = await this.apps.list({ q: nameOrId, page: 1, perPage: 100, sortDesc: false });
    const named = items.filter((a) => a.name === nameOrId);
    if (named.length === 0) throw new ApiError(404, 'not-found', 'No such app.');
    if (named.length > 1) {
      throw new ApiError(409, 'conflict', `Several teams have an app named ${nameOrId}; name the app by its id.`, {
        app: 'Ambiguous app name.',
      });
    }
    return named[0] as AppView;
  }

  /** Members (and the leader) of the app's team, or whoever may manage everything. */
  private async mayChangeReportsOf(app: AppView, caller: Caller): Promise<void> {
    const { userData } = caller;
    if (userData.ability.some((a) => a.action === 'manage' && a.resource === 'all')) return;
    const team = await this.teams.get(app.teamId);
    const member = team.leader?.id === userData.userid || team.members.some((m) => m.id === userData.userid);
    if (!member) {
      throw new ApiError(403, 'forbidden', `Only members of team ${team.name} may change the reports of ${app.name}.`);
    }
  }

  private async present(row: ReportRow, app?: AppView): Promise<Report> {
    const shown = app ?? (await this.apps.get(row.appId));
    return presentReport(row, shown, await this.openRisks(row.id));
  }
}
