// Worker-thread entry of the method extraction pool (method-pool.ts): one job per message.
import { parentPort, workerData } from 'node:worker_threads';
import type { FileMethods } from '../figures/incremental.ts';
import { loadLanguage } from '../methods/grammars.ts';
import type { SourceLanguage } from '../methods/types.ts';
import { type ExtractionJob, extractJob } from './method-extraction.ts';

export interface WorkerRequest {
  id: number;
  job: ExtractionJob;
}

export type WorkerAnswer = { id: number; methods: FileMethods } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('method-worker.ts runs as a worker thread');
// The grammars load while the caller still reads the sources; a failure shows on the first job.
for (const language of (workerData as { languages?: SourceLanguage[] } | null)?.languages ?? []) {
  loadLanguage(language).catch(() => undefined);
}
port.on('message', async ({ id, job }: WorkerRequest) => {
  let answer: WorkerAnswer;
  try {
    answer = { id, methods: await extractJob(job) };
  } catch (error) {
    answer = { id, error: (error as Error).message };
  }
  port.postMessage(answer);
});
