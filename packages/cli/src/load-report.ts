import { type Coverage, type FormatName, mapPaths, mergeCoverage } from '@sextant/coverage';
import { listFiles, readCoverageFile } from '@sextant/coverage/node';

export interface LoadedReport {
  coverage: Coverage;
  /** Report paths that name no file of the repository (empty when no repository was given). */
  unmappedFiles: string[];
}

/** Reads every report (all the same format), merges them, and maps paths onto the repository. */
export async function loadReport(
  files: readonly string[],
  format: FormatName | 'auto',
  repo: { dir: string; revision: string } | null,
): Promise<LoadedReport> {
  // Listed while the reports are parsed; awaited (and its failure reported) after them.
  const repoFiles = repo ? listFiles(repo.dir, repo.revision) : null;
  repoFiles?.catch(() => undefined);
  const reports: Coverage[] = [];
  for (const file of files) reports.push(await readCoverageFile(file, { format }));
  const merged = reports.length === 1 ? (reports[0] as Coverage) : mergeCoverage(reports);
  if (!repoFiles) return { coverage: merged, unmappedFiles: [] };
  const mapped = mapPaths(merged, await repoFiles);
  return { coverage: mapped.coverage, unmappedFiles: mapped.unmappedFiles };
}
