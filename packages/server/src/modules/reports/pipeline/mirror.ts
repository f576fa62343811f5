import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isSafeRepoUrl } from '@sextant/api';
import { gitFailure } from '../../apps/git-remote.ts';
import { withMirrorLock } from './mirror-lock.ts';
import { lastLines, runCommand } from './run-command.ts';
import { StepFailure } from './step-failure.ts';

type GitOptions = { timeoutMs: number; signal?: AbortSignal; gitConfig?: readonly string[] };

// Only the transports an app may register (https, ssh, a local path); never ext:: or the like.
const PROTOCOLS = [
  '-c',
  'protocol.allow=never',
  '-c',
  'protocol.https.allow=always',
  '-c',
  'protocol.ssh.allow=always',
  '-c',
  'protocol.file.allow=always',
];

async function git(args: string[], opts: GitOptions & { keepStdout?: boolean; stdin?: string }) {
  const result = await runCommand('git', [...PROTOCOLS, ...(opts.gitConfig ?? []), ...args], {
    ...opts,
    keepStdout: opts.keepStdout ?? true,
  });
  if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
  return result;
}

/** Progress and failures are broadcast: a token in an https URL (`https://user:token@host`) is hidden. */
export function withoutCredentials(text: string): string {
  return text.replace(/(https:\/\/)[^@\s/]+@/g, '$1***@');
}

function gitReason(output: string, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `git timed out after ${Math.round(timeoutMs / 1000)} s`;
  return gitFailure(output);
}

// Mirror updates of one app run one at a time in this process (two reports of an app at once).
const mirrorLocks = new Map<string, Promise<unknown>>();

function serialised<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = mirrorLocks.get(key) ?? Promise.resolve();
  const next = previous.then(task, task);
  const settled = next.catch(() => undefined);
  mirrorLocks.set(key, settled);
  void settled.then(() => {
    if (mirrorLocks.get(key) === settled) mirrorLocks.delete(key);
  });
  return next;
}

/**
 * Brings the bare mirror at `dir` up to date with the app's registered repository: `git clone
 * --mirror` the first time (into a temporary directory renamed into place, so a killed clone never
 * leaves a half mirror), `git fetch --prune` afterwards. Failures are CLONE_FAIL with git's reason.
 */
export function syncMirror(url: string, dir: string, opts: GitOptions): Promise<void> {
  if (!isSafeRepoUrl(url))
    return Promise.reject(new StepFailure('CLONE_FAIL', `refused repository URL ${withoutCredentials(url)}`));
  // In this process one at a time; across the processes sharing the data folder, under a lock file.
  const staleMs = opts.timeoutMs + 60_000;
  return serialised(dir, () => withMirrorLock(dir, staleMs, () => updateMirror(url, dir, opts)));
}

async function updateMirror(url: string, dir: string, opts: GitOptions): Promise<void> {
  if (existsSync(`${dir}/HEAD`)) {
    await git(['--git-dir', dir, 'remote', 'set-url', 'origin', url], opts);
    const fetched = await git(['--git-dir', dir, 'fetch', '--prune', '--quiet', 'origin'], opts);
    if (fetched.code !== 0) {
      throw new StepFailure(
        'CLONE_FAIL',
        `cannot fetch ${withoutCredentials(url)}: ${gitReason(fetched.output, fetched.timedOut, opts.timeoutMs)}`,
      );
    }
    return;
  }
  await mkdir(dirname(dir), { recursive: true });
  const temporary = `${dir}.tmp-${randomBytes(6).toString('hex')}`;
  try {
    const cloned = await git(['clone', '--mirror', '--quiet', '--', url, temporary], opts);
    if (cloned.code !== 0) {
      throw new StepFailure(
        'CLONE_FAIL',
        `cannot clone ${withoutCredentials(url)}: ${gitReason(cloned.output, cloned.timedOut, opts.timeoutMs)}`,
      );
    }
    await rm(dir, { recursive: true, force: true });
    await rename(temporary, dir);
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
}

/**
 * Full commit shas of the given refs (sha, branch, tag), null for a ref the mirror does not know.
 * One `git cat-file --batch-check`; refs were validated as git refs (no newline) on the way in.
 */
export async function resolveRefs(dir: string, refs: readonly string[], opts: GitOptions) {
  const resolved = new Map<string, string | null>();
  if (refs.length === 0) return resolved;
  const input = refs.map((ref) => `${ref}^{commit}\n`).join('');
  const result = await git(['--git-dir', dir, 'cat-file', '--batch-check=%(objectname) %(objecttype)'], {
    ...opts,
    stdin: input,
  });
  if (result.code !== 0) {
    throw new Error(`git cat-file failed: ${gitReason(result.output, result.timedOut, opts.timeoutMs)}`);
  }
  const lines = result.stdout.split('\n');
  refs.forEach((ref, index) => {
    const match = /^([0-9a-f]{40,64}) commit$/.exec(lines[index] ?? '');
    resolved.set(ref, match?.[1] ?? null);
  });
  return resolved;
}

/** The commits of `base..head`, newest first: sha, whole message and the paths each changed. */
export async function commitsBetween(
  dir: string,
  base: string,
  head: string,
  opts: GitOptions,
): Promise<{ sha: string; message: string; files: string[] }[]> {
  const result = await git(
    [
      '--git-dir',
      dir,
      'log',
      '--no-show-signature',
      '--format=%x1e%H%x1f%B%x1f',
      '--name-only',
      `${base}..${head}`,
      '--',
    ],
    opts,
  );
  if (result.code !== 0)
    throw new Error(`git log failed: ${gitReason(result.output, result.timedOut, opts.timeoutMs)}`);
  return result.stdout
    .split('\x1e')
    .filter((chunk) => chunk.includes('\x1f'))
    .map((chunk) => {
      const [sha = '', message = '', names = ''] = chunk.split('\x1f');
      return { sha: sha.trim(), message, files: names.split('\n').filter((f) => f.trim() !== '') };
    });
}

/** Writes the tree of `commit` into `target` (a fresh directory), without touching the mirror. */
export async function exportTree(dir: string, commit: string, target: string, opts: GitOptions): Promise<void> {
  await mkdir(target, { recursive: true });
  const archive = `${target}.tar`;
  try {
    const packed = await git(['--git-dir', dir, 'archive', '--format=tar', '-o', archive, commit], opts);
    if (packed.code !== 0) {
      throw new Error(`git archive failed: ${gitReason(packed.output, packed.timedOut, opts.timeoutMs)}`);
    }
    const unpacked = await runCommand('tar', ['-x', '-f', archive, '-C', target], opts);
    if (unpacked.code !== 0) throw new Error(`tar failed: ${lastLines(unpacked.output, 3)}`);
  } finally {
    await rm(archive, { force: true });
  }
}
