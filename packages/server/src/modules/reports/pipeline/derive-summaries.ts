import { diffCoverage } from '@sextant/coverage';
import { changesBetweenCommits } from '@sextant/coverage/node';
import { cacheDir, mirrorDir, type ReportConfig } from '../../../lib/data-paths.ts';
import { checkRepoLocation } from '../../apps/repo-location.ts';
import type { StoredUploads } from '../../intake/index.ts';
import { caseMethodRows } from '../generate/case-summaries.ts';
import { MethodChanges } from '../generate/method-changes.ts';
import { requirementRows } from '../generate/requirement-summaries.ts';
import type { ReportSummaries } from '../generate/summaries.ts';
import type { ReportRow } from '../repository.ts';
import { mapUploads, mergeEnvironment, uploadsOfCommit } from './gather-coverage.ts';
import { syncMirror } from './mirror.ts';
import { requirementChanges } from './requirement-changes.ts';

export type DeriveDeps = {
  uploads: StoredUploads;
  config: ReportConfig;
  app: (appId: string) => Promise<{ name: string; repoUrl: string }>;
  signal: AbortSignal;
};

/**
 * A finished report's summaries derived again as its pipeline run derived them: the diff of its two
 * stored commits, the uploads of its environment at its new commit that had arrived when it finished
 * (each case's apart), and the requirement keys of the commits between. Carried-forward coverage
 * never enters the summaries, so it is not gathered. Throws when the repository or an upload is gone.
 */
export async function deriveSummaries(deps: DeriveDeps, report: ReportRow): Promise<ReportSummaries> {
  const { baseCommit, newCommit, finishedAt } = report;
  if (!baseCommit || !newCommit || !finishedAt) throw new Error('the report has no commits or end recorded');
  const { config, signal } = deps;
  const app = await deps.app(report.appId);
  const mirror = mirrorDir(config.dataDir, report.appId);
  const git = { timeoutMs: config.gitTimeoutMs, signal };
  const location = await checkRepoLocation(app.repoUrl, config.repoPolicy);
  await syncMirror(app.repoUrl, mirror, { ...git, gitConfig: location.gitConfig });
  const changes =
    report.coverageType === 'incremental'
      ? await changesBetweenCommits(mirror, baseCommit, newCommit, { cacheDir: cacheDir(config.dataDir) })
      : null;
  const all = await uploadsOfCommit(
    deps.uploads,
    { appId: report.appId, envType: report.envType, testType: report.testType, mirror, newCommit },
    git,
  );
  const uploads = all.filter((u) => u.createdAt <= finishedAt);
  const mapped = await mapUploads({ uploads, stored: deps.uploads, mirror, newCommit });
  const coverage = mergeEnvironment(mapped.coverages, { appName: app.name, newCommit, envType: report.envType });
  const diff = changes ? diffCoverage(changes, coverage) : null;
  const named = await requirementChanges(mirror, baseCommit, newCommit, diff, git);
  return {
    diff,
    cases: caseMethodRows(mapped.cases, new MethodChanges(diff, changes)),
    requirements: requirementRows(diff, named.changes),
  };
}
