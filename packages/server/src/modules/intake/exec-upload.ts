import { open } from 'node:fs/promises';
import { constants, gunzipSync } from 'node:zlib';
import { MAX_TEXT_FIELD_LENGTH, unsafeTextReason } from '@sextant/api';
import { CoverageError, type ExecData, isJacocoExec, mergeExecData, parseJacocoExec } from '@sextant/coverage';
import { readBoundedFile } from '@sextant/coverage/node';
import { type ClassSet, classIdsByName } from './class-files.ts';

/** Whether a received file (gzipped or not) begins as JaCoCo execution data: 0x01 0xC0 0xC0. */
export async function isExecFile(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    let bytes = head.subarray(0, bytesRead);
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      try {
        bytes = gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH });
      } catch {
        return false;
      }
    }
    return isJacocoExec(bytes);
  } finally {
    await file.close();
  }
}

/**
 * Issue 38: checks execution data against the class files recorded for the commit, when some are.
 * A class the lists name whose id the data does not carry is another build of it: its probes
 * would be read against the wrong bytecode, so the data is refused. Classes the lists do not name
 * (libraries the agent instrumented too) are not judged: JaCoCo's report leaves them out.
 */
export function foreignClassesReason(data: ExecData, byName: ReturnType<typeof classIdsByName>): string | null {
  const foreign = data.classes.filter((c) => {
    const builds = byName.get(c.name);
    return builds !== undefined && !builds.some((b) => b.classId === c.id);
  });
  if (foreign.length === 0) return null;
  const first = foreign[0] as ExecData['classes'][number];
  const stored = (byName.get(first.name) ?? []).map((b) => b.classId).join(' or ');
  const more = foreign.length > 1 ? ` (and ${foreign.length - 1} more class(es))` : '';
  return (
    `${first.name} has class id ${first.id} in the execution data but ${stored} in the class files stored for ` +
    `the commit${more}: the data comes from another build`
  );
}

export type ExecJob = {
  path: string;
  fileName: string;
  maxDecompressedBytes: number;
  maxCompressionRatio: { ratio: number; fromBytes: number };
  commit: string;
  /** The class lists recorded for the commit, read by the caller wherever they are kept. */
  classSets: ClassSet[];
};

/** Reads an exec upload: whole, bounded, checked in itself (one class, one probe count) and against the commit's classes. */
export async function readExecUpload(job: ExecJob): Promise<{ classes: number; unsafe: string | null }> {
  const bytes = await readBoundedFile(job.path, {
    maxBytes: job.maxDecompressedBytes,
    maxRatio: job.maxCompressionRatio,
  });
  const data = mergeExecData([parseJacocoExec(bytes, job.fileName)]);
  for (const text of [...data.sessions.map((s) => s.id), ...data.classes.map((c) => c.name)]) {
    const reason = unsafeTextReason(text, { multiline: false, maxLength: MAX_TEXT_FIELD_LENGTH });
    if (reason) return { classes: 0, unsafe: `${JSON.stringify(text.slice(0, 200)).slice(1, -1)}: ${reason}` };
  }
  const foreign = foreignClassesReason(data, classIdsByName(job.classSets));
  if (foreign) {
    throw new CoverageError('incompatible-exec-data', `${foreign} (commit ${job.commit})`, {
      format: 'jacoco',
      file: job.fileName,
    });
  }
  return { classes: data.classes.length, unsafe: null };
}
