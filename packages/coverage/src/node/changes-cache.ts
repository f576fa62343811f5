import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { RevisionChanges } from '../figures/diff-coverage.ts';
import { sha1HexPortable } from '../methods/sha1.ts';
import { runGit } from './git.ts';
import { extractorVersion } from './method-cache.ts';

/**
 * A commit pair's changes (diff, changed methods, authors) kept between runs: several reports of
 * one commit pair (shards, unit and functional runs, a re-run job) then ask git and the method
 * cache once. Commits never change, but what git answers about them also depends on the git
 * binary, the configuration (diff and mailmap settings, `-c`, GIT_* variables), attribute files
 * and the mailmap; a fingerprint of all of those is part of the key, so any change to them is a
 * miss. Best effort like the method cache: anything unreadable is a miss, never an error.
 */

/** Entries kept (newest by write time): one is a few MB for a diff of thousands of files. */
const KEEP = 16;
const FOLDER = 'changes';
/** Bumped when RevisionChanges changes shape. */
const FORMAT = 2;

/** Whether the last `changesBetweenCommits` in this process read its answer from the cache. */
export const changesCacheStats = { hit: false };

/** `size:mtime` of a file, '-' when there is none: a changed attribute or mailmap file changes it. */
function fileStamp(path: string): string {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats ? `${stats.size}:${stats.mtimeMs}` : '-';
}

/** The `git` that execFile runs: the first on PATH (a new git version may diff differently). */
function gitBinaryStamp(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const stamp = fileStamp(join(dir, 'git'));
    if (stamp !== '-') return `${join(dir, 'git')}:${stamp}`;
  }
  return '-';
}

const expandHome = (path: string) => (path.startsWith('~/') ? join(homedir(), path.slice(2)) : path);

/**
 * A digest of what git's answers about any two commits of `repo` depend on besides the commits,
 * or null when the repository cannot be fingerprinted (no HEAD, a linked worktree whose mailmap is
 * elsewhere, a mailmap from a configured blob). Needs no commits, so it is asked while they are resolved.
 */
export async function repositoryFingerprint(
  repo: string,
  /** What `rev-parse --absolute-git-dir --is-bare-repository HEAD` prints, when already asked (see repositoryFacts). */
  known: Promise<string | null> | null = null,
): Promise<string | null> {
  const asked = () => runGit(repo, ['rev-parse', '--absolute-git-dir', '--is-bare-repository', 'HEAD']);
  try {
    // HEAD: a bare repository's mailmap is HEAD:.mailmap.
    const [where, config] = await Promise.all([
      known ? known.then((answer) => answer ?? asked()) : asked(),
      runGit(repo, ['config', '--list', '-z']),
    ]);
    const [gitDir, bare] = where.split('\n');
    if (!gitDir) return null;
    if (bare !== 'true' && basename(gitDir) !== '.git') return null;
    const settings = new Map<string, string>();
    for (const entry of config.split('\0')) {
      const newline = entry.indexOf('\n');
      if (newline > 0) settings.set(entry.slice(0, newline), entry.slice(newline + 1));
    }
    // A mailmap read from a named blob (`mailmap.blob=origin/main:.mailmap`) moves with its ref.
    if (settings.has('mailmap.blob')) return null;
    const xdg = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
    const files = [
      join(gitDir, 'info', 'attributes'),
      '/etc/gitattributes',
      expandHome(settings.get('core.attributesfile') ?? join(xdg, 'git', 'attributes')),
      bare === 'true' ? '' : join(dirname(gitDir), '.mailmap'),
      expandHome(settings.get('mailmap.file') ?? ''),
    ].filter(Boolean);
    const environment = Object.entries(process.env)
      .filter(([name]) => name.startsWith('GIT_'))
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return sha1HexPortable(
      JSON.stringify([
        [FORMAT, extractorVersion(), where, config, gitBinaryStamp()],
        [files.map((path) => `${path}=${fileStamp(path)}`), environment],
      ]),
    );
  } catch {
    return null;
  }
}

/** The cache file of the changes between two commits (under `scope`) of the repository with `fingerprint`. */
export function changesCacheFile(
  cacheDir: string,
  fingerprint: string,
  base: string,
  head: string,
  scope = '',
): string {
  const key = sha1HexPortable(`${fingerprint}\u0000${base}\u0000${head}\u0000${scope}`);
  return join(cacheDir, FOLDER, `${key}.v8`);
}

function isChanges(value: unknown, base: string, head: string): value is RevisionChanges {
  const v = value as RevisionChanges;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.base === base &&
    v.head === head &&
    Array.isArray(v.changed) &&
    v.headMethods instanceof Map &&
    Array.isArray(v.changedMethods) &&
    Array.isArray(v.authors) &&
    v.authors.length === v.changedMethods.length &&
    Number.isInteger(v.blamedFiles) &&
    (v.baseIsAncestor === undefined || typeof v.baseIsAncestor === 'boolean') &&
    (v.headFiles === undefined || (Array.isArray(v.headFiles) && v.headFiles.every((f) => typeof f === 'string')))
  );
}

/** The kept changes in `file`, null when there are none or they are damaged. */
export function readChanges(file: string, base: string, head: string): RevisionChanges | null {
  try {
    const value: unknown = deserialize(readFileSync(file));
    return isChanges(value, base, head) ? value : null;
  } catch {
    return null;
  }
}

/** Keeps `changes` in `file` (written whole, then renamed into place), dropping the oldest beyond KEEP. */
export function writeChanges(file: string, changes: RevisionChanges): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temporary, serialize(changes));
    renameSync(temporary, file);
    const folder = dirname(file);
    const entries = readdirSync(folder)
      .filter((name) => name.endsWith('.v8'))
      .map((name) => ({ path: join(folder, name), written: statSync(join(folder, name)).mtimeMs }))
      .sort((a, b) => b.written - a.written);
    for (const { path } of entries.slice(KEEP)) rmSync(path, { force: true });
  } catch {
    rmSync(temporary, { force: true });
  }
}
