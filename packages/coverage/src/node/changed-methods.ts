import type { ChangedFile } from '../diff/unified.ts';
import type { FileMethods } from '../figures/incremental.ts';
import { loadLanguage } from '../methods/grammars.ts';
import { languageOfPath } from '../methods/language.ts';
import { loadCompiledTokenizer } from './compiled.ts';
import { MethodCache } from './method-cache.ts';
import { type ExtractionJob, extractionKey } from './method-extraction.ts';
import { ExtractionPool, type ExtractionWorkers, type PendingJob, workerCount } from './method-pool.ts';
import { readLazyBlobsAtRevisions } from './revision-source.ts';

/** Where methods are found: the worker threads to use and the folder that keeps them between runs. */
export interface ExtractionOptions {
  /** Default 'auto': workers only when there is enough source to repay their start. */
  workers?: ExtractionWorkers;
  /**
   * With 'auto', fewer changed files than this are parsed in the calling thread (default 8, so a
   * server's event loop stays free; a one-shot process passes ONE_SHOT_WORKERS_FROM_FILES).
   */
  workersFromFiles?: number;
  /** A folder for `MethodCache` and the commit pairs' changes (changes-cache.ts); null or absent keeps nothing. */
  cacheDir?: string | null;
}

/** The method cache of `options`, or null without a folder. */
export function openCache(options: ExtractionOptions): Promise<MethodCache | null> {
  return options.cacheDir ? MethodCache.open(options.cacheDir) : Promise.resolve(null);
}

/** What the last `methodsOfChangedFiles` in this process did (`sextant coverage --verbose` prints it). */
export const extractionStats = {
  files: 0,
  cached: 0,
  copies: 0,
  extracted: 0,
  workers: 0,
  inProcess: 0,
  /** What tokenizes JavaScript and TypeScript for the scanner (see compiled.ts). */
  tokenizer: 'JavaScript' as 'WebAssembly' | 'JavaScript',
};

/** Changed files whose methods are one extraction: the same texts (by object id) and the same changes. */
interface Group {
  file: ChangedFile;
  key: string;
  paths: string[];
  cacheKey: string | null;
  found: FileMethods | null;
}

/**
 * Methods of the changed files. The diff names each file's objects (`--full-index`), so identical
 * copies of a file (vendored or generated trees) are grouped, and kept extractions are read from
 * the cache, before any source is read; the sources of the rest come from one `git cat-file
 * --batch` and go to an `ExtractionPool`, whose workers started meanwhile, each decoded as it is
 * handed out.
 */
export async function methodsOfChangedFiles(
  repo: string,
  base: string,
  head: string,
  files: readonly ChangedFile[],
  options: ExtractionOptions,
  /** The cache already being opened (it needs no diff): by default opened here. */
  opening: Promise<MethodCache | null> = openCache(options),
): Promise<Map<string, FileMethods>> {
  const cache = await opening;
  let copies = 0;
  const groups = new Map<string, Group>();
  const unnamed: Group[] = [];
  for (const file of files) {
    const key = extractionKey(file);
    const headOid = file.objects?.head ?? null;
    const baseOid = file.status === 'added' ? null : (file.objects?.base ?? null);
    const group: Group = { file, key, paths: [file.path], cacheKey: null, found: null };
    if (headOid === null || (file.status !== 'added' && baseOid === null)) {
      unnamed.push(group);
      continue;
    }
    const identity = `${key}\u0000${headOid}\u0000${baseOid ?? ''}`;
    const same = groups.get(identity);
    if (same) {
      same.paths.push(file.path);
      copies++;
      continue;
    }
    group.cacheKey = MethodCache.keyOf(key, headOid, baseOid, baseOid !== null);
    groups.set(identity, group);
  }
  const named = [...groups.values()];
  if (cache) {
    const kept = await cache.getAll(named.map((g) => g.cacheKey as string));
    for (const [index, group] of named.entries()) group.found = kept[index] ?? null;
  }
  const misses = [...named.filter((g) => g.found === null), ...unnamed];
  // Workers start, and grammars load, while git reads the sources. JavaScript's and TypeScript's
  // grammars load only for a file the scanner hands over to tree-sitter.
  const languages = [...new Set(misses.map((g) => languageOfPath(g.file.path)))].filter(
    (l) => l !== null && l !== 'javascript' && l !== 'typescript',
  );
  const wanted = options.workers ?? 'auto';
  const pool = ExtractionPool.start(
    workerCount(misses.length, wanted, options.workersFromFiles),
    languages,
    wanted === 'auto',
  );
  if (pool.helpsInProcess) for (const language of languages) loadLanguage(language).catch(() => undefined);
  let blobs: Awaited<ReturnType<typeof readLazyBlobsAtRevisions>>;
  try {
    blobs = await readLazyBlobsAtRevisions(
      repo,
      misses.flatMap(({ file }) => [
        { revision: head, path: file.path, object: file.objects?.head },
        { revision: base, path: file.oldPath ?? file.path, object: file.objects?.base },
      ]),
    );
  } catch (error) {
    await pool.close();
    throw error;
  }
  const jobs: PendingJob[] = [];
  const extracting: Group[] = [];
  for (const [index, group] of misses.entries()) {
    const headBlob = blobs[index * 2] ?? null;
    if (headBlob === null) continue;
    const baseBlob = group.file.status === 'added' ? null : (blobs[index * 2 + 1] ?? null);
    group.cacheKey ??= MethodCache.keyOf(group.key, headBlob.oid, baseBlob?.oid ?? null, baseBlob !== null);
    jobs.push({
      bytes: headBlob.bytes + (baseBlob?.bytes ?? 0),
      make: (): ExtractionJob => ({ file: group.file, head: headBlob.text(), base: baseBlob?.text() ?? null }),
    });
    extracting.push(group);
  }
  const extracted = await pool.run(jobs);
  const fresh: [string, FileMethods][] = [];
  for (const [index, group] of extracting.entries()) {
    group.found = extracted.methods[index] as FileMethods;
    // Whether a parse outlasts its budget depends on the machine and its load: not kept.
    if (group.cacheKey && !group.found.unparsed) fresh.push([group.cacheKey, group.found]);
  }
  await cache?.setAll(fresh);
  const methods = new Map<string, FileMethods>();
  for (const group of [...named, ...unnamed]) {
    if (group.found) for (const path of group.paths) methods.set(path, group.found);
  }
  const cached = named.length - (misses.length - unnamed.length);
  Object.assign(extractionStats, {
    files: files.length,
    cached,
    copies,
    extracted: jobs.length,
    workers: extracted.workers,
    inProcess: extracted.inProcess,
    // Each thread loads the same file, so this thread's answer is theirs.
    tokenizer: loadCompiledTokenizer() ? 'WebAssembly' : 'JavaScript',
  });
  return methods;
}
