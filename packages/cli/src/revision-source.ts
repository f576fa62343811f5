import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { GitError, validateRef } from '@sextant/coverage/node';

const run = promisify(execFile);

/**
 * A file's text as of a revision (`git show rev:path`, argument array), or null when the revision
 * has no such file. The revision is validated; the path can only name a blob inside it.
 */
export async function readFileAtRevision(repo: string, revision: string, path: string): Promise<string | null> {
  validateRef(revision);
  try {
    const { stdout } = await run('git', ['-C', repo, '--no-pager', 'show', '--no-textconv', `${revision}:${path}`], {
      timeout: 30_000,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' },
    });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    if (/does not exist|exists on disk, but not in/.test(stderr)) return null;
    throw new GitError(`git show failed for ${path} at ${revision}: ${stderr.trim().split('\n')[0] ?? ''}`);
  }
}
