import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CoverageError } from '@sextant/coverage';
import { unsafeCoverageTextError } from './coverage-text.ts';
import type { ParsedUpload, ParseJob, ParseReply } from './parse-worker.ts';

/** An idle parser thread ends after this long, giving back its heap; the next upload starts another. */
const IDLE_MS = 60_000;
/**
 * A thread whose heap grew beyond this while parsing ends at once instead of idling: a 66 MB JaCoCo
 * report leaves ~150 MB of heap that V8 keeps, held while the report pipeline that follows the upload
 * parses it again (issue 41: peak RSS). Starting a thread costs far less than such a parse.
 */
const KEPT_HEAP_BYTES = 64 * 2 ** 20;

/** tsx's ES module API, by absolute path: an eval'd worker resolves bare names from the working directory. */
function tsxApi(): string {
  const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
  return pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href;
}

/**
 * Worker threads that parse coverage uploads, so that a large or hostile report never holds the
 * server's event loop (issue 32, finding 2): at most `size` at once, the others waiting in turn,
 * each thread's heap capped at `memoryMb`. A thread that runs out of memory is ended by V8; its
 * upload is refused as too large and the next one gets a new thread.
 */
export class UploadParsers {
  private readonly idle: Worker[] = [];
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private readonly timers = new Map<Worker, NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly memoryMb: number,
  ) {}

  async parse(job: ParseJob): Promise<ParsedUpload> {
    // A finished parse hands its place straight to the next one waiting, so none slips in between.
    if (this.running < this.size) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await this.runOn(this.idle.pop() ?? this.start(), job);
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()));
  }

  private start(): Worker {
    const target = JSON.stringify(new URL('./parse-worker.ts', import.meta.url).href);
    const worker = new Worker(
      `import(${JSON.stringify(tsxApi())}).then((tsx) => { tsx.register(); return import(${target}); })`,
      { eval: true, resourceLimits: { maxOldGenerationSizeMb: this.memoryMb } },
    );
    worker.unref();
    // A thread that fails between two uploads is only forgotten; one that fails during an upload refuses it.
    const forget = () => this.forget(worker);
    worker.on('error', forget);
    worker.on('exit', forget);
    return worker;
  }

  private runOn(worker: Worker, job: ParseJob): Promise<ParsedUpload> {
    this.forget(worker);
    return new Promise<ParsedUpload>((resolve, reject) => {
      const settle = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onMessage = ({ answer, heapBytes }: ParseReply) => {
        settle();
        if (heapBytes > KEPT_HEAP_BYTES) void worker.terminate();
        else this.release(worker);
        if (answer.kind === 'parsed') return resolve(answer.upload);
        if (answer.kind === 'failed') return reject(new Error(`parsing an upload failed: ${answer.message}`));
        if (answer.kind === 'unsafe-text') return reject(unsafeCoverageTextError(answer.detail));
        const { code, reason, ...details } = answer.error;
        reject(new CoverageError(code, reason, details));
      };
      const onError = (error: Error & { code?: string }) => {
        settle();
        void worker.terminate();
        if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          const reason = `parsing it needs more than the ${this.memoryMb} MB of memory an upload may use`;
          return reject(new CoverageError('too-large', reason, { file: job.fileName }));
        }
        reject(error);
      };
      const onExit = (code: number) => {
        settle();
        reject(new Error(`the upload parser thread ended (exit code ${code})`));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(job);
    });
  }

  private forget(worker: Worker): void {
    clearTimeout(this.timers.get(worker));
    this.timers.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at !== -1) this.idle.splice(at, 1);
  }

  /** Back to the idle threads, ended after `IDLE_MS` without work. */
  private release(worker: Worker): void {
    if (this.closed) {
      void worker.terminate();
      return;
    }
    this.idle.push(worker);
    const timer = setTimeout(() => {
      this.forget(worker);
      void worker.terminate();
    }, IDLE_MS);
    timer.unref();
    this.timers.set(worker, timer);
  }
}
