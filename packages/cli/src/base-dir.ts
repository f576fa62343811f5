import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { GitError, type RepositoryPlace, repositoryPlace } from '@sextant/coverage/node';

/**
 * The folder of its repository the upload is made from (`git rev-parse --show-prefix`): a monorepo
 * package's report names its files relative to it. Null outside a repository and at its top.
 */
async function folderInRepository(cwd: string): Promise<string | null> {
  return (await placeOf(cwd))?.prefix || null;
}

async function placeOf(cwd: string): Promise<RepositoryPlace | null> {
  try {
    return await repositoryPlace(cwd);
  } catch (error) {
    if (error instanceof GitError) return null;
    throw error;
  }
}

/**
 * Each report file's folder for `sextant upload` (issue 39): `--base-dir` as given for all; else
 * the repository folder the file sits in (`packages/alpha/coverage`, whose parents the server looks
 * under too), else, for a file outside the repository, the working directory's folder.
 */
export async function reportFoldersOf(
  given: string | undefined,
  cwd: string,
  files: readonly string[],
): Promise<(string | null)[]> {
  if (given !== undefined) {
    const folder = await baseDirOf(given, cwd);
    return files.map(() => folder);
  }
  const place = await placeOf(cwd);
  if (!place) return files.map(() => null);
  return files.map((file) => {
    const folder = relative(place.top, dirname(resolve(cwd, file)));
    if (folder.startsWith('..') || isAbsolute(folder)) return place.prefix || null;
    return folder.split(sep).join('/') || null;
  });
}

/** `--base-dir` as given (`.` is the top, `\\` a separator), else the folder of the working directory. */
export async function baseDirOf(given: string | undefined, cwd: string): Promise<string | null> {
  if (given === undefined) return folderInRepository(cwd);
  const folder = given.replaceAll('\\', '/').replace(/^(?:\.\/)+/, '');
  return folder === '.' || folder === '' ? null : folder;
}
