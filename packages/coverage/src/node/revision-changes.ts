import { availableParallelism } from 'node:os';
import { eachLimited } from '../each-limited.ts';
import type { RevisionChanges } from '../figures/diff-coverage.ts';
import { type ChangedMethod, changedMethods } from '../figures/incremental.ts';
import { languageOfPath } from '../methods/language.ts';
import type { SourceMethod } from '../methods/types.ts';
import { blameLines, methodAuthor } from './blame.ts';
import { type ExtractionOptions, methodsOfChangedFiles, openCache } from './changed-methods.ts';
import {
  changesCacheFile,
  changesCacheStats,
  readChanges,
  repositoryFingerprint,
  writeChanges,
} from './changes-cache.ts';
import { diff, isAncestor, type RangeHistory, rangeHistory, resolveCommits } from './git.ts';
import { markPhase } from './phases.ts';

const GIT_PROCESSES = Math.max(2, Math.min(8, availableParallelism()));

/** The one author of a set, or null for none or several. */
function soleAuthor(writers: ReadonlySet<string> | null | undefined): string | null {
  if (writers?.size !== 1) return null;
  const [only] = writers;
  return only ?? null;
}

/**
 * The author of each changed method (see `methodAuthor`). When `base` is an ancestor of `head`,
 * every changed line was last written by a commit of `base..head`, so a range one person wrote
 * needs no blame; nor does a file that only one person's commits modified in place (none added,
 * deleted or renamed it: blame then stays on its path and gives each line to one of those
 * commits). Blame walks no history before `base`. A method that only lost lines has none to
 * blame: it is that one person's where there is one, else it has no author.
 */
async function authorsOf(
  repo: string,
  base: string,
  head: string,
  methods: readonly ChangedMethod[],
  history: Promise<[boolean, RangeHistory]>,
) {
  if (methods.length === 0) return { authors: [], blamedFiles: 0 };
  const withLines = methods.filter((m) => m.changedLines.length > 0);
  const [ancestor, { authors: writers, fileAuthors }] = await history;
  const known = (path: string) => (ancestor ? (soleAuthor(writers) ?? soleAuthor(fileAuthors.get(path))) : null);
  const linesByFile = new Map<string, number[]>();
  for (const m of withLines) {
    if (known(m.file) === null) linesByFile.set(m.file, [...(linesByFile.get(m.file) ?? []), ...m.changedLines]);
  }
  const blamed = new Map(
    await eachLimited([...linesByFile], GIT_PROCESSES, async ([path, lines]) => {
      const found = await blameLines(repo, head, path, lines, ancestor ? base : null);
      return [path, new Map(found.map((l) => [l.line, l]))] as const;
    }),
  );
  const authors = methods.map((m) => {
    if (m.changedLines.length === 0) return known(m.file);
    const byLine = blamed.get(m.file);
    return byLine ? methodAuthor(m.changedLines.flatMap((line) => byLine.get(line) ?? [])) : known(m.file);
  });
  return { authors, blamedFiles: blamed.size };
}

export interface ChangesOptions extends ExtractionOptions {
  /**
   * Only the changes under this folder (repository-relative, '' for all): a monorepo package's
   * report is compared with its package's changes. `repo` is then the work tree's top folder.
   */
  scope?: string;
  /**
   * Only the changed files and lines (what diff-cover works out): no method is parsed and no one
   * blamed, so `changedMethods`, `headMethods` and `authors` are empty. Such an answer is never
   * kept; a kept full answer is read when there is one.
   */
  linesOnly?: boolean;
  /** Whether base is an ancestor of head, when the caller asks git that anyway: then it is not asked twice. */
  ancestry?: Promise<boolean>;
  /** The head commit's files, when the caller lists them: kept with the changes, with the ancestry. */
  headFiles?: Promise<string[]>;
}

/** A commit pair's entry in the changes cache: its file, and the changes kept there (null on a miss). */
export interface KeptChanges {
  file: string | null;
  kept: RevisionChanges | null;
}

/** Looks the commit pair up in the changes cache of `cacheDir` (none: a miss without a file). */
export async function keptChanges(
  cacheDir: string | null | undefined,
  fingerprint: Promise<string | null> | null,
  base: string,
  head: string,
  scope = '',
): Promise<KeptChanges> {
  const known = cacheDir ? await fingerprint : null;
  const file = cacheDir && known ? changesCacheFile(cacheDir, known, base, head, scope) : null;
  return { file, kept: file ? readChanges(file, base, head) : null };
}

/**
 * Changed files and lines, changed methods and their authors between two commits (full shas).
 * With a cache folder, kept from one run to the next (see changes-cache.ts).
 */
export async function changesBetweenCommits(
  repo: string,
  base: string,
  head: string,
  options: ChangesOptions = {},
  /** The commit pair's entry in the changes cache, when the caller looked it up already. */
  entry: Promise<KeptChanges> = keptChanges(
    options.cacheDir,
    options.cacheDir ? repositoryFingerprint(repo) : null,
    base,
    head,
    options.scope,
  ),
): Promise<RevisionChanges> {
  changesCacheStats.hit = false;
  const { file, kept } = await entry;
  if (kept) {
    markPhase('changes cache');
    changesCacheStats.hit = true;
    return kept;
  }
  if (options.linesOnly) return changedLinesOnly(repo, base, head, options.scope);
  const changes = await askGit(repo, base, head, options);
  if (file && !changes.unparsedFiles) writeChanges(file, await withPairFacts(changes, options));
  return changes;
}

/** The changes with the ancestry and the head commit's files, when the caller gave both (see RevisionChanges). */
async function withPairFacts(changes: RevisionChanges, options: ChangesOptions): Promise<RevisionChanges> {
  if (!options.ancestry || !options.headFiles) return changes;
  try {
    const [baseIsAncestor, headFiles] = await Promise.all([options.ancestry, options.headFiles]);
    return { ...changes, baseIsAncestor, headFiles };
  } catch {
    return changes;
  }
}

async function changedLinesOnly(repo: string, base: string, head: string, scope?: string): Promise<RevisionChanges> {
  const changed = await diff(repo, base, head, scope);
  markPhase('diff');
  return { base, head, changed, headMethods: new Map(), changedMethods: [], authors: [], blamedFiles: 0 };
}

async function askGit(repo: string, base: string, head: string, options: ChangesOptions): Promise<RevisionChanges> {
  // Ancestry and the range's authors are asked alongside the diff; only blame needs them.
  const history = Promise.all([options.ancestry ?? isAncestor(repo, base, head), rangeHistory(repo, base, head)]);
  history.catch(() => undefined);
  // So is the method cache (reading its index, digesting the extractor's code) while git diffs.
  const cache = openCache(options);
  cache.catch(() => undefined);
  const changed = await diff(repo, base, head, options.scope);
  markPhase('diff');
  const withMethods = changed.filter(
    (f) =>
      f.status !== 'deleted' &&
      !f.binary &&
      (f.lines.length > 0 || f.deletions.length > 0) &&
      languageOfPath(f.path) !== null,
  );
  const methods = await methodsOfChangedFiles(repo, base, head, withMethods, options, cache);
  const changedList = changedMethods(changed, methods);
  markPhase('methods');
  const { authors, blamedFiles } = await authorsOf(repo, base, head, changedList, history);
  markPhase('authors');
  const headMethods = new Map<string, readonly SourceMethod[]>();
  for (const { file } of changedList) if (!headMethods.has(file)) headMethods.set(file, methods.get(file)?.head ?? []);
  const unparsedFiles = withMethods.filter((f) => methods.get(f.path)?.unparsed).map((f) => f.path);
  const changes: RevisionChanges = {
    base,
    head,
    changed,
    headMethods,
    changedMethods: changedList,
    authors,
    blamedFiles,
  };
  return unparsedFiles.length > 0 ? { ...changes, unparsedFiles } : changes;
}

/**
 * Changed files and lines, changed methods and their authors between two revisions. Needs no
 * report, so it can run while the report is parsed.
 */
export async function revisionChanges(
  repo: string,
  baseRef: string,
  headRef: string,
  options: ExtractionOptions = {},
): Promise<RevisionChanges> {
  const [base, head] = (await resolveCommits(repo, [baseRef, headRef])) as [string, string];
  return changesBetweenCommits(repo, base, head, options);
}
