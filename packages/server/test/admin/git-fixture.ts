import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.test',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.test',
};

export function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], {
    env: GIT_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A repository on disk with a `main` branch and the given extra branches, one commit each. */
export function makeRepo(branches: string[] = []): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'sx-admin-repo-'));
  git(path, 'init', '-q', '-b', 'main');
  git(path, 'commit', '-q', '--allow-empty', '-m', 'first');
  for (const branch of branches) {
    git(path, 'checkout', '-q', '-b', branch, 'main');
    git(path, 'commit', '-q', '--allow-empty', '-m', branch);
  }
  git(path, 'checkout', '-q', 'main');
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
