// Worker-thread entry of the method extraction pool (method-pool.ts): one job per message.
import { parentPort } from 'node:worker_threads';
import type { FileMethods } from '../figures/incremental.ts';
import { type ExtractionJob, extractJob } from './method-extraction.ts';

export interface WorkerRequest {
  id: number;
  job: ExtractionJob;
}

export type WorkerAnswer = { id: number; methods: FileMethods } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('method-worker.ts runs as a worker thread');
port.on('message', async ({ id, job }: WorkerRequest) => {
  let answer: WorkerAnswer;
  try {
    answer = { id, methods: await extractJob(job) };
  } catch (error) {
    answer = { id, error: (error as Error).message };
  }
  port.postMessage(answer);
});
