import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { CoverageError, type CoverageErrorCode, type FormatName } from '@sextant/coverage';
import { readCoverageFile } from '@sextant/coverage/node';
import type { ClassSet } from './class-files.ts';
import { unsafeCoverageText } from './coverage-text.ts';
import { isExecFile, readExecUpload } from './exec-upload.ts';
import { checkAgainstMirror } from './mirror-paths.ts';

/** One received file to parse and check against the app's mirror, as the upload route hands it over. */
export type ParseJob = {
  path: string;
  fileName: string;
  format: FormatName | 'jacoco-exec' | 'auto';
  maxDecompressedBytes: number;
  maxCompressionRatio: { ratio: number; fromBytes: number };
  dataDir: string;
  appId: string;
  commit: string;
  baseDir: string | null;
  /** For JaCoCo execution data: the class lists recorded for the commit (empty for other formats). */
  classSets: ClassSet[];
};

/** What the upload row needs of the report: never the model itself, whose copy would cost the server's thread. */
export type ParsedUpload = {
  format: FormatName | 'jacoco-exec';
  files: number;
  commitSha: string | null;
  unmappedFiles: string[];
};

export type RefusedUpload = {
  code: CoverageErrorCode;
  reason: string;
  format: FormatName | null;
  file: string | null;
  line: number | null;
  column: number | null;
  offset: number | null;
};

export type ParseAnswer =
  | { kind: 'parsed'; upload: ParsedUpload }
  | { kind: 'refused'; error: RefusedUpload }
  | { kind: 'unsafe-text'; detail: string }
  | { kind: 'failed'; message: string };

async function parse(job: ParseJob): Promise<ParseAnswer> {
  try {
    if (job.format === 'jacoco-exec' || (job.format === 'auto' && (await isExecFile(job.path)))) {
      // JaCoCo's execution data (issue 38): probes, turned into figures by the report pipeline.
      const exec = await readExecUpload(job);
      if (exec.unsafe) return { kind: 'unsafe-text', detail: exec.unsafe };
      return {
        kind: 'parsed',
        upload: { format: 'jacoco-exec', files: exec.classes, commitSha: null, unmappedFiles: [] },
      };
    }
    const coverage = await readCoverageFile(job.path, {
      format: job.format,
      fileName: job.fileName,
      maxDecompressedBytes: job.maxDecompressedBytes,
      maxCompressionRatio: job.maxCompressionRatio,
    });
    const unsafe = unsafeCoverageText(coverage);
    if (unsafe) return { kind: 'unsafe-text', detail: unsafe };
    const mirror = await checkAgainstMirror(job.dataDir, job.appId, job.commit, coverage, job.baseDir);
    return { kind: 'parsed', upload: { format: coverage.format, files: coverage.files.length, ...mirror } };
  } catch (error) {
    if (error instanceof CoverageError) {
      const { code, reason, format, file, line, column, offset } = error;
      return { kind: 'refused', error: { code, reason, format, file, line, column, offset } };
    }
    return { kind: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

/** A parse's answer and this thread's heap after it, which tells the pool whether to keep the thread. */
export type ParseReply = { answer: ParseAnswer; heapBytes: number };

parentPort?.on('message', async (job: ParseJob) => {
  const answer = await parse(job);
  parentPort?.postMessage({ answer, heapBytes: getHeapStatistics().total_heap_size } satisfies ParseReply);
});
