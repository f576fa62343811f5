import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChangedFile } from '../diff/unified.ts';
import { changedMethods, type FileMethods } from '../figures/incremental.ts';
import { extractMethodsOfRevisions } from '../methods/two-revisions.ts';
import { extractionStats } from './changed-methods.ts';
import { diff } from './git.ts';
import { MethodCache } from './method-cache.ts';
import { extractJob, touchedBy } from './method-extraction.ts';
import { callerHelps, ONE_SHOT_WORKERS_FROM_FILES, workerCount } from './method-pool.ts';
import { changesBetweenCommits } from './revision-changes.ts';
import { readFilesAtRevisions } from './revision-source.ts';

const repo = mkdtempSync(join(tmpdir(), 'sextant-extraction-'));
const cacheRoot = mkdtempSync(join(tmpdir(), 'sextant-method-cache-'));
afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(cacheRoot, { recursive: true, force: true });
});

const git = (...args: string[]) =>
  execFileSync('git', ['-C', repo, '-c', 'user.name=Ann', '-c', 'user.email=ann@x.test', ...args], {
    encoding: 'utf8',
  }).trim();

function commit(files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  git('add', '-A');
  git('commit', '-qm', 'change');
  return git('rev-parse', 'HEAD');
}

const testdata = new URL('../methods/testdata/', import.meta.url);
const java = readFileSync(new URL('Ledger.java', testdata), 'utf8');
const script = (n: number, step: number) =>
  Array.from(
    { length: 12 },
    (_, i) => `export function f${n}_${i}(x) {\n  const y = x * ${i};\n  return y + ${i % 3 === 0 ? step : 1};\n}\n`,
  ).join('\n');
const python = (step: number) => `class Calc:\n    def add(self, x):\n        return x + ${step}\n`;

git('init', '-q');
const files = (step: number) => ({
  ...Object.fromEntries(Array.from({ length: 6 }, (_, n) => [`src/m${n}.js`, script(n, step)])),
  // Two copies of src/m0.js: the three are extracted once.
  'vendor/a/m0.js': script(0, step),
  'vendor/b/m0.js': script(0, step),
  'calc.py': python(step),
  'src/main/java/Ledger.java': step === 1 ? java : java.replace('return', 'return /* changed */'),
});
const base = commit(files(1));
const head = commit(files(2));

/** Drops the kept commit-pair changes (changes-cache.ts), so that a run reads the method cache. */
const forgetChanges = () => rmSync(join(cacheRoot, 'changes'), { recursive: true, force: true });
const methodFolders = () => readdirSync(cacheRoot).filter((name) => name.startsWith('methods-'));

describe('finding the changed files’ methods', () => {
  it('gives the same methods in worker threads as in-process, and uses the threads', async () => {
    const inProcess = await changesBetweenCommits(repo, base, head, { workers: 0 });
    expect(extractionStats.workers).toBe(0);
    expect(extractionStats.inProcess).toBe(extractionStats.extracted);
    expect(inProcess.changedMethods.length).toBeGreaterThan(20);
    const threaded = await changesBetweenCommits(repo, base, head, { workers: 2 });
    expect(extractionStats).toMatchObject({ workers: 2, copies: 2, cached: 0, inProcess: 0 });
    expect(threaded).toEqual(inProcess);
  });

  it('auto: from 8 files, workers beside the calling thread give the in-process methods', async () => {
    const inProcess = await changesBetweenCommits(repo, base, head, { workers: 0 });
    const auto = await changesBetweenCommits(repo, base, head, { workers: 'auto' });
    expect(extractionStats.extracted).toBe(8);
    expect(extractionStats.workers).toBeLessThanOrEqual(Math.min(availableParallelism(), 4) - 1);
    expect(auto).toEqual(inProcess);
  });

  it('auto for a one-shot process: files below the threshold are parsed in-process, alike', async () => {
    const threaded = await changesBetweenCommits(repo, base, head, { workers: 2 });
    const oneShot = { workers: 'auto', workersFromFiles: ONE_SHOT_WORKERS_FROM_FILES } as const;
    const auto = await changesBetweenCommits(repo, base, head, oneShot);
    expect(extractionStats).toMatchObject({ extracted: 8, workers: 0, inProcess: 8 });
    expect(auto).toEqual(threaded);
  });

  it('auto: one worker fewer than the cores (at most 4 threads in all) from the threshold on', () => {
    const workers = Math.min(availableParallelism(), 4) - 1;
    expect([workerCount(7, 'auto'), workerCount(8, 'auto')]).toEqual([0, workers]);
    expect(workerCount(999, 'auto', ONE_SHOT_WORKERS_FROM_FILES)).toBe(0);
    expect(workerCount(1000, 'auto', ONE_SHOT_WORKERS_FROM_FILES)).toBe(workers);
    expect(workerCount(5, 2)).toBe(2);
    expect(workerCount(1, 2)).toBe(1);
  });

  it('auto: a lone worker (two cores) parses a few megabytes without the calling thread, more with it', () => {
    expect(callerHelps(1, 6_000_000)).toBe(false);
    expect(callerHelps(1, 44_000_000)).toBe(true);
    expect(callerHelps(2, 6_000_000)).toBe(true);
    expect(callerHelps(0, 100)).toBe(true);
  });

  it('keeps of the base only the methods that changed ones are looked up by, for the same statuses', async () => {
    const file = (await diff(repo, base, head)).find((f) => f.path === 'src/m1.js') as ChangedFile;
    const [now, before] = (await readFilesAtRevisions(repo, [
      { revision: head, path: file.path },
      { revision: base, path: file.path },
    ])) as [string, string];
    const kept = await extractJob({ file, head: now, base: before });
    const whole = { source: before, path: file.path, hunks: file.hunks };
    const all = await extractMethodsOfRevisions(file.path, now, whole, touchedBy(file), () => true);
    expect(all.base).toHaveLength(12);
    expect(kept.base.map((m) => m.name)).toEqual(['f1_0', 'f1_3', 'f1_6', 'f1_9']);
    const statuses = (methods: FileMethods) =>
      changedMethods([file], new Map([[file.path, methods]])).map((m) => [m.name, m.status]);
    expect(statuses(kept)).toEqual(statuses(all));
    expect(statuses(kept)).toEqual(['f1_0', 'f1_3', 'f1_6', 'f1_9'].map((name) => [name, 'modified']));
  });

  it('reads extractions kept in the cache instead of parsing again, with the same result', async () => {
    const fresh = await changesBetweenCommits(repo, base, head, { workers: 0 });
    const first = await changesBetweenCommits(repo, base, head, { workers: 0, cacheDir: cacheRoot });
    const distinct = extractionStats.extracted;
    expect(distinct).toBe(extractionStats.files - extractionStats.copies);
    expect(extractionStats.cached).toBe(0);
    forgetChanges();
    const second = await changesBetweenCommits(repo, base, head, { workers: 0, cacheDir: cacheRoot });
    expect(extractionStats).toMatchObject({ cached: distinct, extracted: 0 });
    expect(first).toEqual(fresh);
    expect(second).toEqual(fresh);
  });

  it('treats a damaged entry or segment and a torn index line as missing, and drops other extractor versions', async () => {
    forgetChanges();
    const [current] = methodFolders();
    const folder = join(cacheRoot, current as string);
    const [segment] = readdirSync(join(folder, 'segments'));
    const segmentPath = join(folder, 'segments', segment as string);
    const entries = JSON.parse(readFileSync(segmentPath, 'utf8')) as Record<string, unknown>;
    const keys = Object.keys(entries);
    writeFileSync(segmentPath, JSON.stringify({ ...entries, [keys[0] as string]: { head: [{ name: 1 }], base: [] } }));
    appendFileSync(join(folder, 'index'), `${keys[1]} tor`);
    mkdirSync(join(cacheRoot, 'methods-0000000000000000'));
    const fresh = await changesBetweenCommits(repo, base, head, { workers: 0 });
    const again = await changesBetweenCommits(repo, base, head, { workers: 0, cacheDir: cacheRoot });
    expect(extractionStats.extracted).toBe(1);
    expect(again).toEqual(fresh);
    expect(methodFolders()).toEqual([current]);
    // The re-extracted entry went into a segment of its own; a cut-off segment loses only its entries.
    expect(readdirSync(join(folder, 'segments'))).toHaveLength(2);
    writeFileSync(segmentPath, readFileSync(segmentPath, 'utf8').slice(0, 100));
    forgetChanges();
    await changesBetweenCommits(repo, base, head, { workers: 0, cacheDir: cacheRoot });
    expect(extractionStats.extracted).toBe(keys.length - 1);
  });
});

describe('the method cache’s size', () => {
  it('keeps the newest segments once a day when there are more entries than its bound', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sextant-cache-bound-'));
    try {
      const entry = { head: [], base: [] };
      const keys = ['a', 'b', 'c', 'd', 'e'].map((k) => MethodCache.keyOf(k, `${k}1`, null, false) as string);
      const cache = await MethodCache.open(root, 3);
      // One segment per key, written one after another.
      for (const key of keys) await cache.setAll([[key, entry]]);
      const [folder] = readdirSync(root);
      const segments = join(root, folder as string, 'segments');
      const byKey = (key: string) => {
        const line = readFileSync(join(root, folder as string, 'index'), 'utf8')
          .split('\n')
          .find((l) => l.startsWith(key));
        return join(segments, `${line?.split(' ')[1]}.json`);
      };
      for (const [i, key] of keys.entries()) utimesSync(byKey(key), 1_000_000 + i, 1_000_000 + i);
      // Pruned less than a day ago (when the cache was opened): nothing goes.
      expect(await (await MethodCache.open(root, 3)).getAll(keys)).toEqual(keys.map(() => entry));
      utimesSync(join(root, folder as string, 'pruned'), 1_000_000, 1_000_000);
      const pruned = await MethodCache.open(root, 3);
      const kept = (await pruned.getAll(keys)).map((found) => found !== null);
      expect(kept).toEqual([false, false, false, true, true]);
      expect(readdirSync(segments)).toHaveLength(2);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
