import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { CoverageError } from '../errors.ts';
import { type DiffCoverage, diffCoverage } from '../figures/diff-coverage.ts';
import { mergeCoverage } from '../merge/merge.ts';
import type { Coverage, FormatName } from '../model/coverage.ts';
import { type AmbiguousPath, indexPaths, mapPaths } from '../paths/map.ts';
import type { ExtractionOptions } from './changed-methods.ts';
import { repositoryFingerprint } from './changes-cache.ts';
import {
  isAncestor,
  listFiles,
  mergeBase,
  type RepositoryPlace,
  repositoryPlace,
  resolveCommits,
  workingTree,
} from './git.ts';
import { markPhase, startPhases } from './phases.ts';
import { readCoverageFile, readCoverageStream } from './read-report.ts';
import { repositoryFacts } from './repository-facts.ts';
import { changesBetweenCommits, keptChanges } from './revision-changes.ts';
import { workspaceFolders } from './workspaces.ts';

export interface LoadedReport {
  coverage: Coverage;
  /** Report paths that name no file of the repository (empty when no repository was given). */
  unmappedFiles: string[];
  /** Of those, the ones whose suffix names several repository files, with the candidates. */
  ambiguousFiles?: AmbiguousPath[];
  /** The repository's package folders (`workspaceFolders`); empty without a repository or outside a monorepo. */
  packages?: string[];
}

/** The repository folder a report file sits in ('' at the top), null for one outside it or standard input. */
function reportFolder(file: string, top: string): string | null {
  if (file === STDIN_REPORT) return null;
  const folder = relative(top, dirname(resolve(file)));
  if (folder.startsWith('..') || isAbsolute(folder)) return null;
  return folder.split(sep).join('/');
}

/** The report name that reads standard input (`… | sextant coverage -`). */
export const STDIN_REPORT = '-';

/**
 * Reads every report (all the same format; `-` is standard input), merges them, and maps paths onto `repoFiles` (the
 * repository's file list, usually still being read by git while the reports are parsed). `place`,
 * the folder the report was made in, is preferred for relative paths (after the folder each report
 * file sits in and its parents; `options.baseDir` stands in for it) and stripped from absolute ones.
 */
export async function loadReport(
  files: readonly string[],
  format: FormatName | 'auto',
  repoFiles: Promise<readonly string[]> | null,
  place: Promise<RepositoryPlace> | null = null,
  options: { baseDir?: string | null } = {},
): Promise<LoadedReport> {
  // Awaited (and their failure reported) after the reports are parsed.
  repoFiles?.catch(() => undefined);
  place?.catch(() => undefined);
  const reports: Coverage[] = [];
  for (const file of files) {
    const read =
      file === STDIN_REPORT
        ? readCoverageStream(process.stdin, { format, fileName: 'standard input' })
        : readCoverageFile(file, { format });
    const report = await read;
    const first = reports[0];
    // Named here, where the files are known: mergeCoverage sees only the reports.
    if (first && report.format !== first.format) {
      throw new CoverageError(
        'format-mismatch',
        `the report is ${report.format} and ${files[0]} is ${first.format}: reports merge in one format`,
        { file: file === STDIN_REPORT ? 'standard input' : file, format: report.format },
      );
    }
    reports.push(report);
  }
  const merge = (all: Coverage[]) => (all.length === 1 ? (all[0] as Coverage) : mergeCoverage(all));
  if (!repoFiles) return { coverage: merge(reports), unmappedFiles: [], ambiguousFiles: [] };
  const [list, where] = await Promise.all([repoFiles, place]);
  const index = indexPaths(list);
  const packages = where ? workspaceFolders(where.top, index) : Promise.resolve([]);
  const baseDir = options.baseDir !== undefined ? options.baseDir : (where?.prefix ?? null);
  // Each report is placed by its own location before they merge: two modules' `com/acme/Util.java`
  // are two files, never one class.
  const unmappedFiles: string[] = [];
  const ambiguousFiles: AmbiguousPath[] = [];
  const placed = reports.map((report, i) => {
    const reportDir = where ? reportFolder(files[i] as string, where.top) : null;
    const mapped = mapPaths(report, index, where ? { baseDir, reportDir, sourceRoots: [where.top] } : { baseDir });
    unmappedFiles.push(...mapped.unmappedFiles);
    ambiguousFiles.push(...mapped.ambiguousFiles);
    return mapped.coverage;
  });
  return { coverage: merge(placed), unmappedFiles, ambiguousFiles, packages: await packages };
}

export interface ReportRequest {
  files: readonly string[];
  format: FormatName | 'auto';
  /** The repository (or a folder of it) whose files the report's paths are mapped onto; null maps nothing. */
  repo: string | null;
  /** Both or neither: with them the diff figures are computed too. */
  base: string | null;
  head: string | null;
  /** Compare head with where it left base (`git merge-base`, as diff-cover and pull requests do), not with base itself. */
  mergeBase?: boolean;
  /** How the changed files' methods are found (worker threads, cache folder). */
  methods?: ExtractionOptions;
  /** The changed lines' figures only: no changed methods (see `ChangesOptions.linesOnly`). */
  linesOnly?: boolean;
  /** The repository folder the reports were made in (`--base-dir`; null the top), instead of repo's folder. */
  baseDir?: string | null;
}

/**
 * A report's figures and, with base and head, its diff figures. The refs are resolved once; the
 * report is parsed while git lists the files, diffs, reads sources and blames. Run in a folder of
 * a repository (a monorepo package), the diff covers only that folder; paths stay repository-relative.
 */
export async function reportWithDiff(request: ReportRequest): Promise<{
  report: LoadedReport;
  diff: DiffCoverage | null;
  /** Whether base is an ancestor of head (else its own later changes show as changed lines); null without a diff. */
  baseIsAncestor: boolean | null;
  /**
   * Report files that differ in the work tree from head when head is the checked-out commit: the
   * report was likely made from them, so its line numbers may not be head's.
   */
  uncommittedReportFiles: string[];
}> {
  const { repo, base, head } = request;
  startPhases();
  if (repo === null) {
    const report = await loadReport(request.files, request.format, null);
    markPhase('report');
    return { report, diff: null, baseIsAncestor: null, uncommittedReportFiles: [] };
  }
  if (base === null || head === null) {
    const place = repositoryPlace(repo);
    const report = await loadReport(request.files, request.format, listFiles(repo, head ?? 'HEAD'), place, request);
    markPhase('report');
    return { report, diff: null, baseIsAncestor: null, uncommittedReportFiles: [] };
  }
  // One `git rev-parse` for the place, the commits and the fingerprint; each asks alone if it fails.
  const facts = repositoryFacts(repo, [base, head]);
  const place = repositoryPlace(repo, facts);
  const resolved = facts.then(
    (known) => (known?.commits ?? resolveCommits(repo, [base, head])) as [string, string] | Promise<[string, string]>,
  );
  const commits = request.mergeBase
    ? resolved.then(async ([b, h]): Promise<[string, string]> => [await mergeBase(repo, b, h), h])
    : resolved;
  // Asked only when head is the commit checked out: else no report file can differ from it there.
  const tree = Promise.all([facts, commits]).then(([known, [, h]]) =>
    known && known.checkedOut !== h ? null : workingTree(repo),
  );
  tree.catch(() => undefined);
  // The changes cache's fingerprint of the repository is asked beside the commits.
  const cacheDir = request.methods?.cacheDir;
  const fingerprint = cacheDir
    ? repositoryFingerprint(
        repo,
        facts.then((known) => known?.where ?? null),
      )
    : null;
  const entry = Promise.all([commits, place]).then(([[b, h], { scope }]) =>
    keptChanges(cacheDir, fingerprint, b, h, scope),
  );
  // Kept with the changes: then git is asked neither whether base is an ancestor nor for the files.
  const ancestry = Promise.all([commits, entry]).then(([[b, h], { kept }]) =>
    request.mergeBase ? true : (kept?.baseIsAncestor ?? isAncestor(repo, b, h)),
  );
  ancestry.catch(() => undefined);
  const headFiles = Promise.all([commits, entry]).then(([[, h], { kept }]) => kept?.headFiles ?? listFiles(repo, h));
  headFiles.catch(() => undefined);
  const changes = Promise.all([commits, place]).then(([[b, h], { top, scope }]) =>
    changesBetweenCommits(
      top,
      b,
      h,
      { ...request.methods, scope, linesOnly: request.linesOnly, ancestry, headFiles },
      entry,
    ),
  );
  changes.catch(() => undefined);
  const report = await loadReport(request.files, request.format, headFiles, place, request);
  markPhase('report');
  const found = await changes;
  // A kept full answer serves a lines-only request; its methods are not counted.
  const wanted = request.linesOnly ? { ...found, headMethods: new Map(), changedMethods: [], authors: [] } : found;
  const diff = diffCoverage(wanted, report.coverage);
  markPhase('figures');
  const checkedOut = await tree;
  const uncommitted = new Set(checkedOut?.head === diff.head ? checkedOut.changed : []);
  const uncommittedReportFiles = report.coverage.files.map((f) => f.path).filter((path) => uncommitted.has(path));
  return { report, diff, baseIsAncestor: await ancestry, uncommittedReportFiles };
}
