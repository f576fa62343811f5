import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Coverage,
  CoverageError,
  type ExecData,
  mergeExecData,
  parseJacocoExec,
  writeJacocoExec,
} from '@sextant/coverage';
import { execToXml, jacocoReportMissing, readCoverageFile } from '@sextant/coverage/node';
import {
  classIdsByName,
  foreignClassesReason,
  type StoredClass,
  type StoredUploads,
  type UploadRow,
} from '../../intake/index.ts';
import { StepFailure } from './step-failure.ts';

export type ExecOutcome = { coverage: Coverage | null; note: string | null };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : word.endsWith('s') ? 'es' : 's'}`;

/**
 * The class file of each name to give JaCoCo's report: the build whose id the execution data
 * carries, else (a class no run loaded) the first list's. One file per name, as JaCoCo's analyser
 * refuses two classes of one name.
 */
function classesFor(merged: ExecData, byName: Map<string, StoredClass[]>): StoredClass[] {
  const idOf = new Map(merged.classes.map((c) => [c.name, c.id]));
  return [...byName.entries()].map(([name, builds]) => {
    const id = idOf.get(name);
    return builds.find((b) => b.classId === id) ?? (builds[0] as StoredClass);
  });
}

/**
 * Issue 38: the report's JaCoCo exec uploads merged probe by probe (as JaCoCo's merge does), checked
 * against the class files recorded for their commits, and turned into JaCoCo's own XML report by its
 * Ant task over the stored class files: exact counters, not the XML merge's ranges. Where JaCoCo
 * cannot run, or no class files were sent, the exec uploads are left out and `note` says why; data
 * of another build of a class ends the step (ENVREPORT_FAIL) naming the upload and the class.
 */
export async function coverageFromExec(input: {
  uploads: readonly UploadRow[];
  stored: StoredUploads;
  appId: string;
  appName: string;
  jacocoLib: string;
  maxBytes: number;
}): Promise<ExecOutcome> {
  const { uploads, stored, appId } = input;
  if (uploads.length === 0) return { coverage: null, note: null };
  const execs = plural(uploads.length, 'JaCoCo exec upload');
  const missing = jacocoReportMissing(input.jacocoLib);
  if (missing) {
    return {
      coverage: null,
      note:
        `${execs} left out: JaCoCo's report cannot run on this server (${missing}); the figures are the ` +
        'XML uploads merged, with ranges where runs overlap',
    };
  }
  const commits = [...new Set(uploads.map((u) => u.commit))];
  const byName = classIdsByName(await stored.classSets(appId, commits));
  if (byName.size === 0) {
    return {
      coverage: null,
      note: `${execs} left out: no class files were sent for ${commits.join(', ')} (sextant agent --jacoco sends them)`,
    };
  }
  const runs: ExecData[] = [];
  for (const upload of uploads) {
    let data: ExecData;
    try {
      const bytes = await stored.bytes(upload, { maxBytes: input.maxBytes });
      data = parseJacocoExec(bytes, upload.id);
    } catch (error) {
      const reason = error instanceof CoverageError ? error.message : String(error);
      throw new StepFailure('ENVREPORT_FAIL', `cannot read the exec upload ${upload.id}: ${reason}`);
    }
    const foreign = foreignClassesReason(data, byName);
    if (foreign) {
      throw new StepFailure(
        'ENVREPORT_FAIL',
        `the exec upload ${upload.id} does not match the class files of ${upload.commit}: ${foreign}`,
      );
    }
    runs.push(data);
  }
  let merged: ExecData;
  try {
    merged = mergeExecData(runs);
  } catch (error) {
    throw new StepFailure('ENVREPORT_FAIL', `cannot merge the exec uploads: ${(error as Error).message}`);
  }
  const classes = classesFor(merged, byName);
  const work = await mkdtemp(join(tmpdir(), 'sextant-exec-report-'));
  try {
    // Filed by content: JaCoCo reads a class's name from its bytes, never from the file's name.
    const folder = join(work, 'classes');
    await mkdir(folder);
    await stored.writeClassFiles(
      appId,
      classes.map((cls) => cls.sha256),
      folder,
    );
    const xml = await execToXml({
      exec: Buffer.from(writeJacocoExec(merged)),
      classes: folder,
      name: input.appName,
      workDir: work,
      jacocoLib: input.jacocoLib,
    });
    const coverage = await readCoverageFile(xml, { format: 'jacoco' });
    return {
      coverage,
      note:
        `${execs} merged probe by probe (${plural(merged.classes.length, 'class')} with data) and reported by ` +
        `JaCoCo over ${plural(classes.length, 'stored class file')}: exact counters`,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
