import { existsSync } from 'node:fs';
import { type Coverage, mapPaths } from '@sextant/coverage';
import { GitError, listFiles, resolveCommit } from '@sextant/coverage/node';
import { mirrorDir } from '../../lib/data-paths.ts';

export type MirrorCheck = { commitSha: string | null; unmappedFiles: string[] };

/**
 * Which report paths map to no file of the commit, when the app's mirror already holds that commit.
 * Without a mirror (no report has cloned the repository yet) or without the commit (not fetched yet),
 * nothing can be judged: the upload is kept with `unmappedFiles: []` and the report pipeline maps it
 * later (its add-module step fails with FAILADDMODULE if nothing maps).
 */
export async function checkAgainstMirror(
  dataDir: string,
  appId: string,
  commit: string,
  coverage: Coverage,
  /** The repository folder the report was made in (UploadMeta's `baseDir`). */
  baseDir: string | null = null,
): Promise<MirrorCheck> {
  const repo = mirrorDir(dataDir, appId);
  if (!existsSync(repo)) return { commitSha: null, unmappedFiles: [] };
  try {
    const commitSha = await resolveCommit(repo, commit);
    // The folder and its parents (a report file's folder, `module-a/target/site/jacoco`), as the CLI places paths.
    const { unmappedFiles } = mapPaths(coverage, await listFiles(repo, commitSha), { baseDir, reportDir: baseDir });
    return { commitSha, unmappedFiles };
  } catch (error) {
    if (error instanceof GitError) return { commitSha: null, unmappedFiles: [] };
    throw error;
  }
}
