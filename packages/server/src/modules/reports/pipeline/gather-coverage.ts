import {
  type AmbiguousPath,
  type Coverage,
  CoverageError,
  FORMATS,
  type FormatName,
  mapPaths,
  mergeCoverage,
} from '@sextant/coverage';
import { listFiles } from '@sextant/coverage/node';
import type { StoredUploads, UploadRow } from '../../intake/index.ts';
import type { CaseCoverage } from '../generate/case-summaries.ts';
import { coverageFromExec } from './exec-coverage.ts';
import { resolveRefs } from './mirror.ts';
import { StepFailure } from './step-failure.ts';

/**
 * The uploads of the report's app, environment and test type whose commit is the new commit. Each
 * upload's commit (a sha or a ref, as sent) is resolved against the mirror once and kept.
 */
export async function uploadsOfCommit(
  stored: StoredUploads,
  input: { appId: string; envType: string; testType: number; mirror: string; newCommit: string },
  opts: { timeoutMs: number; signal: AbortSignal },
): Promise<UploadRow[]> {
  const uploads = await stored.forReport(input.appId, input.envType, input.testType);
  const unresolved = [...new Set(uploads.filter((u) => u.commitSha === null).map((u) => u.commit))];
  const resolved = await resolveRefs(input.mirror, unresolved, opts);
  const found = uploads.flatMap((u) => {
    const sha = resolved.get(u.commit);
    return u.commitSha === null && sha ? [{ id: u.id, commitSha: sha }] : [];
  });
  await stored.resolveCommits(found);
  return uploads.filter((u) => (u.commitSha ?? resolved.get(u.commit)) === input.newCommit);
}

function formatOf(upload: UploadRow): FormatName | 'auto' {
  return (FORMATS as readonly string[]).includes(upload.format) ? (upload.format as FormatName) : 'auto';
}

/**
 * The ADDING_MODULE step: parses each upload and maps its paths onto the files of the new commit
 * (JaCoCo's package paths, absolute LCOV paths). Uploads exist but not one path names a file of
 * the commit: FAILADDMODULE, naming some of the paths that did not map.
 */
export async function mapUploads(input: {
  uploads: readonly UploadRow[];
  stored: StoredUploads;
  mirror: string;
  newCommit: string;
  /** What exec uploads are turned into figures with (issue 38); without it they are left out. */
  exec?: Omit<Parameters<typeof coverageFromExec>[0], 'uploads' | 'stored'>;
}): Promise<{
  coverages: Coverage[];
  cases: CaseCoverage[];
  unmappedFiles: string[];
  ambiguousFiles: AmbiguousPath[];
  /** What became of the exec uploads, for the ENV_REPORT step's message; null without any. */
  execNote: string | null;
}> {
  const none = { coverages: [], cases: [], unmappedFiles: [], ambiguousFiles: [], execNote: null };
  if (input.uploads.length === 0) return none;
  const execUploads = input.uploads.filter((u) => u.format === 'jacoco-exec');
  const fromExec = input.exec
    ? await coverageFromExec({ ...input.exec, uploads: execUploads, stored: input.stored })
    : { coverage: null, note: execUploads.length > 0 ? `${execUploads.length} JaCoCo exec upload(s) left out` : null };
  const read: { upload: Pick<UploadRow, 'baseDir' | 'caseId'>; parsed: Coverage }[] = [];
  if (fromExec.coverage) {
    const folders = new Set(execUploads.map((u) => u.baseDir));
    const baseDir = folders.size === 1 ? (execUploads[0]?.baseDir ?? null) : null;
    read.push({ upload: { baseDir, caseId: null }, parsed: fromExec.coverage });
  }
  for (const upload of input.uploads) {
    if (upload.format === 'jacoco-exec') continue;
    try {
      read.push({
        upload,
        parsed: await input.stored.read(upload, { format: formatOf(upload) }),
      });
    } catch (error) {
      const reason = error instanceof CoverageError ? error.message : String(error);
      throw new StepFailure('FAILADDMODULE', `cannot read the coverage upload ${upload.id}: ${reason}`);
    }
  }
  if (read.length === 0) return { ...none, execNote: fromExec.note };
  const repoFiles = await listFiles(input.mirror, input.newCommit);
  const coverages: Coverage[] = [];
  const cases: CaseCoverage[] = [];
  const unmapped = new Set<string>();
  const ambiguous = new Map<string, AmbiguousPath>();
  for (const { upload, parsed } of read) {
    // The upload's folder and its parents, as the CLI and the intake's mirror check place paths.
    const mapped = mapPaths(parsed, repoFiles, { baseDir: upload.baseDir, reportDir: upload.baseDir });
    for (const path of mapped.unmappedFiles) unmapped.add(path);
    for (const found of mapped.ambiguousFiles) ambiguous.set(found.path, found);
    if (mapped.coverage.files.length > 0) {
      coverages.push(mapped.coverage);
      if (upload.caseId) cases.push({ caseKey: upload.caseId, coverage: mapped.coverage });
    }
  }
  if (coverages.length === 0) {
    const some = [...unmapped].slice(0, 5);
    const more = unmapped.size > some.length ? ` and ${unmapped.size - some.length} more` : '';
    throw new StepFailure(
      'FAILADDMODULE',
      `no path of the coverage (${input.uploads.length} upload${input.uploads.length === 1 ? '' : 's'}) names a file of commit ${input.newCommit.slice(0, 12)}: ${some.join(', ')}${more}`,
    );
  }
  return {
    coverages,
    cases,
    unmappedFiles: [...unmapped],
    ambiguousFiles: [...ambiguous.values()],
    execNote: fromExec.note,
  };
}

/**
 * The ENV_REPORT step: the coverage recorded for the new commit in the environment, merged (hits
 * add; a line is covered when any run covered it). None at all: ENVREPORT_FAIL.
 */
export function mergeEnvironment(
  coverages: readonly Coverage[],
  context: { appName: string; newCommit: string; envType: string; execNote?: string | null },
): Coverage {
  if (coverages.length === 0) {
    const why = context.execNote ? `: ${context.execNote}` : '';
    throw new StepFailure(
      'ENVREPORT_FAIL',
      `no coverage for ${context.appName} ${context.newCommit.slice(0, 12)} in ${context.envType}${why}`,
    );
  }
  if (coverages.length === 1) return coverages[0] as Coverage;
  try {
    return mergeCoverage(coverages);
  } catch (error) {
    const reason = error instanceof CoverageError ? error.message : String(error);
    throw new StepFailure('ENVREPORT_FAIL', `cannot merge the coverage of ${context.envType}: ${reason}`);
  }
}
