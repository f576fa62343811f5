import { runGit, validateRef } from './git.ts';

/** What one `git rev-parse` tells of a repository and of commits in it (see repositoryFacts). */
export interface RepositoryFacts {
  /** `--show-cdup` and `--show-prefix`, as repositoryPlace reads them. */
  cdup: string;
  prefix: string;
  /** What `rev-parse --absolute-git-dir --is-bare-repository HEAD` prints, as repositoryFingerprint reads it. */
  where: string;
  /** The refs' full commit shas, in order. */
  commits: string[];
  /** HEAD's commit. */
  checkedOut: string;
}

const SHA = /^[0-9a-f]{40,64}$/;

/**
 * The answers of repositoryPlace's, repositoryFingerprint's and resolveCommits' `git rev-parse`s,
 * from one: starting a process holds the calling thread ~10 ms. Null when that one fails (a refused
 * or unknown revision, no HEAD yet) or answers in an unexpected shape: each then asks on its own,
 * for its own answer or error.
 */
export async function repositoryFacts(repo: string, refs: readonly string[]): Promise<RepositoryFacts | null> {
  try {
    for (const ref of refs) validateRef(ref);
    const args = ['rev-parse', '--show-cdup', '--show-prefix', '--absolute-git-dir', '--is-bare-repository'];
    const out = await runGit(repo, [...args, '--end-of-options', 'HEAD', ...refs.map((r) => `${r}^{commit}`), '--']);
    // Read from the end: a bare repository prints no --show-cdup line.
    const lines = out.split('\n');
    if (lines.pop() !== '' || lines.pop() !== '--') return null;
    const shas = lines.splice(lines.length - refs.length - 1);
    if (lines.at(-1) === '--end-of-options') lines.pop();
    const [bare, gitDir] = [lines.pop(), lines.pop()];
    if (!shas.every((sha) => SHA.test(sha)) || (bare !== 'true' && bare !== 'false') || !gitDir || lines.length > 2) {
      return null;
    }
    const [cdup, prefix] = lines.length === 2 ? (lines as [string, string]) : ['', lines[0] ?? ''];
    return {
      cdup,
      prefix,
      where: `${gitDir}\n${bare}\n${shas[0]}\n`,
      commits: shas.slice(1),
      checkedOut: shas[0] as string,
    };
  } catch {
    return null;
  }
}
