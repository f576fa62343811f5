import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileMethods } from '../figures/incremental.ts';
import { type ExtractionJob, extractJob } from './method-extraction.ts';
import type { WorkerAnswer, WorkerRequest } from './method-worker.ts';

/** How many worker threads parse sources: 0 keeps it in-process, 'auto' decides by the work's size. */
export type ExtractionWorkers = number | 'auto';

/** Below this much source, starting workers (each loads tree-sitter and a grammar) costs more than it saves. */
const WORKER_THRESHOLD_BYTES = 256 * 1024;
const MAX_WORKERS = 4;

const sizeOf = (job: ExtractionJob) => job.head.length + (job.base?.length ?? 0);

function workerCount(jobs: readonly ExtractionJob[], wanted: ExtractionWorkers): number {
  if (wanted !== 'auto') return Math.max(0, Math.min(wanted, jobs.length));
  const bytes = jobs.reduce((sum, job) => sum + sizeOf(job), 0);
  if (jobs.length < 2 || bytes < WORKER_THRESHOLD_BYTES) return 0;
  return Math.min(availableParallelism(), MAX_WORKERS, jobs.length);
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
function startWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./method-worker.mjs', here));
  const target = JSON.stringify(new URL('./method-worker.ts', here).href);
  const tsx = JSON.stringify(tsxApi(here));
  return new Worker(`import(${tsx}).then((tsx) => { tsx.register(); return import(${target}); })`, {
    eval: true,
  });
}

async function inProcess(jobs: readonly ExtractionJob[]): Promise<FileMethods[]> {
  const results: FileMethods[] = [];
  for (const job of jobs) results.push(await extractJob(job));
  return results;
}

/**
 * Methods of each job, in order. Large work is spread over worker threads, biggest files first,
 * one job at a time per worker; a job that fails fails the whole. A worker that dies (or cannot
 * start) hands its job back, and what no worker is left for runs in-process.
 */
export async function extractAll(
  jobs: readonly ExtractionJob[],
  wanted: ExtractionWorkers = 'auto',
): Promise<{ methods: FileMethods[] /** Worker threads that answered at least one job. */; workers: number }> {
  const count = workerCount(jobs, wanted);
  if (count === 0) return { methods: await inProcess(jobs), workers: 0 };
  const methods: FileMethods[] = new Array(jobs.length);
  const queue = jobs
    .map((_, index) => index)
    .sort((a, b) => sizeOf(jobs[b] as ExtractionJob) - sizeOf(jobs[a] as ExtractionJob));
  const workers = Array.from({ length: count }, startWorker);
  let failure: Error | null = null;
  const answered = new Set<Worker>();
  const serve = (worker: Worker) =>
    new Promise<void>((resolve) => {
      let current = -1;
      const next = () => {
        current = failure ? -1 : (queue.shift() ?? -1);
        if (current === -1) return resolve();
        worker.postMessage({ id: current, job: jobs[current] as ExtractionJob } satisfies WorkerRequest);
      };
      worker.on('message', (answer: WorkerAnswer) => {
        answered.add(worker);
        if ('error' in answer) failure ??= new Error(answer.error);
        else methods[answer.id] = answer.methods;
        next();
      });
      const lost = () => {
        if (current !== -1) queue.unshift(current);
        current = -1;
        resolve();
      };
      worker.on('error', lost);
      worker.on('exit', lost);
      next();
    });
  try {
    await Promise.all(workers.map(serve));
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  if (failure) throw failure;
  for (const index of queue) methods[index] = await extractJob(jobs[index] as ExtractionJob);
  return { methods, workers: answered.size };
}
