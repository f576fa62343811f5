import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type ChangedFile, parseUnifiedDiff } from '../diff/unified.ts';

const run = promisify(execFile);

/** Thrown for a refused ref or a failed git command; the message names the ref or command. */
export class GitError extends Error {
  override name = 'GitError';
}

function hasControlOrSpace(ref: string): boolean {
  for (const ch of ref) {
    const c = ch.charCodeAt(0);
    if (c <= 0x20 || c === 0x7f) return true;
  }
  return false;
}

// Refuses option-like and malformed refs before git ever sees them.
export function validateRef(ref: string): void {
  if (ref === '' || ref.length > 256 || ref.startsWith('-') || hasControlOrSpace(ref)) {
    throw new GitError(`refused revision ${JSON.stringify(ref)}`);
  }
}

async function git(repo: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run('git', ['-C', repo, '--no-pager', ...args], {
      timeout: 30_000,
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' },
    });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim().split('\n')[0] ?? '';
    throw new GitError(`git ${args[0]} failed in ${repo}: ${stderr || (error as Error).message}`);
  }
}

/** Resolves a revision to its full commit sha. */
export async function resolveCommit(repo: string, ref: string): Promise<string> {
  validateRef(ref);
  return (await git(repo, ['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`])).trim();
}

/** Changed files between two revisions (new-side lines; renames detected; binary flagged). */
export async function diff(repo: string, base: string, head: string): Promise<ChangedFile[]> {
  const [b, h] = [await resolveCommit(repo, base), await resolveCommit(repo, head)];
  return parseUnifiedDiff(await git(repo, ['diff', '--no-color', '--no-ext-diff', '-M', '--unified=0', b, h]));
}

/** Repo-relative paths of every file in a commit. */
export async function listFiles(repo: string, commit: string): Promise<string[]> {
  const sha = await resolveCommit(repo, commit);
  return (await git(repo, ['ls-tree', '-r', '-z', '--name-only', sha])).split('\0').filter(Boolean);
}
