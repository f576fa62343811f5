import { type Coverage, diffCoverage, type RevisionChanges } from '@sextant/coverage';
import { changesBetweenCommits } from '@sextant/coverage/node';
import type { Db } from '../../../db/client.ts';
import { cacheDir, mirrorDir, type ReportConfig } from '../../../lib/data-paths.ts';
import { checkRepoLocation } from '../../apps/repo-location.ts';
import type { GenerateInput } from '../generate/types.ts';
import type { ReportRow, ReportsRepository } from '../repository.ts';
import { compile } from './compile.ts';
import { mapUploads, mergeEnvironment, uploadsOfCommit } from './gather-coverage.ts';
import { commitMessages, resolveRefs, syncMirror, withoutCredentials } from './mirror.ts';
import { type FailureStatus, StepFailure } from './step-failure.ts';

/** Thrown when the report was re-run or deleted under a job: the job stops and writes nothing. */
export class ReportOutdated extends Error {
  override name = 'ReportOutdated';
}

const STEPS = {
  CLONING: { fails: 'CLONE_FAIL', title: 'Fetching the repository' },
  COMPILING: { fails: 'COMPILE_FAIL', title: 'Building' },
  DIFF_METHODS: { fails: 'DIFF_METHOD_FAIL', title: 'Finding changed methods' },
  ADDING_MODULE: { fails: 'FAILADDMODULE', title: 'Mapping coverage onto the repository' },
  ENV_REPORT: { fails: 'ENVREPORT_FAIL', title: 'Gathering the environment coverage' },
  GENERATING_REPORT: { fails: 'GENERATEREPORT_FAIL', title: 'Generating the report' },
} as const satisfies Record<string, { fails: FailureStatus; title: string }>;
export type StepStatus = keyof typeof STEPS;

/** Per-step limits beyond git's own timeout (config.gitTimeoutMs, per git command). */
export const STEP_TIMEOUTS_MS: Record<StepStatus, number> = {
  CLONING: 60 * 60_000,
  COMPILING: 30 * 60_000,
  DIFF_METHODS: 20 * 60_000,
  ADDING_MODULE: 20 * 60_000,
  ENV_REPORT: 10 * 60_000,
  GENERATING_REPORT: 30 * 60_000,
};

export type PipelineDeps = {
  db: Db;
  repository: ReportsRepository;
  config: ReportConfig;
  app: (appId: string) => Promise<{ name: string; repoUrl: string; buildCommand: string | null }>;
  publish: (status: string, title: string, text: string) => Promise<void>;
  passingGrade: () => Promise<number>;
  generate: (db: Db, input: GenerateInput) => Promise<unknown>;
  signal: AbortSignal;
};

// Requirement keys as commit messages name them: PROJ-12, REQ-7.
const REQUIREMENT_KEY = /\b[A-Z][A-Z0-9_]+-\d+\b/g;

/**
 * The report pipeline of DESIGN §5 for a report this job has claimed (status CLONING). Each step
 * records its status (only while the report is still at this run) and publishes it; a failure
 * ends the report with the step's failure status and reason.
 */
export async function runPipeline(deps: PipelineDeps, report: ReportRow): Promise<void> {
  const { config, signal, repository } = deps;
  const app = await deps.app(report.appId).catch((error: Error) => {
    throw new StepFailure('CLONE_FAIL', `cannot read the report's app: ${error.message}`);
  });
  const mirror = mirrorDir(config.dataDir, report.appId);
  const git = { timeoutMs: config.gitTimeoutMs, signal };

  const step = async <T>(status: StepStatus, text: string, work: () => Promise<T>): Promise<T> => {
    if (status !== 'CLONING' && !(await repository.advance(report.id, report.run, { status }))) {
      throw new ReportOutdated();
    }
    await deps.publish(status, `${report.name}: ${STEPS[status].title}`, text);
    const limit = STEP_TIMEOUTS_MS[status];
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new StepFailure(STEPS[status].fails, `${status} took longer than ${limit / 60_000} minutes`)),
        limit,
      );
    });
    try {
      return await Promise.race([work(), timeout]);
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      if (error instanceof StepFailure || error instanceof ReportOutdated) throw error;
      throw new StepFailure(STEPS[status].fails, error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
  };

  // A version the repository does not know ends the report here, as CLONE_FAIL naming the version:
  // it is found while resolving refs in the mirror, before any diff is attempted.
  const [baseCommit, newCommit] = await step('CLONING', `git fetch ${withoutCredentials(app.repoUrl)}`, async () => {
    // Checked again here: an app saved before the policy, or a host name that resolves elsewhere now.
    const location = await checkRepoLocation(app.repoUrl, config.repoPolicy).catch((error: Error) => {
      throw new StepFailure('CLONE_FAIL', `refused repository ${withoutCredentials(app.repoUrl)}: ${error.message}`);
    });
    await syncMirror(app.repoUrl, mirror, { ...git, gitConfig: location.gitConfig });
    const refs = await resolveRefs(mirror, [report.baseVersion, report.newVersion], git);
    const resolve = (ref: string) => {
      const sha = refs.get(ref);
      if (!sha)
        throw new StepFailure(
          'CLONE_FAIL',
          `unknown version "${ref}": no such commit, branch or tag in ${withoutCredentials(app.repoUrl)}`,
        );
      return sha;
    };
    return [resolve(report.baseVersion), resolve(report.newVersion)] as const;
  });
  if (!(await repository.advance(report.id, report.run, { baseCommit, newCommit }))) throw new ReportOutdated();

  const buildCommand = app.buildCommand;
  if (buildCommand) {
    await step('COMPILING', `sh -c ${JSON.stringify(buildCommand)} at ${newCommit.slice(0, 12)}`, () =>
      compile({
        mirror,
        commit: newCommit,
        buildCommand,
        build: config.build,
        dataDir: config.dataDir,
        gitTimeoutMs: config.gitTimeoutMs,
        timeoutMs: STEP_TIMEOUTS_MS.COMPILING,
        signal,
      }),
    );
  }

  let changes: RevisionChanges | null = null;
  if (report.coverageType === 'incremental') {
    changes = await step(
      'DIFF_METHODS',
      `changes between ${baseCommit.slice(0, 12)} and ${newCommit.slice(0, 12)}`,
      () => changesBetweenCommits(mirror, baseCommit, newCommit, { cacheDir: cacheDir(config.dataDir) }),
    );
  }

  const mapped = await step(
    'ADDING_MODULE',
    `coverage uploads of ${report.envType} at ${newCommit.slice(0, 12)}`,
    async () => {
      const uploads = await uploadsOfCommit(
        repository,
        { appId: report.appId, envType: report.envType, testType: report.testType, mirror, newCommit },
        git,
      );
      return {
        uploads: uploads.length,
        ...(await mapUploads({ uploads, dataDir: config.dataDir, mirror, newCommit })),
      };
    },
  );

  const coverage: Coverage = await step(
    'ENV_REPORT',
    `${mapped.uploads} upload(s)${mapped.unmappedFiles.length ? `, ${mapped.unmappedFiles.length} path(s) not in the repository` : ''}`,
    async () => mergeEnvironment(mapped.coverages, { appName: app.name, newCommit, envType: report.envType }),
  );

  const unparsed = changes?.unparsedFiles?.length ?? 0;
  const unparsedNote = unparsed > 0 ? `, methods not known in ${unparsed} changed file(s) (tree-sitter gave up)` : '';
  await step('GENERATING_REPORT', `${coverage.files.length} file(s)${unparsedNote}`, async () => {
    const diff = changes ? diffCoverage(changes, coverage) : null;
    const messages = baseCommit === newCommit ? '' : await commitMessages(mirror, baseCommit, newCommit, git);
    const requirements = [...new Set(messages.match(REQUIREMENT_KEY) ?? [])];
    // A last check before the writes: a job outdated by now must not replace the new run's rows.
    if (!(await repository.advance(report.id, report.run, {}))) throw new ReportOutdated();
    await deps.generate(deps.db, {
      reportId: report.id,
      appId: report.appId,
      version: report.newVersion,
      newCommit,
      coverageType: report.coverageType as GenerateInput['coverageType'],
      coverage,
      diff,
      changes,
      requirements,
      passingGrade: await deps.passingGrade(),
      testType: report.testType,
    });
  });
}
