import { isSafeRepoUrl } from '@sextant/api';
import { execProgram } from '@sextant/coverage/node';

export const LS_REMOTE_TIMEOUT_MS = 10_000;

export type RemoteRef = { commit: string; name: string };

export class RemoteError extends Error {}

/**
 * `git ls-remote` without a shell: the URL is one argument after `--` (so it can never be an option such
 * as --upload-pack), no transport but https/ssh/local, no prompt for credentials, and a hard timeout.
 */
export function lsRemote(
  url: string,
  opts: { heads?: boolean; timeoutMs?: number; gitConfig?: readonly string[] } = {},
): Promise<RemoteRef[]> {
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
    ...(opts.gitConfig ?? []),
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
  return execProgram('git', args, { timeout, env, maxBuffer: 64 * 1024 * 1024 }).then(
    ({ code, stdout, stderr, ended }) => {
      if (ended === 'timeout') throw new RemoteError(`git ls-remote timed out after ${timeout / 1000} s`);
      if (code !== 0 || ended) throw new RemoteError(gitFailure(stderr));
      return stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [commit = '', name = ''] = line.split('\t');
          return { commit, name };
        });
    },
    (error: Error) => {
      throw new RemoteError(gitFailure(error.message));
    },
  );
}

// What git's messages mean, in words of our own. Git's text is never passed on: for a local path it can
// quote the file it read ("not a git repository: <the file's first line>"), issue 32 finding 10.
const GIT_FAILURES: [RegExp, string][] = [
  [
    /could not resolve (host|hostname)|name or service not known|temporary failure in name resolution/i,
    'Could not resolve the host name.',
  ],
  [
    /connection refused|failed to connect|couldn't connect|connection timed out|no route to host|network is unreachable/i,
    'Could not connect to the server (connection refused or unreachable).',
  ],
  [/host key verification failed/i, "Host key verification failed: add the host to the server user's known_hosts."],
  [/permission denied \(publickey/i, 'The ssh server refused the key (Permission denied (publickey)).'],
  [
    /authentication failed|could not read username|could not read password|terminal prompts disabled|returned error: 40[13]/i,
    'Authentication failed: the server needs credentials.',
  ],
  [/ssl|certificate|tls/i, "TLS error: the server's certificate was not accepted."],
  [/repository not found|returned error: 404|not found/i, 'No repository at this location (not found).'],
  [
    /does not appear to be a git repository|not a git repository|invalid gitfile|does not exist|no such file/i,
    'Not a git repository (or not readable by the server).',
  ],
];

/** A failed git command's reason, from a closed set of messages. */
export function gitFailure(stderr: string): string {
  for (const [pattern, meaning] of GIT_FAILURES) if (pattern.test(stderr)) return meaning;
  return stderr.trim() === '' ? 'git failed without a message.' : 'git could not read the repository.';
}
