import { GitError, repositoryPlace } from '@sextant/coverage/node';

/**
 * The folder of its repository the upload is made from (`git rev-parse --show-prefix`): a monorepo
 * package's report names its files relative to it. Null outside a repository and at its top.
 */
async function folderInRepository(cwd: string): Promise<string | null> {
  try {
    return (await repositoryPlace(cwd)).prefix || null;
  } catch (error) {
    if (error instanceof GitError) return null;
    throw error;
  }
}

/** `--base-dir` as given (`.` is the top, `\\` a separator), else the folder of the working directory. */
export async function baseDirOf(given: string | undefined, cwd: string): Promise<string | null> {
  if (given === undefined) return folderInRepository(cwd);
  const folder = given.replaceAll('\\', '/').replace(/^(?:\.\/)+/, '');
  return folder === '.' || folder === '' ? null : folder;
}
