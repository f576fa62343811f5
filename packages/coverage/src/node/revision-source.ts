import { readFileSync } from 'node:fs';
import { GIT_ENV, GitError, runGit, validateRef, withScratchFile } from './git.ts';
import { startProgram } from './spawner.ts';

export interface RevisionFile {
  revision: string;
  path: string;
  /**
   * The file's blob id at the revision when already known (a `--full-index` diff names it): read
   * by id, git skips resolving the path through the revision's trees.
   */
  object?: string | null;
}

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

const specOf = (file: RevisionFile) => file.object ?? `${file.revision}:${file.path}`;

/** One file through `git show rev:path` (argument array), null when the revision has no such file. */
async function showFile(repo: string, file: RevisionFile): Promise<string | null> {
  try {
    return await runGit(repo, ['show', '--no-textconv', specOf(file)], { timeout: 30_000 });
  } catch (error) {
    const reason = (error as Error).message;
    if (/does not exist|exists on disk, but not in/.test(reason)) return null;
    throw new GitError(`git show failed for ${file.path} at ${file.revision}: ${reason}`);
  }
}

/** A file's text and its git object id (null when read another way than by object). */
export interface RevisionBlob {
  oid: string | null;
  text: string;
}

/** A file as `RevisionBlob`, its text decoded only when asked for. */
export interface LazyBlob {
  oid: string | null;
  /** The text's length in bytes. */
  bytes: number;
  text(): string;
}

/** Reads `git cat-file --batch` answers: `<oid> <type> <size>\n<content>\n` or `<spec> missing\n`. */
function parseBatch(output: Buffer, count: number): (LazyBlob | null)[] {
  const blobs: (LazyBlob | null)[] = [];
  let at = 0;
  while (blobs.length < count) {
    const eol = output.indexOf(0x0a, at);
    if (eol < 0) throw new GitError('git cat-file ended early');
    const header = output.toString('utf8', at, eol);
    at = eol + 1;
    const found = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
    if (!found) {
      blobs.push(null);
      continue;
    }
    const [start, size] = [at, Number(found[3])];
    if (found[2] === 'blob') {
      blobs.push({ oid: found[1] as string, bytes: size, text: () => output.toString('utf8', start, start + size) });
    } else blobs.push(null);
    at += size + 1;
  }
  return blobs;
}

/**
 * Files as of given revisions (null where the revision has no such file), read by one
 * `git cat-file --batch` process instead of one `git show` each. Revisions are validated first;
 * a path with a newline (which the batch protocol cannot carry) goes through `git show`.
 */
export async function readFilesAtRevisions(repo: string, files: readonly RevisionFile[]): Promise<(string | null)[]> {
  return (await readBlobsAtRevisions(repo, files)).map((blob) => blob?.text ?? null);
}

/** `git cat-file --batch` over `specs`, its answers written into a scratch file (`withScratchFile`). */
function catFileBatch(repo: string, specs: readonly string[]): Promise<Buffer> {
  return withScratchFile('blobs', async (path) => {
    await new Promise<void>((resolve, reject) => {
      const child = startProgram('git', ['-C', repo, 'cat-file', '--batch'], {
        env: GIT_ENV,
        stdin: 'pipe',
        stdout: { file: path },
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('error', (error: Error) => reject(new GitError(`git cat-file failed in ${repo}: ${error.message}`)));
      child.on('close', (code: number | null) => {
        if (code === 0) resolve();
        else reject(new GitError(`git cat-file failed in ${repo}: ${stderr.trim().split('\n')[0] ?? code}`));
      });
      child.stdin?.end(specs.map((spec) => `${spec}\n`).join(''));
    });
    return readFileSync(path);
  });
}

/** As `readFilesAtRevisions`, with each file's object id (what a cache of derived facts keys on). */
export async function readBlobsAtRevisions(
  repo: string,
  files: readonly RevisionFile[],
): Promise<(RevisionBlob | null)[]> {
  return (await readLazyBlobsAtRevisions(repo, files)).map((blob) => blob && { oid: blob.oid, text: blob.text() });
}

/**
 * As `readBlobsAtRevisions`, each text decoded when asked for: the method extraction decodes a
 * file as it sends it to a worker, which then starts on the first file while the rest wait.
 */
export async function readLazyBlobsAtRevisions(
  repo: string,
  files: readonly RevisionFile[],
): Promise<(LazyBlob | null)[]> {
  for (const file of files) {
    validateRef(file.revision);
    if (file.object != null && !OBJECT_ID.test(file.object)) throw new GitError(`not an object id: ${file.object}`);
  }
  const batched = files.filter((f) => !f.path.includes('\n'));
  const output = batched.length === 0 ? Buffer.alloc(0) : await catFileBatch(repo, batched.map(specOf));
  const answers = parseBatch(output, batched.length);
  const byFile = new Map(batched.map((f, i) => [f, answers[i] ?? null]));
  return Promise.all(
    files.map(async (f) => {
      if (byFile.has(f)) return byFile.get(f) ?? null;
      const text = await showFile(repo, f);
      return text === null ? null : { oid: null, bytes: Buffer.byteLength(text), text: () => text };
    }),
  );
}
