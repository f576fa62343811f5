import { execFile } from 'node:child_process';

/** Source files above this size are not shown (a generated or vendored file, not something to read). */
export const SOURCE_SIZE_LIMIT_BYTES = 2 * 1024 * 1024;

export class BlobError extends Error {
  constructor(
    readonly reason: 'missing' | 'too-large' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

function git(gitDir: string, args: string[], timeoutMs: number, maxBuffer: number): Promise<Buffer> {
  // Argument array, no shell; no credential prompt; a hard timeout. `--git-dir` pins the repository.
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['--git-dir', gitDir, ...args],
      { env, timeout: timeoutMs, maxBuffer, encoding: 'buffer' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        if (error.killed) return reject(new BlobError('failed', `git timed out after ${timeoutMs / 1000} s`));
        const line = stderr
          .toString('utf8')
          .split('\n')
          .find((l) => l.trim() !== '');
        reject(new BlobError('missing', line?.trim() ?? error.message));
      },
    );
  });
}

/**
 * A file's text at a commit of a bare mirror. The caller has already checked that `path` is one of the
 * report's files; `commit` is a full object id, so `<commit>:<path>` cannot be read as an option.
 */
export async function readBlob(
  gitDir: string,
  commit: string,
  path: string,
  opts: { timeoutMs: number; limitBytes?: number },
): Promise<string> {
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(commit)) throw new BlobError('missing', 'The report has no valid commit.');
  const limit = opts.limitBytes ?? SOURCE_SIZE_LIMIT_BYTES;
  const object = `${commit}:${path}`;
  const size = Number((await git(gitDir, ['cat-file', '-s', object], opts.timeoutMs, 1024)).toString().trim());
  if (!Number.isFinite(size)) throw new BlobError('failed', 'git did not report the file size');
  if (size > limit) {
    throw new BlobError(
      'too-large',
      `The file is ${(size / 1024 / 1024).toFixed(1)} MB; the source view shows files up to ${limit / 1024 / 1024} MB.`,
    );
  }
  const blob = await git(gitDir, ['cat-file', 'blob', object], opts.timeoutMs, limit + 1024);
  return blob.toString('utf8');
}
