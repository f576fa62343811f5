import type { ReportJobStatus } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { ReportConfig } from '../../lib/data-paths.ts';
import type { JobQueue } from '../../lib/job-queue.ts';
import type { AppsService } from '../apps/service.ts';
import type { AuditService } from '../audit/service.ts';
import type { Principals } from '../auth/principals.ts';
import { createStoredUploads } from '../intake/index.ts';
import type { TeamsService } from '../teams/service.ts';
import { ChangedMethodReads } from './changed-method-reads.ts';
import { generateReport } from './generate/index.ts';
import { reapLeftoverBuilds } from './pipeline/build-groups.ts';
import { runPipeline } from './pipeline/pipeline.ts';
import { jobTiming, ReportJobs } from './report-jobs.ts';
import { ReportsRepository } from './repository.ts';
import { reportsRoutes } from './routes.ts';
import { ReportsService } from './service.ts';

/** Publishes a report's progress; progress is also in reports.status, so a lost message must not fail the report. */
async function publishProgress(
  app: FastifyInstance,
  progress: { reportId: string; status: ReportJobStatus; title: string; text: string },
): Promise<void> {
  const { reportId, status, title, text } = progress;
  try {
    await app.messages.publish({ message_type: 'REPORT_PROGRESS', report_id: reportId, status, title, text });
  } catch (error) {
    app.log.error({ err: error, reportId, status }, 'report progress message not published');
  }
}

/** The audit log's actor name for the pipeline's own status changes. */
export const PIPELINE_ACTOR = 'report pipeline';

/** Report create/edit/delete and the durable report pipeline (issue 6, DESIGN §5). */
/** The changed methods of an app version's latest report (the risks module's treemap). */
export const changedMethodReads = (db: Db): ChangedMethodReads => new ChangedMethodReads(db);
export type { ChangedMethod, ChangedMethodReads } from './changed-method-reads.ts';

export async function registerReports(
  app: FastifyInstance,
  db: Db,
  config: ReportConfig,
  deps: { apps: AppsService; teams: TeamsService; audit: AuditService; principals: Principals; queue: JobQueue },
): Promise<void> {
  const { apps, teams, audit, principals: settings } = deps;
  // Each status a job writes is a transition in the audit log (issue 34): one entry per change.
  const repository = new ReportsRepository(db, (tx, id, from, to) =>
    audit.recordBySystem(tx, PIPELINE_ACTOR, [
      { entity: 'report', entityId: id, action: 'update', changes: { status: { from, to } } },
    ]),
  );
  const uploads = createStoredUploads(db, apps, config.dataDir);
  const publish = (report: { id: string }, status: ReportJobStatus, title: string, text: string) =>
    publishProgress(app, { reportId: report.id, status, title, text });
  const jobs = new ReportJobs({
    queue: deps.queue,
    repository,
    concurrency: config.reportConcurrency,
    timing: jobTiming(),
    log: app.log,
    runJob: (report, signal) =>
      runPipeline(
        {
          db,
          repository,
          uploads,
          config,
          app: (appId) => apps.get(appId),
          publish: (status, title, text) => publish(report, status, title, text),
          passingGrade: async () => (await settings.settings()).passingGrade,
          generate: (database, input) => generateReport(database, input, app.risks),
          signal,
        },
        report,
      ).then(async () => {
        if (
          await repository.advance(report.id, report.run, { status: 'SUCCESS', errMsg: null, finishedAt: new Date() })
        ) {
          await publish(report, 'SUCCESS', `${report.name}: done`, 'The report is ready.');
        }
      }),
    failed: async (report, failure) => {
      const ended = await repository.advance(report.id, report.run, {
        status: failure.status,
        errMsg: failure.message,
        finishedAt: new Date(),
      });
      if (ended) await publish(report, failure.status, `${report.name}: ${failure.status}`, failure.message);
    },
  });
  const service = new ReportsService(
    repository,
    apps,
    teams,
    audit,
    jobs,
    (report, text) => publish(report, 'QUEUED', `${report.name}: queued`, `Report ${text}.`),
    (reportId) => app.risks.openOfReport(reportId),
  );
  reportsRoutes(app, service);
  app.addHook('onReady', async () => {
    if (config.runJobs) {
      if (config.build.sandbox === 'off') {
        app.log.warn(
          'SEXTANT_BUILD_SANDBOX=off: app build commands run unsandboxed, as the server user, able to read its data folder',
        );
      }
      // Builds a killed server left running (issue 32, finding 9), before its reports are resumed.
      const killed = await reapLeftoverBuilds(config.dataDir);
      if (killed.length > 0) app.log.warn({ processGroups: killed }, 'killed builds left running by a previous server');
    }
    await jobs.resume();
  });
}
