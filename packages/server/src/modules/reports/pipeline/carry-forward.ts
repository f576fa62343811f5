import type { Carried } from '@sextant/api';
import {
  type CarriedCoverage,
  type CarriedFigures,
  type Coverage,
  carriedFigures,
  carryForward,
  type DiffCoverage,
  type RevisionChanges,
} from '@sextant/coverage';
import { changesBetweenCommits, isAncestor } from '@sextant/coverage/node';
import type { StoredUploads, UploadRow } from '../../intake/index.ts';
import { mapUploads, mergeEnvironment } from './gather-coverage.ts';
import { StepFailure } from './step-failure.ts';

/** At most this many older commits are read: the newest ones with uploads in the window. */
export const CARRY_FORWARD_COMMITS = 10;
const DAY_MS = 24 * 60 * 60_000;

/** An older commit's coverage carried to the new commit, with the uploads it came from. */
export type CarriedSource = {
  coverage: CarriedCoverage;
  uploads: number;
  lastUploadAt: Date;
  /** The newest finished report over the older commit, if any. */
  report: { id: string; name: string } | null;
};

/**
 * Issue 38: the coverage that uploads of older commits (same app, environment and test type, made
 * within `days`, commits that are ancestors of the new one) carry to the new commit, newest commit
 * first. An older commit none of whose paths maps onto its own files is left out, as its report
 * would fail; the uploads' commits are resolved already (uploadsOfCommit ran before).
 */
export async function carriedSources(input: {
  stored: StoredUploads;
  appId: string;
  envType: string;
  testType: number;
  days: number;
  newCommit: string;
  mirror: string;
  cacheDir: string;
  /** The newest finished report over a commit (the reports repository's `finishedAt`). */
  reportOf: (commit: string) => Promise<{ id: string; name: string } | null>;
  now?: Date;
}): Promise<CarriedSource[]> {
  const since = (input.now ?? new Date()).getTime() - input.days * DAY_MS;
  const uploads = await input.stored.forReport(input.appId, input.envType, input.testType);
  const byCommit = new Map<string, UploadRow[]>();
  for (const upload of uploads) {
    const sha = upload.commitSha;
    if (!sha || sha === input.newCommit || upload.createdAt.getTime() < since) continue;
    byCommit.set(sha, [...(byCommit.get(sha) ?? []), upload]);
  }
  const lastUploadAt = (rows: UploadRow[]) => new Date(Math.max(...rows.map((u) => u.createdAt.getTime())));
  const newestFirst = [...byCommit.entries()].sort(
    ([, a], [, b]) => lastUploadAt(b).getTime() - lastUploadAt(a).getTime(),
  );
  const sources: CarriedSource[] = [];
  for (const [commit, rows] of newestFirst) {
    if (sources.length >= CARRY_FORWARD_COMMITS) break;
    // Another branch's build is not an older build of this one.
    if (!(await isAncestor(input.mirror, commit, input.newCommit))) continue;
    let old: Coverage;
    try {
      const mapped = await mapUploads({
        uploads: rows,
        stored: input.stored,
        mirror: input.mirror,
        newCommit: commit,
      });
      old = mergeEnvironment(mapped.coverages, { appName: '', newCommit: commit, envType: input.envType });
    } catch (error) {
      if (error instanceof StepFailure) continue;
      throw error;
    }
    const changes = await changesBetweenCommits(input.mirror, commit, input.newCommit, { cacheDir: input.cacheDir });
    sources.push({
      coverage: carryForward(old, changes),
      uploads: rows.length,
      lastUploadAt: lastUploadAt(rows),
      report: await input.reportOf(commit),
    });
  }
  return sources;
}

const fraction = (covered: number | null, total: number | null | undefined) =>
  covered === null || !total ? null : covered / total;

/**
 * What the carried sources add to the report, and the summary the report stores; null without
 * sources. Totals are the report's own (full: the coverage's; incremental: its changed methods').
 */
export function carriedSummary(
  sources: readonly CarriedSource[],
  fresh: Coverage,
  incremental: { diff: DiffCoverage; changes: RevisionChanges } | null,
): { figures: CarriedFigures; summary: Carried } | null {
  if (sources.length === 0) return null;
  const figures = carriedFigures(
    fresh,
    sources.map((s) => s.coverage),
    incremental,
  );
  const totals = incremental ? incremental.diff.incremental.totals : fresh.counters;
  const total = (c: { covered: number; missed: number } | null) => (c ? c.covered + c.missed : null);
  return {
    figures,
    summary: {
      lineCovered: figures.lineCovered,
      lineCoverage: fraction(figures.lineCovered, total(totals.line)),
      methodCovered: figures.methodCovered,
      methodCoverage: fraction(figures.methodCovered, total(totals.method)),
      diffLineCovered: figures.diffLineCovered,
      diffLineCoverage: fraction(figures.diffLineCovered, incremental?.diff.lines.total),
      sources: sources.map((source, i) => ({
        commit: source.coverage.from,
        uploads: source.uploads,
        lastUploadAt: source.lastUploadAt.toISOString(),
        lines: figures.sources[i]?.lines ?? 0,
        methods: figures.sources[i]?.methods ?? 0,
        report: source.report,
      })),
    },
  };
}
