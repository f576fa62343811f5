import {
  type ChangedFile,
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
import { readFileAtRevision } from './revision-source.ts';

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
async function eachLimited<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function hitsByFile(coverage: Coverage): Map<string, Map<number, number>> {
  return new Map(coverage.files.map((f) => [f.path, new Map(f.lines.map((l) => [l.line, l.hits]))]));
}

async function methodsOf(repo: string, base: string, head: string, file: ChangedFile): Promise<FileMethods> {
  const headSource = await readFileAtRevision(repo, head, file.path);
  const baseSource = file.status === 'added' ? null : await readFileAtRevision(repo, base, file.oldPath ?? file.path);
  return {
    head: headSource === null ? [] : await extractMethodsOfPath(file.path, headSource),
    base: baseSource === null ? [] : await extractMethodsOfPath(file.oldPath ?? file.path, baseSource),
  };
}

/**
 * Diff figures between two revisions for a report already mapped to repository paths: line diff
 * coverage (diff-cover's definition), changed methods with incremental counters, and authors.
 */
export async function diffCoverage(
  repo: string,
  coverage: Coverage,
  baseRef: string,
  headRef: string,
): Promise<DiffCoverage> {
  const base = await resolveCommit(repo, baseRef);
  const head = await resolveCommit(repo, headRef);
  const changed = await diff(repo, base, head);
  const hits = hitsByFile(coverage);
  const files = changed
    .filter((f) => f.status !== 'deleted' && !f.binary)
    .map((f) => ({ path: f.path, status: f.status, ...diffLineCoverage([f], hits) }));

  const withMethods = changed.filter(
    (f) => f.status !== 'deleted' && !f.binary && f.lines.length > 0 && languageOfPath(f.path) !== null,
  );
  const found = await eachLimited(withMethods, 8, (f) => methodsOf(repo, base, head, f));
  const methods = new Map(withMethods.map((f, i) => [f.path, found[i] as FileMethods]));
  const incremental = incrementalCoverage(changedMethods(changed, methods), coverage, methods);

  const byFile = new Map<string, number[]>();
  for (const m of incremental.methods) byFile.set(m.file, [...(byFile.get(m.file) ?? []), ...m.changedLines]);
  const blamed = new Map(
    await eachLimited(
      [...byFile],
      8,
      async ([path, lines]) => [path, await blameLines(repo, head, path, lines)] as const,
    ),
  );
  const authors = incremental.methods.map((m) => {
    const lines = (blamed.get(m.file) ?? []).filter((l) => m.changedLines.includes(l.line));
    return methodAuthor(lines);
  });
  return { base, head, lines: diffLineCoverage(changed, hits), files, incremental, authors };
}
