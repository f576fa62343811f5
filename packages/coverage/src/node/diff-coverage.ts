import { availableParallelism } from 'node:os';
import type { ChangedFile } from '../diff/unified.ts';
import { type DiffLineCoverage, diffLineCoverage } from '../figures/diff-lines.ts';
import {
  type ChangedMethod,
  changedMethods,
  type FileMethods,
  type IncrementalCoverage,
  incrementalCoverage,
} from '../figures/incremental.ts';
import { loadLanguage } from '../methods/grammars.ts';
import { languageOfPath } from '../methods/language.ts';
import type { Coverage } from '../model/coverage.ts';
import { blameLines, methodAuthor } from './blame.ts';
import { diff, isAncestor, rangeAuthors, resolveCommits } from './git.ts';
import { MethodCache } from './method-cache.ts';
import { type ExtractionJob, extractionKey } from './method-extraction.ts';
import { type ExtractionWorkers, extractAll } from './method-pool.ts';
import { readBlobsAtRevisions } from './revision-source.ts';

export interface ChangedFileCoverage extends DiffLineCoverage {
  path: string;
  status: ChangedFile['status'];
}

export interface DiffCoverage {
  base: string;
  head: string;
  lines: DiffLineCoverage;
  files: ChangedFileCoverage[];
  incremental: IncrementalCoverage;
  /** `name <email>` per changed method, in the order of `incremental.methods`. */
  authors: (string | null)[];
}

/** What the repository says about two revisions, before any report is involved. */
export interface RevisionChanges {
  base: string;
  head: string;
  changed: ChangedFile[];
  methods: Map<string, FileMethods>;
  changedMethods: ChangedMethod[];
  /** `name <email>` per changed method, in the order of `changedMethods`; null without changed lines. */
  authors: (string | null)[];
}

/** Runs `task` over `items` with at most `limit` at a time (git processes are the cost here). */
export async function eachLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const GIT_PROCESSES = Math.max(2, Math.min(8, availableParallelism()));

/** Where methods are found: the worker threads to use and the folder that keeps them between runs. */
export interface ExtractionOptions {
  /** Default 'auto': workers only when there is enough source to repay their start. */
  workers?: ExtractionWorkers;
  /** A folder for `MethodCache`; null or absent keeps nothing. */
  cacheDir?: string | null;
}

/** What the last `changesBetweenCommits` in this process did to find methods (benchmarks print it). */
export const extractionStats = { files: 0, cached: 0, copies: 0, extracted: 0, workers: 0 };

/**
 * Methods of the changed files: all head sources (and base sources, from their old paths) come
 * from one `git cat-file --batch`. Identical copies of a file (vendored or generated trees) are
 * extracted once; extractions kept in the cache are read instead; the rest go to `extractAll`.
 */
async function methodsOf(
  repo: string,
  base: string,
  head: string,
  files: readonly ChangedFile[],
  options: ExtractionOptions,
): Promise<Map<string, FileMethods>> {
  const requests = files.flatMap((f) => [
    { revision: head, path: f.path },
    { revision: base, path: f.oldPath ?? f.path },
  ]);
  const [blobs, cache] = await Promise.all([
    readBlobsAtRevisions(repo, requests),
    options.cacheDir ? MethodCache.open(options.cacheDir) : null,
  ]);
  const methods = new Map<string, FileMethods>();
  const pending = new Map<string, { job: ExtractionJob; paths: string[]; cacheKey: string | null }>();
  const stats = { files: files.length, cached: 0, copies: 0, extracted: 0, workers: 0 };
  for (const [index, file] of files.entries()) {
    const headBlob = blobs[index * 2] ?? null;
    if (headBlob === null) continue;
    const baseBlob = file.status === 'added' ? null : (blobs[index * 2 + 1] ?? null);
    const key = extractionKey(file);
    const same = `${key}\u0000${headBlob.oid ?? headBlob.text}\u0000${baseBlob ? (baseBlob.oid ?? baseBlob.text) : ''}`;
    const copyOf = pending.get(same);
    if (copyOf) {
      copyOf.paths.push(file.path);
      stats.copies++;
      continue;
    }
    const cacheKey = MethodCache.keyOf(key, headBlob.oid, baseBlob?.oid ?? null, baseBlob !== null);
    pending.set(same, {
      job: { file, head: headBlob.text, base: baseBlob?.text ?? null },
      paths: [file.path],
      cacheKey,
    });
  }
  const entries = [...pending.values()];
  const hits = await Promise.all(entries.map((e) => (cache && e.cacheKey ? cache.get(e.cacheKey) : null)));
  const missing = entries.filter((_, i) => hits[i] === null);
  const extracted = await extractAll(
    missing.map((e) => e.job),
    options.workers ?? 'auto',
  );
  const writes: Promise<void>[] = [];
  for (const [i, entry] of entries.entries()) {
    const found = hits[i];
    if (found) {
      stats.cached++;
      for (const path of entry.paths) methods.set(path, found);
    }
  }
  for (const [i, entry] of missing.entries()) {
    const found = extracted.methods[i] as FileMethods;
    for (const path of entry.paths) methods.set(path, found);
    if (cache && entry.cacheKey) writes.push(cache.set(entry.cacheKey, found));
  }
  await Promise.all(writes);
  Object.assign(extractionStats, stats, { extracted: missing.length, workers: extracted.workers });
  return methods;
}

/**
 * The author of each changed method (see `methodAuthor`). When `base` is an ancestor of `head`,
 * every changed line was last written in `base..head`: one author there needs no blame at all, and
 * blame walks no history before `base`.
 */
async function authorsOf(
  repo: string,
  base: string,
  head: string,
  methods: readonly ChangedMethod[],
  history: Promise<[boolean, Set<string>]>,
) {
  const withLines = methods.filter((m) => m.changedLines.length > 0);
  if (withLines.length === 0) return methods.map(() => null);
  const [ancestor, writers] = await history;
  if (ancestor && writers.size === 1) {
    const [only] = writers;
    return methods.map((m) => (m.changedLines.length > 0 ? (only as string) : null));
  }
  const linesByFile = new Map<string, number[]>();
  for (const m of withLines) linesByFile.set(m.file, [...(linesByFile.get(m.file) ?? []), ...m.changedLines]);
  const blamed = new Map(
    await eachLimited([...linesByFile], GIT_PROCESSES, async ([path, lines]) => {
      const found = await blameLines(repo, head, path, lines, ancestor ? base : null);
      return [path, new Map(found.map((l) => [l.line, l]))] as const;
    }),
  );
  return methods.map((m) => {
    const byLine = blamed.get(m.file);
    return methodAuthor(m.changedLines.flatMap((line) => byLine?.get(line) ?? []));
  });
}

/** Changed files and lines, changed methods and their authors between two commits (full shas). */
export async function changesBetweenCommits(
  repo: string,
  base: string,
  head: string,
  options: ExtractionOptions = {},
): Promise<RevisionChanges> {
  // Ancestry and the range's authors are asked alongside the diff; only blame needs them.
  const history = Promise.all([isAncestor(repo, base, head), rangeAuthors(repo, base, head)]);
  history.catch(() => undefined);
  const changed = await diff(repo, base, head);
  const withMethods = changed.filter(
    (f) =>
      f.status !== 'deleted' &&
      !f.binary &&
      (f.lines.length > 0 || f.deletions.length > 0) &&
      languageOfPath(f.path) !== null,
  );
  // Grammars compile while git reads the sources; only the languages of changed files load.
  for (const language of new Set(withMethods.map((f) => languageOfPath(f.path)))) {
    if (language) loadLanguage(language).catch(() => undefined);
  }
  const methods = await methodsOf(repo, base, head, withMethods, options);
  const changedList = changedMethods(changed, methods);
  const authors = await authorsOf(repo, base, head, changedList, history);
  return { base, head, changed, methods, changedMethods: changedList, authors };
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

/** Line -> hits of the report's files that the diff touches (a large report has many others). */
function hitsOfChangedFiles(coverage: Coverage, changed: readonly ChangedFile[]): Map<string, Map<number, number>> {
  const wanted = new Set(changed.map((f) => f.path));
  const hits = new Map<string, Map<number, number>>();
  for (const file of coverage.files) {
    if (wanted.has(file.path)) hits.set(file.path, new Map(file.lines.map((l) => [l.line, l.hits])));
  }
  return hits;
}

/**
 * Diff figures for a report already mapped to repository paths: line diff coverage (diff-cover's
 * definition), per-file line figures, and the changed methods' incremental counters.
 */
export function diffCoverage(changes: RevisionChanges, coverage: Coverage): DiffCoverage {
  const hits = hitsOfChangedFiles(coverage, changes.changed);
  const files = changes.changed
    .filter((f) => f.status !== 'deleted' && !f.binary)
    .map((f) => ({ path: f.path, status: f.status, ...diffLineCoverage([f], hits) }));
  return {
    base: changes.base,
    head: changes.head,
    lines: diffLineCoverage(changes.changed, hits),
    files,
    incremental: incrementalCoverage(changes.changedMethods, coverage, changes.methods),
    authors: changes.authors,
  };
}
