import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryFingerprint } from './changes-cache.ts';
import { repositoryPlace, resolveCommits, runGit } from './git.ts';
import { repositoryFacts } from './repository-facts.ts';

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'user.name=T', '-c', 'user.email=t@x', ...args], { encoding: 'utf8' });
}

/** A repository of two commits with a tracked folder `pkg`. */
function twoCommits(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-facts-'));
  git(dir, 'init', '-q');
  mkdirSync(join(dir, 'pkg'));
  writeFileSync(join(dir, 'pkg', 'a.txt'), '1\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'one');
  writeFileSync(join(dir, 'pkg', 'a.txt'), '2\n');
  git(dir, 'commit', '-qam', 'two');
  return dir;
}

/** What the three separate `git rev-parse`s answer, which the one must equal. */
async function separately(dir: string, refs: string[]) {
  const [cdup = '', prefix = ''] = (await runGit(dir, ['rev-parse', '--show-cdup', '--show-prefix'])).split('\n');
  return {
    cdup,
    prefix,
    where: await runGit(dir, ['rev-parse', '--absolute-git-dir', '--is-bare-repository', 'HEAD']),
    commits: await resolveCommits(dir, refs),
  };
}

describe('repositoryFacts', () => {
  const dir = twoCommits();

  it('answers as the separate rev-parses do: at the top, in a folder, in a bare repository', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'sextant-facts-bare-'));
    git(bare, 'clone', '-q', '--bare', dir, '.');
    for (const where of [dir, join(dir, 'pkg'), bare]) {
      const facts = await repositoryFacts(where, ['HEAD~1', 'HEAD']);
      const commits = await resolveCommits(where, ['HEAD~1', 'HEAD']);
      expect(facts).toEqual({ ...(await separately(where, ['HEAD~1', 'HEAD'])), checkedOut: commits[1] });
      expect(await repositoryPlace(where, Promise.resolve(facts))).toEqual(await repositoryPlace(where));
      const fingerprint = await repositoryFingerprint(where, Promise.resolve(facts?.where ?? null));
      expect(fingerprint).toBe(await repositoryFingerprint(where));
    }
    expect((await repositoryFacts(join(dir, 'pkg'), ['HEAD']))?.prefix).toBe('pkg/');
    expect(await repositoryFingerprint(dir)).toMatch(/^[0-9a-f]{40}$/);
  });

  it('gives nothing where one of the separate asks would fail, so each asks on its own', async () => {
    expect(await repositoryFacts(dir, ['HEAD', 'no-such-branch'])).toBeNull();
    expect(await repositoryFacts(dir, ['--upload-pack=touch /tmp/pwned'])).toBeNull();
    expect(await repositoryFacts(tmpdir(), ['HEAD'])).toBeNull();
    const unborn = mkdtempSync(join(tmpdir(), 'sextant-facts-unborn-'));
    git(unborn, 'init', '-q');
    expect(await repositoryFacts(unborn, [])).toBeNull();
    // Unborn HEAD: the place is still found, by its own rev-parse.
    expect(await repositoryPlace(unborn, repositoryFacts(unborn, []))).toMatchObject({ prefix: '', scope: '' });
  });
});
