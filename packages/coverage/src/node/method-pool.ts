import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { FileMethods } from '../figures/incremental.ts';
import type { SourceLanguage } from '../methods/types.ts';
import { nodeWorkerThreads } from './builtins.ts';
import { type ExtractionJob, extractJob } from './method-extraction.ts';
import type { WorkerAnswer, WorkerRequest } from './method-worker.ts';

/** How many worker threads parse sources: 0 keeps it in-process, 'auto' decides by the number of files. */
export type ExtractionWorkers = number | 'auto';

const MAX_WORKERS = 4;
/** Jobs sent ahead to each worker, so it never waits for the calling thread between two files. */
const IN_FLIGHT = 2;
/**
 * Fewer files than this run in-process by default: workers would not finish starting before
 * they are done. A server's event loop stays free for anything more.
 */
const WORKERS_FROM_FILES = 8;
/**
 * Where the calling thread has nothing else to do (the CLI), fewer files than this parse faster
 * in it. A worker's own start, and the copies of every text sent to it, cost more than it gains
 * until there is a lot to parse: on two cores, cold runs of the ECharts bench were faster
 * in-process with 302 files to extract (6 MB of source, 516 against 555 ms, 21 alternating
 * runs) and 906 (19 MB, 839 against 871 ms), slower with 2,114 (44 MB, 1.75 against 1.60 s); even
 * on a few hundred Java files (tree-sitter, slower per byte) a worker gained nothing (313 files,
 * 1.13 against 1.11 s).
 */
export const ONE_SHOT_WORKERS_FROM_FILES = 1000;
/**
 * Less source than this (bytes) a lone worker parses faster without the calling thread's
 * help, on two cores: both threads would spend it warming V8 up, and V8's background compiler
 * threads, which make the parsing code fast, would find no core free. Measured on the ECharts
 * bench: 6 MB of sources 5% faster alone, 44 MB 6% slower.
 */
const LONE_WORKER_BELOW = 16 * 1024 * 1024;

/** Whether the calling thread, willing to, parses beside `workers` threads `source` bytes in all. */
export function callerHelps(workers: number, source: number): boolean {
  return workers !== 1 || source >= LONE_WORKER_BELOW;
}

/**
 * Worker threads for a number of files: for 'auto', one fewer than the cores (the calling thread
 * parses too), none below `fromFiles` files or on a single core.
 */
export function workerCount(files: number, wanted: ExtractionWorkers, fromFiles = WORKERS_FROM_FILES): number {
  if (wanted !== 'auto') return Math.max(0, Math.min(wanted, files));
  if (files < fromFiles) return 0;
  return Math.min(availableParallelism(), MAX_WORKERS) - 1;
}

/** tsx's ES module API from this package (require.resolve finds its CommonJS twin beside it). */
function tsxApi(from: string): string {
  try {
    const module = createRequire(from)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs');
    if (existsSync(module)) return pathToFileURL(module).href;
  } catch {
    // Resolved from the working directory below.
  }
  return 'tsx/esm/api';
}

/**
 * A worker running method-worker: the bundled `.mjs` beside a built CLI, or from source (the
 * server and tests run TypeScript through tsx, which the worker registers for itself).
 */
function startWorker(languages: readonly SourceLanguage[]): Worker {
  const here = import.meta.url;
  const workerData = { languages };
  const { Worker } = nodeWorkerThreads();
  if (!here.endsWith('.ts')) return new Worker(new URL('./method-worker.mjs', here), { workerData });
  const target = JSON.stringify(new URL('./method-worker.ts', here).href);
  const tsx = JSON.stringify(tsxApi(here));
  return new Worker(`import(${tsx}).then((tsx) => { tsx.register(); return import(${target}); })`, {
    eval: true,
    workerData,
  });
}

/**
 * A job whose texts are decoded as it is handed out (see readLazyBlobsAtRevisions): a worker gets
 * its first file while the calling thread has yet to decode the rest.
 */
export interface PendingJob {
  /** Its texts' size in bytes: the biggest jobs go to the workers first. */
  bytes: number;
  make(): ExtractionJob;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Worker threads for method extraction, started before the sources are read (they load
 * tree-sitter and the given languages' grammars meanwhile). With `helpsInProcess` the calling thread
 * parses too, taking the smallest files and yielding between them, unless a lone worker is better
 * off alone (`LONE_WORKER_BELOW`).
 */
export class ExtractionPool {
  private constructor(
    private readonly workers: Worker[],
    /** Whether the calling thread parses too (then its grammars are worth loading early). */
    readonly helpsInProcess: boolean,
  ) {}

  static start(count: number, languages: readonly SourceLanguage[], helpsInProcess: boolean): ExtractionPool {
    return new ExtractionPool(
      Array.from({ length: count }, () => startWorker(languages)),
      helpsInProcess || count === 0,
    );
  }

  /**
   * Methods of each job, in order: biggest files first to the workers, `IN_FLIGHT` jobs ahead each.
   * A job that fails fails the whole. A worker that dies (or cannot start) hands its jobs back, and
   * what no worker is left for runs in-process. Stops the workers.
   */
  async run(jobs: readonly PendingJob[]): Promise<{ methods: FileMethods[]; workers: number; inProcess: number }> {
    const methods: FileMethods[] = new Array(jobs.length);
    const job = (index: number) => (jobs[index] as PendingJob).make();
    const queue = jobs.map((_, index) => index).sort((a, b) => (jobs[b]?.bytes ?? 0) - (jobs[a]?.bytes ?? 0));
    let failure: Error | null = null;
    const answered = new Set<Worker>();
    const source = jobs.reduce((sum, pending) => sum + pending.bytes, 0);
    const helps = this.helpsInProcess && callerHelps(this.workers.length, source);
    let inProcess = 0;
    const lanes = this.workers.map((worker) => {
      const pending = new Set<number>();
      let finish: () => void = () => undefined;
      const done = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const send = () => {
        const index = failure ? undefined : queue.shift();
        if (index === undefined) return;
        pending.add(index);
        worker.postMessage({ id: index, job: job(index) } satisfies WorkerRequest);
      };
      worker.on('message', (answer: WorkerAnswer) => {
        answered.add(worker);
        pending.delete(answer.id);
        if ('error' in answer) failure ??= new Error(answer.error);
        else methods[answer.id] = answer.methods;
        send();
        if (pending.size === 0) finish();
      });
      const lost = () => {
        queue.unshift(...pending);
        pending.clear();
        finish();
      };
      worker.on('error', lost);
      worker.on('exit', lost);
      return { send, pending, finish, done };
    });
    // Round by round, so every worker has work before any gets a second file.
    for (let round = 0; round < IN_FLIGHT; round++) for (const lane of lanes) lane.send();
    for (const lane of lanes) if (lane.pending.size === 0) lane.finish();
    const ownLane = async () => {
      while (helps && !failure && queue.length > 0) {
        const index = queue.pop() as number;
        inProcess++;
        try {
          methods[index] = await extractJob(job(index));
        } catch (error) {
          failure ??= error as Error;
        }
        if (lanes.length > 0) await nextTurn();
      }
    };
    try {
      await Promise.all([...lanes.map((lane) => lane.done), ownLane()]);
    } finally {
      await this.close();
    }
    if (failure) throw failure;
    for (const index of queue) methods[index] = await extractJob(job(index));
    return { methods, workers: answered.size, inProcess: inProcess + queue.length };
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}
