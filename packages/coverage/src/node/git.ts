import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { type ChangedFile, parseUnifiedDiff } from '../diff/unified.ts';
import {
  expandCopies,
  fitsArguments,
  hasEnoughCopies,
  parseDiffAttributes,
  parseRawDiff,
  pathsOf,
  representatives,
} from './diff-copies.ts';
import { execProgram } from './spawner.ts';

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
  // `a..b`, `a...b`, `c^!`, `c^@`, `c^-`: git reads these as ranges, and rev-parse prints two or more commits.
  if (ref.includes('..') || /\^[!@-]/.test(ref)) {
    throw new GitError(`refused revision ${JSON.stringify(ref)}: a range, where one commit is wanted`);
  }
}

export const GIT_ENV = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' };

/**
 * Runs `use` with the path of a file to be made in a folder of its own, removed afterwards. git
 * writes large answers there, not into a pipe: a pipe holds 64 KiB, and git would wait for each
 * turn of an event loop busy parsing a report (about 1 MiB of it a turn) to drain it.
 */
export async function withScratchFile<T>(name: string, use: (path: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `sextant-${name}-`));
  try {
    return await use(join(dir, name));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs git with an argument array (never a shell) and returns its stdout. `core.quotePath=false`
 * keeps non-ASCII paths as UTF-8 instead of octal escapes.
 */
export function runGit(
  repo: string,
  args: readonly string[],
  { timeout = 60_000, signal }: { timeout?: number; signal?: AbortSignal } = {},
): Promise<string> {
  const argv = ['-C', repo, '--no-pager', '-c', 'core.quotePath=false', ...args];
  return execProgram('git', argv, { timeout, signal, maxBuffer: 1024 * 1024 * 1024, env: GIT_ENV }).then(
    ({ code, stdout, stderr, ended }) => {
      if (code === 0 && ended === null) return stdout;
      const reason = stderr.trim().split('\n')[0] || (ended ? `ended (${ended})` : `exit code ${code}`);
      throw new GitError(`git ${args[0]} failed in ${repo}: ${reason}`);
    },
    (error: Error) => {
      throw new GitError(`git ${args[0]} failed in ${repo}: ${error.message}`);
    },
  );
}

/** Whether a revision names a commit of the repository (asked only to explain a failure). */
async function isCommit(repo: string, ref: string): Promise<boolean> {
  try {
    await runGit(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Names the revision git did not know, and says so when the repository is a shallow clone (CI
 * checkouts often are: the base commit was never fetched).
 */
async function unknownRevision(repo: string, refs: readonly string[], failure: GitError): Promise<GitError> {
  const known = await Promise.all(refs.map((ref) => isCommit(repo, ref)));
  const missing = refs.filter((_, i) => !known[i]);
  if (missing.length === 0) return failure;
  const shallow = await runGit(repo, ['rev-parse', '--is-shallow-repository']).then(
    (out) => out.trim() === 'true',
    () => false,
  );
  const names = missing.map((ref) => JSON.stringify(ref)).join(' and ');
  const hint = shallow
    ? ': the repository is a shallow clone, fetch more history (git fetch --deepen=N or --unshallow; with actions/checkout, fetch-depth: 0)'
    : '';
  return new GitError(`no commit ${names} in ${repo}${hint}`);
}

/** Resolves revisions to full commit shas with one `git rev-parse`. */
export async function resolveCommits(repo: string, refs: readonly string[]): Promise<string[]> {
  for (const ref of refs) validateRef(ref);
  let out: string;
  try {
    out = await runGit(repo, ['rev-parse', '--end-of-options', ...refs.map((r) => `${r}^{commit}`), '--']);
  } catch (error) {
    if (
      !(error instanceof GitError) ||
      !/bad revision|unknown revision|only has|ambiguous argument/.test(error.message)
    )
      throw error;
    throw await unknownRevision(repo, refs, error);
  }
  // One commit per ref, nothing else: a `^sha` line would be a range's excluded end. (git echoes
  // `--end-of-options` and `--`.)
  const shas = out.split('\n').filter((line) => line !== '' && line !== '--' && line !== '--end-of-options');
  if (shas.length !== refs.length || !shas.every((line) => /^[0-9a-f]{40,64}$/.test(line))) {
    throw new GitError(`git rev-parse gave ${JSON.stringify(shas)} for the commits ${JSON.stringify(refs)}`);
  }
  return shas;
}

/** Resolves a revision to its full commit sha. */
export async function resolveCommit(repo: string, ref: string): Promise<string> {
  return (await resolveCommits(repo, [ref]))[0] as string;
}

/** What the last `diff` in this process asked git: every changed file's patch, or one of each set of copies. */
export const diffStats = { files: 0, patched: 0 };

const DIFF_OPTIONS = ['--no-color', '--no-ext-diff', '--no-textconv', '-M'];
// --full-index: each file's object ids, which key the method cache before any source is read.
const PATCH_OPTIONS = [...DIFF_OPTIONS, '--unified=0', '--full-index'];

/**
 * Changed files between two revisions (new-side lines; renames detected; binary flagged), from
 * `git diff` (its patch of one of each set of identical changes when copies abound). Pass full shas when you have them: refs are validated and used as given. `scope`
 * limits it to one folder (repository-relative, as `repositoryPlace` gives it); paths stay
 * repository-relative.
 */
export async function diff(repo: string, base: string, head: string, scope = ''): Promise<ChangedFile[]> {
  validateRef(base);
  validateRef(head);
  const commits = [`${base}^{commit}`, `${head}^{commit}`];
  const pathspec = scope === '' ? [] : [`:(top,literal)${scope}`];
  return withScratchFile('diff', async (output) => {
    const patch = (to: string, paths: readonly string[], options: readonly string[] = PATCH_OPTIONS) => [
      'diff',
      ...options,
      `--output=${to}`,
      ...commits,
      '--',
      ...paths,
    ];
    // The raw list (a small part of the patch's cost) beside the whole patch: with many copies of
    // the same changes, git is asked again for one of each (diff-copies.ts) and the whole stopped.
    // Each git writes a file of its own: a stopped one may write on for a moment.
    const stop = new AbortController();
    const wholePatch = runGit(repo, patch(output, pathspec), { signal: stop.signal });
    wholePatch.catch(() => undefined);
    const raw = `${output}.raw`;
    await runGit(repo, [
      'diff',
      ...DIFF_OPTIONS,
      '--raw',
      '-z',
      '--no-abbrev',
      `--output=${raw}`,
      ...commits,
      '--',
      ...pathspec,
    ]);
    const changes = parseRawDiff(readFileSync(raw, 'utf8'));
    if (!hasEnoughCopies(changes)) {
      await wholePatch;
      return parsedPatch(output);
    }
    stop.abort();
    const firstsOf = representatives(changes, await diffAttributes(repo, pathsOf(changes)));
    if (firstsOf) {
      const patchOf = async (to: string, paths: readonly string[], options: readonly string[]) => {
        if (paths.length === 0) return [];
        await runGit(repo, patch(to, paths, options));
        return parseUnifiedDiff(readFileSync(to));
      };
      const firsts = (
        await Promise.all([
          patchOf(`${output}.renames`, firstsOf.renames, PATCH_OPTIONS),
          patchOf(`${output}.others`, firstsOf.others, [...PATCH_OPTIONS, '--no-renames']),
        ])
      ).flat();
      const files = expandCopies(changes, firsts);
      if (files) {
        Object.assign(diffStats, { files: files.length, patched: firsts.length });
        return files;
      }
    }
    await runGit(repo, patch(`${output}.whole`, pathspec));
    return parsedPatch(`${output}.whole`);
  });
}

/**
 * A patch git wrote, parsed. Read synchronously (a few ms): each asynchronous step would wait for a
 * turn of an event loop that is parsing a report meanwhile, and the changed methods wait for the diff.
 */
function parsedPatch(path: string): ChangedFile[] {
  const files = parseUnifiedDiff(readFileSync(path));
  Object.assign(diffStats, { files: files.length, patched: files.length });
  return files;
}

/**
 * The `diff` attribute of repository-relative paths (from the work tree's .gitattributes, as
 * `git diff` reads them): one `git check-attr` in `repo`, the paths made relative to it; null when
 * there are too many to pass as arguments.
 */
async function diffAttributes(repo: string, paths: readonly string[]): Promise<Map<string, string> | null> {
  if (!fitsArguments(paths)) return null;
  // Asked only here, where copies abound: a diff without them spawns no process for it.
  const cdup = (await runGit(repo, ['rev-parse', '--show-cdup'])).trim();
  const answer = await runGit(repo, ['check-attr', '-z', 'diff', '--', ...paths.map((path) => `${cdup}${path}`)]);
  return new Map([...parseDiffAttributes(answer)].map(([path, value]) => [path.slice(cdup.length), value]));
}

/** Repository-relative paths of every file in a commit (from any folder of it), from one `git ls-tree`. */
export async function listFiles(repo: string, commit: string): Promise<string[]> {
  validateRef(commit);
  const args = ['ls-tree', '--full-tree', '-r', '-z', '--name-only', `${commit}^{commit}`];
  return (await runGit(repo, args)).split('\0').filter(Boolean);
}

/** Where a folder sits in its repository: the work tree's top folder and its own path there. */
export interface RepositoryPlace {
  top: string;
  /** The folder's repository-relative path without a trailing slash; '' at the top (or in a bare repository). */
  prefix: string;
  /**
   * The folder a diff from here covers: `prefix` when HEAD tracks files in it (a monorepo package),
   * else '' (all of the repository: a report's output folder, say, holds no source).
   */
  scope: string;
}

/**
 * `repo`'s place in its repository, from `git rev-parse` (twice below the top), or from `known`
 * answers of `--show-cdup` and `--show-prefix` (see repositoryFacts) when there are some.
 */
export async function repositoryPlace(
  repo: string,
  known: Promise<{ cdup: string; prefix: string } | null> | null = null,
): Promise<RepositoryPlace> {
  const answer = await known;
  const [cdup = '', shown = ''] = answer
    ? [answer.cdup, answer.prefix]
    : (await runGit(repo, ['rev-parse', '--show-cdup', '--show-prefix'])).split('\n');
  const prefix = shown.replace(/\/$/, '');
  const top = resolvePath(repo, cdup);
  if (prefix === '') return { top, prefix, scope: '' };
  // `HEAD:./`: the folder's tree at HEAD, there only when HEAD tracks something in it.
  const tracked = await runGit(repo, ['rev-parse', '--quiet', '--verify', 'HEAD:./']).then(
    () => true,
    () => false,
  );
  return { top, prefix, scope: tracked ? prefix : '' };
}

/** The work tree's commit and the tracked files that differ from it (staged or not). */
export interface WorkingTree {
  /** HEAD's commit; null before the first commit. */
  head: string | null;
  /** Repository-relative paths. */
  changed: string[];
}

/** The work tree of `repo` from one `git status`, null where there is none (a bare repository). */
export async function workingTree(repo: string): Promise<WorkingTree | null> {
  let out: string;
  try {
    out = await runGit(repo, ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=no']);
  } catch {
    return null;
  }
  let head: string | null = null;
  const changed: string[] = [];
  const records = out.split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i] as string;
    if (record.startsWith('# branch.oid ')) {
      const oid = record.slice('# branch.oid '.length);
      head = /^[0-9a-f]{40,64}$/.test(oid) ? oid : null;
      continue;
    }
    // `1 XY sub mH mI mW hH hI path`, `2 … Xscore path` then the old path, `u XY sub m1 m2 m3 mW h1 h2 h3 path`.
    const fields = record[0] === '1' ? 8 : record[0] === '2' ? 9 : record[0] === 'u' ? 10 : 0;
    if (fields === 0) continue;
    let at = 0;
    for (let n = 0; n < fields && at >= 0; n++) at = record.indexOf(' ', at) + 1;
    if (at > 0) changed.push(record.slice(at));
    if (record[0] === '2') i++;
  }
  return { head, changed };
}

/** Who wrote the commits of `base..head`, as `name <email>` with the mailmap applied (as blame does). */
export interface RangeHistory {
  authors: Set<string>;
  /**
   * Only when several people wrote the range (else `authors` says it all): per path the range's
   * commits touched, the authors of those commits, or null when one of them added, deleted or
   * changed the type of the file there (then blame may follow its lines to another path). Paths
   * git had to quote are left out.
   */
  fileAuthors: Map<string, Set<string> | null>;
}

const COMMIT_MARK = '\u0001';

/**
 * The range's authors from one `git log`, and when there are several, each file's from a second
 * one with the files each commit changed: a file only one author's commits modified needs no
 * blame. A merge counts as a writer of the files it differs in from every parent (`-c`; blame can
 * give a merge only lines that match no parent), listed as `MM`, which leaves them to blame.
 */
export async function rangeHistory(repo: string, base: string, head: string): Promise<RangeHistory> {
  validateRef(base);
  validateRef(head);
  const range = `${base}..${head}`;
  const all = await runGit(repo, ['log', '--no-show-signature', '--format=%aN <%aE>', range, '--']);
  const authors = new Set(all.split('\n').filter(Boolean));
  const fileAuthors = new Map<string, Set<string> | null>();
  if (authors.size <= 1) return { authors, fileAuthors };
  const format = `--format=${COMMIT_MARK}%aN <%aE>`;
  const args = ['log', '--no-show-signature', '-c', '--name-status', '--no-renames', format, range, '--'];
  let author = '';
  for (const row of (await runGit(repo, args)).split('\n')) {
    if (row.startsWith(COMMIT_MARK)) {
      author = row.slice(1);
      continue;
    }
    const tab = row.indexOf('\t');
    if (tab < 0) continue;
    const path = row.slice(tab + 1);
    if (path.startsWith('"')) continue;
    const writers = fileAuthors.get(path);
    if (row.slice(0, tab) !== 'M') fileAuthors.set(path, null);
    else if (writers === undefined) fileAuthors.set(path, new Set([author]));
    else writers?.add(author);
  }
  return { authors, fileAuthors };
}

/** Runs git where exit 1 is an answer (`merge-base`), not a failure: resolves with the exit code. */
async function askGitYesNo(repo: string, args: readonly string[]): Promise<{ code: 0 | 1; stdout: string }> {
  const fail = (reason: string) => new GitError(`git ${args[0]} failed in ${repo}: ${reason}`);
  const { code, stdout, stderr, ended } = await execProgram('git', ['-C', repo, ...args], {
    timeout: 60_000,
    env: GIT_ENV,
  }).catch((error: Error) => {
    throw fail(error.message);
  });
  if (code === 0 && ended === null) return { code: 0, stdout };
  if (code === 1 && !stderr.trim()) return { code: 1, stdout };
  throw fail(stderr.trim().split('\n')[0] || (ended ? `ended (${ended})` : `exit code ${code}`));
}

/** The best common ancestor of two commits (`git merge-base`): where a branch left the one it targets. */
export async function mergeBase(repo: string, a: string, b: string): Promise<string> {
  validateRef(a);
  validateRef(b);
  const { code, stdout } = await askGitYesNo(repo, ['merge-base', '--end-of-options', a, b]);
  // Exit 1: the two histories share no commit.
  if (code === 1) throw new GitError(`${a} and ${b} share no commit in ${repo}`);
  return stdout.trim();
}

/** Whether `ancestor` is reachable from `commit` (`git merge-base --is-ancestor`: exit 0 yes, 1 no). */
export async function isAncestor(repo: string, ancestor: string, commit: string): Promise<boolean> {
  validateRef(ancestor);
  validateRef(commit);
  return (await askGitYesNo(repo, ['merge-base', '--is-ancestor', ancestor, commit])).code === 0;
}
