import { type FailureStatus, type ReportJobStatus, STEP_FAILURE, type WorkingStep } from '@sextant/api';
import { type Coverage, diffCoverage, type RevisionChanges } from '@sextant/coverage';
import { changesBetweenCommits } from '@sextant/coverage/node';
import type { Db } from '../../../db/client.ts';
import { cacheDir, mirrorDir, type ReportConfig } from '../../../lib/data-paths.ts';
import { checkRepoLocation } from '../../apps/repo-location.ts';
import type { StoredUploads } from '../../intake/index.ts';
import type { CaseCoverage } from '../generate/case-summaries.ts';
import type { GenerateInput } from '../generate/types.ts';
import type { ReportRow, ReportsRepository } from '../repository.ts';
import { type CarriedSource, carriedSources, carriedSummary } from './carry-forward.ts';
import { compile } from './compile.ts';
import { mapUploads, mergeEnvironment, uploadsOfCommit } from './gather-coverage.ts';
import { resolveRefs, syncMirror, withoutCredentials } from './mirror.ts';
import { nothingPlacedFailure, packagesAt } from './placement.ts';
import { requirementChanges } from './requirement-changes.ts';
import { StepFailure } from './step-failure.ts';

type Placement = Parameters<typeof nothingPlacedFailure>[1];

/** Thrown when the report was re-run or deleted under a job: the job stops and writes nothing. */
export class ReportOutdated extends Error {
  override name = 'ReportOutdated';
}

const STEPS = {
  CLONING: { fails: STEP_FAILURE.CLONING, title: 'Fetching the repository' },
  COMPILING: { fails: STEP_FAILURE.COMPILING, title: 'Building' },
  DIFF_METHODS: { fails: STEP_FAILURE.DIFF_METHODS, title: 'Finding changed methods' },
  ADDING_MODULE: { fails: STEP_FAILURE.ADDING_MODULE, title: 'Mapping coverage onto the repository' },
  ENV_REPORT: { fails: STEP_FAILURE.ENV_REPORT, title: 'Gathering the environment coverage' },
  GENERATING_REPORT: { fails: STEP_FAILURE.GENERATING_REPORT, title: 'Generating the report' },
} as const satisfies Record<WorkingStep, { fails: FailureStatus; title: string }>;
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
  /** The intake's kept uploads (coverage_uploads belongs to the intake). */
  uploads: StoredUploads;
  config: ReportConfig;
  app: (appId: string) => Promise<{ name: string; repoUrl: string; buildCommand: string | null }>;
  publish: (status: ReportJobStatus, title: string, text: string) => Promise<void>;
  passingGrade: () => Promise<number>;
  generate: (db: Db, input: GenerateInput) => Promise<unknown>;
  signal: AbortSignal;
};

type ReportApp = Awaited<ReturnType<PipelineDeps['app']>>;
type Step = <T>(status: StepStatus, text: string, work: () => Promise<T>) => Promise<T>;

/** What every step of one run works with. */
type Run = {
  deps: PipelineDeps;
  report: ReportRow;
  app: ReportApp;
  mirror: string;
  git: { timeoutMs: number; signal: AbortSignal };
  step: Step;
};

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
  const run: Run = {
    deps,
    report,
    app,
    mirror: mirrorDir(config.dataDir, report.appId),
    git: { timeoutMs: config.gitTimeoutMs, signal },
    step: stepRunner(deps, report),
  };

  const [baseCommit, newCommit] = await fetchCommits(run);
  if (!(await repository.advance(report.id, report.run, { baseCommit, newCommit }))) throw new ReportOutdated();

  const buildCommand = app.buildCommand;
  if (buildCommand) {
    await run.step('COMPILING', `sh -c ${JSON.stringify(buildCommand)} at ${newCommit.slice(0, 12)}`, () =>
      compile({
        mirror: run.mirror,
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
    changes = await run.step(
      'DIFF_METHODS',
      `changes between ${baseCommit.slice(0, 12)} and ${newCommit.slice(0, 12)}`,
      () => changesBetweenCommits(run.mirror, baseCommit, newCommit, { cacheDir: cacheDir(config.dataDir) }),
    );
  }

  const { coverage, cases, placement, carried } = await gatherCoverage(run, newCommit);
  await generate(run, { baseCommit, newCommit, changes, coverage, cases, placement, carried });
}

/**
 * Runs one step: records its status (CLONING is already set by the claim) unless the run is outdated,
 * publishes it, and turns any error or the step's time limit into the step's failure status.
 */
function stepRunner(deps: PipelineDeps, report: ReportRow): Step {
  const { repository, signal } = deps;
  return async (status, text, work) => {
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
}

/**
 * CLONING: the app's mirror fetched, both versions resolved to commits. A version the repository does
 * not know ends the report here, as CLONE_FAIL naming the version: it is found while resolving refs in
 * the mirror, before any diff is attempted.
 */
function fetchCommits({ app, report, mirror, git, deps, step }: Run): Promise<readonly [string, string]> {
  return step('CLONING', `git fetch ${withoutCredentials(app.repoUrl)}`, async () => {
    // Checked again here: an app saved before the policy, or a host name that resolves elsewhere now.
    const location = await checkRepoLocation(app.repoUrl, deps.config.repoPolicy).catch((error: Error) => {
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
}

/**
 * ADDING_MODULE then ENV_REPORT: the environment's uploads of the new commit, mapped and merged;
 * with carry-forward on, the coverage of older commits' uploads carried to it (issue 38).
 */
async function gatherCoverage(
  { deps, report, app, mirror, git, step }: Run,
  newCommit: string,
): Promise<{ coverage: Coverage; cases: CaseCoverage[]; placement: Placement; carried: CarriedSource[] }> {
  const { dataDir } = deps.config;
  const mapped = await step(
    'ADDING_MODULE',
    `coverage uploads of ${report.envType} at ${newCommit.slice(0, 12)}`,
    async () => {
      const uploads = await uploadsOfCommit(
        deps.uploads,
        { appId: report.appId, envType: report.envType, testType: report.testType, mirror, newCommit },
        git,
      );
      return {
        uploads: uploads.length,
        ...(await mapUploads({
          uploads,
          stored: deps.uploads,
          mirror,
          newCommit,
          exec: {
            appId: report.appId,
            appName: app.name,
            jacocoLib: deps.config.jacocoLib,
            maxBytes: deps.config.uploadLimitBytes,
          },
        })),
      };
    },
  );

  const days = report.carryForwardDays;
  const carryNote = days > 0 ? `; carrying forward older commits' coverage of the last ${days} day(s)` : '';
  const execNote = mapped.execNote ? `; ${mapped.execNote}` : '';
  const { coverage, carried } = await step(
    'ENV_REPORT',
    `${mapped.uploads} upload(s)${mapped.unmappedFiles.length ? `, ${mapped.unmappedFiles.length} path(s) not in the repository` : ''}${execNote}${carryNote}`,
    async () => ({
      coverage: mergeEnvironment(mapped.coverages, {
        appName: app.name,
        newCommit,
        envType: report.envType,
        execNote: mapped.execNote,
      }),
      carried:
        days > 0
          ? await carriedSources({
              stored: deps.uploads,
              appId: report.appId,
              envType: report.envType,
              testType: report.testType,
              days,
              newCommit,
              mirror,
              cacheDir: cacheDir(dataDir),
              reportOf: (commit) =>
                deps.repository.finishedAt({
                  appId: report.appId,
                  envType: report.envType,
                  testType: report.testType,
                  commit,
                }),
            })
          : [],
    }),
  );
  return {
    coverage,
    cases: mapped.cases,
    carried,
    placement: { unmappedFiles: mapped.unmappedFiles, ambiguousFiles: mapped.ambiguousFiles },
  };
}

/** GENERATING_REPORT: the diff coverage, the requirement keys of the commit messages, and the writes. */
async function generate(
  { deps, report, mirror, git, step }: Run,
  found: {
    baseCommit: string;
    newCommit: string;
    changes: RevisionChanges | null;
    coverage: Coverage;
    cases: CaseCoverage[];
    placement: Placement;
    carried: CarriedSource[];
  },
): Promise<void> {
  const { baseCommit, newCommit, changes, coverage, cases } = found;
  const unparsed = changes?.unparsedFiles?.length ?? 0;
  const unparsedNote = unparsed > 0 ? `, methods not known in ${unparsed} changed file(s) (tree-sitter gave up)` : '';
  await step('GENERATING_REPORT', `${coverage.files.length} file(s)${unparsedNote}`, async () => {
    const diff = changes ? diffCoverage(changes, coverage) : null;
    const unplaced = nothingPlacedFailure(diff, found.placement);
    if (unplaced) throw unplaced;
    const packages = await packagesAt(mirror, newCommit);
    const named = await requirementChanges(mirror, baseCommit, newCommit, diff, git);
    // A last check before the writes: a job outdated by now must not replace the new run's rows.
    if (!(await deps.repository.advance(report.id, report.run, {}))) throw new ReportOutdated();
    await deps.generate(deps.db, {
      reportId: report.id,
      appId: report.appId,
      version: report.newVersion,
      newCommit,
      coverageType: report.coverageType as GenerateInput['coverageType'],
      coverage,
      diff,
      changes,
      requirements: named.keys,
      requirementChanges: named.changes,
      cases,
      passingGrade: await deps.passingGrade(),
      testType: report.testType,
      packages,
      carried: carriedSummary(found.carried, coverage, diff && changes ? { diff, changes } : null),
    });
  });
}
