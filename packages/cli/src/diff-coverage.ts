import {
  type ChangedFile,
  type ChangedMethod,
  type Coverage,
  changedMethods,
  type DiffLineCoverage,
  diffLineCoverage,
  extractMethodsOfPath,
  type FileMethods,
  type IncrementalCoverage,
  incrementalCoverage,
  languageOfPath,
} from '@sextant/coverage';
import { blameLines, diff, methodAuthor, resolveCommit } from '@sextant/coverage/node';
import { readFilesAtRevisions } from './revision-source.ts';

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

/** Runs `task` over `items` with at most `limit` at a time (git processes are the cost here). */
async function eachLimited<T, R>(
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

function hitsByFile(coverage: Coverage): Map<string, Map<number, number>> {
  return new Map(coverage.files.map((f) => [f.path, new Map(f.lines.map((l) => [l.line, l.hits]))]));
}

/** Methods of each changed file at head and (from its old path) at base: one git process for all sources. */
async function methodsOf(
  repo: string,
  base: string,
  head: string,
  files: readonly ChangedFile[],
): Promise<FileMethods[]> {
  const requests = files.flatMap((f) => [
    { revision: head, path: f.path },
    { revision: base, path: f.oldPath ?? f.path },
  ]);
  const sources = await readFilesAtRevisions(repo, requests);
  return eachLimited(files, 8, async (file, index) => {
    const i = index * 2;
    const headSource = sources[i] ?? null;
    const baseSource = file.status === 'added' ? null : (sources[i + 1] ?? null);
    return {
      head: headSource === null ? [] : await extractMethodsOfPath(file.path, headSource),
      base: baseSource === null ? [] : await extractMethodsOfPath(file.oldPath ?? file.path, baseSource),
    };
  });
}

/** What the repository says about two revisions, before any report is involved. */
export interface RevisionChanges {
  base: string;
  head: string;
  changed: ChangedFile[];
  methods: Map<string, FileMethods>;
  changedMethods: ChangedMethod[];
  /** `name <email>` per changed method, in the order of `changedMethods`. */
  authors: (string | null)[];
}

/**
 * Changed files and lines, changed methods and their authors between two revisions. Needs no
 * report, so it runs while the report is parsed.
 */
export async function revisionChanges(repo: string, baseRef: string, headRef: string): Promise<RevisionChanges> {
  // diff() resolves the refs itself; resolving them alongside keeps the git calls off one chain.
  const [base, head, changed] = await Promise.all([
    resolveCommit(repo, baseRef),
    resolveCommit(repo, headRef),
    diff(repo, baseRef, headRef),
  ]);
  const withMethods = changed.filter(
    (f) => f.status !== 'deleted' && !f.binary && f.lines.length > 0 && languageOfPath(f.path) !== null,
  );
  const found = await methodsOf(repo, base, head, withMethods);
  const methods = new Map(withMethods.map((f, i) => [f.path, found[i] as FileMethods]));
  const changedList = changedMethods(changed, methods);

  const linesByFile = new Map<string, number[]>();
  for (const m of changedList) linesByFile.set(m.file, [...(linesByFile.get(m.file) ?? []), ...m.changedLines]);
  const blamed = new Map(
    await eachLimited([...linesByFile], 8, async ([path, lines]) => {
      const byLine = new Map((await blameLines(repo, head, path, lines)).map((l) => [l.line, l]));
      return [path, byLine] as const;
    }),
  );
  const authors = changedList.map((m) => {
    const byLine = blamed.get(m.file);
    return methodAuthor(m.changedLines.flatMap((line) => byLine?.get(line) ?? []));
  });
  return { base, head, changed, methods, changedMethods: changedList, authors };
}

/**
 * Diff figures for a report already mapped to repository paths: line diff coverage (diff-cover's
 * definition), per-file line figures, and the changed methods' incremental counters.
 */
export function diffCoverage(changes: RevisionChanges, coverage: Coverage): DiffCoverage {
  const hits = hitsByFile(coverage);
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
