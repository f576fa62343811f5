import type { AmbiguousPath, DiffCoverage } from '@sextant/coverage';
import { listFiles, readBlobsAtRevisions, workspaceFolders } from '@sextant/coverage/node';
import { StepFailure } from './step-failure.ts';

/**
 * A monorepo's package folders at a commit of the bare mirror (npm/pnpm/yarn workspaces, Nx, Maven,
 * Gradle, Go; issue 39): the report screens show them as the top of the file tree.
 */
export async function packagesAt(mirror: string, commit: string): Promise<string[]> {
  const files = await listFiles(mirror, commit);
  return workspaceFolders(mirror, files, async (path) => {
    const [blob] = await readBlobsAtRevisions(mirror, [{ revision: commit, path }]);
    return blob?.text ?? null;
  });
}

const SHOWN = 3;

/**
 * The CLI's `--fail-under-diff` rule on the server (issue 39): when files of the coverage could not be
 * placed and no changed line was measured, the changed lines those files hold may simply not have been
 * found, so the report's diff figure would pass on nothing. It fails instead, naming the files and why.
 * Null when the diff stands (some changed line measured, or every file placed) or there is no diff.
 */
export function nothingPlacedFailure(
  diff: DiffCoverage | null,
  unmapped: { unmappedFiles: readonly string[]; ambiguousFiles: readonly AmbiguousPath[] },
): StepFailure | null {
  if (!diff || diff.lines.total > 0 || unmapped.unmappedFiles.length === 0) return null;
  const candidates = new Map(unmapped.ambiguousFiles.map((a) => [a.path, a.candidates]));
  const shown = unmapped.unmappedFiles.slice(0, SHOWN).map((path) => {
    const several = candidates.get(path);
    return several
      ? `${path} (could be ${several.slice(0, SHOWN).join(' or ')})`
      : `${path} (no such file in the repository)`;
  });
  const more = unmapped.unmappedFiles.length - shown.length;
  const count = unmapped.unmappedFiles.length;
  return new StepFailure(
    'GENERATEREPORT_FAIL',
    `the diff coverage cannot pass on nothing: no changed line was measured, and ${count} file${count === 1 ? '' : 's'} ` +
      `of the coverage could not be placed: ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}; ` +
      'upload from the folder the report was made in, or give --base-dir',
  );
}
