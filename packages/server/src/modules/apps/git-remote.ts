import { execFile } from 'node:child_process';
import { isSafeRepoUrl } from '@sextant/api';

export const LS_REMOTE_TIMEOUT_MS = 10_000;

export type RemoteRef = { commit: string; name: string };

export class RemoteError extends Error {}

/**
 * `git ls-remote` without a shell: the URL is one argument after `--` (so it can never be an option such
 * as --upload-pack), no transport but https/ssh/local, no prompt for credentials, and a hard timeout.
 */
export function lsRemote(url: string, opts: { heads?: boolean; timeoutMs?: number } = {}): Promise<RemoteRef[]> {
  if (!isSafeRepoUrl(url)) return Promise.reject(new RemoteError('refused repository URL'));
  const timeout = opts.timeoutMs ?? LS_REMOTE_TIMEOUT_MS;
  const args = [
    '-c',
    'protocol.allow=never',
    '-c',
    'protocol.https.allow=always',
    '-c',
    'protocol.ssh.allow=always',
    '-c',
    'protocol.file.allow=always',
    'ls-remote',
    ...(opts.heads ? ['--heads'] : []),
    '--',
    url,
  ];
  const env = {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_SSH_COMMAND: 'ssh -o BatchMode=yes -o ConnectTimeout=8',
  };
  return new Promise((resolve, reject) => {
    execFile('git', args, { timeout, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        if (error.killed) return reject(new RemoteError(`git ls-remote timed out after ${timeout / 1000} s`));
        const line = stderr.split('\n').find((l) => l.trim() !== '');
        return reject(new RemoteError(line?.trim() ?? error.message));
      }
      const refs = stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [commit = '', name = ''] = line.split('\t');
          return { commit, name };
        });
      resolve(refs);
    });
  });
}
