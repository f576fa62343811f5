import { createRequire } from 'node:module';

/**
 * Node modules a `sextant coverage` run may never use, loaded on first use: starting one costs
 * 1.5–4.5 ms (node:crypto loads twenty modules of its own), and a `--lines-only --no-cache` run
 * hashes nothing, nor does a run below the worker threshold start a worker.
 */
const load = createRequire(import.meta.url);

let crypto: typeof import('node:crypto') | null = null;
let workerThreads: typeof import('node:worker_threads') | null = null;

export function nodeCrypto(): typeof import('node:crypto') {
  crypto ??= load('node:crypto') as typeof import('node:crypto');
  return crypto;
}

export function nodeWorkerThreads(): typeof import('node:worker_threads') {
  workerThreads ??= load('node:worker_threads') as typeof import('node:worker_threads');
  return workerThreads;
}

/** Milliseconds from an arbitrary start, without the `performance` global (loading it starts ten modules). */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
