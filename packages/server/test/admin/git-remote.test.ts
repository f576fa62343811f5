import { describe, expect, it } from 'vitest';
import { lsRemote } from '../../src/modules/apps/git-remote.ts';
import { git, makeRepo } from './git-fixture.ts';

describe('lsRemote', () => {
  it('lists heads only when asked, as git lists them', async () => {
    const repo = makeRepo(['topic']);
    try {
      const heads = await lsRemote(repo.path, { heads: true });
      const expected = git(repo.path, 'for-each-ref', '--format=%(objectname)\t%(refname)', 'refs/heads')
        .trim()
        .split('\n')
        .map((line) => {
          const [commit, name] = line.split('\t');
          return { commit, name };
        });
      expect(heads).toEqual(expected);
    } finally {
      repo.remove();
    }
  });

  it('gives up after its timeout and refuses unsafe URLs without running git', async () => {
    const repo = makeRepo();
    try {
      await expect(lsRemote(repo.path, { timeoutMs: 1 })).rejects.toThrow('git ls-remote timed out after 0.001 s');
    } finally {
      repo.remove();
    }
    await expect(lsRemote('--upload-pack=touch')).rejects.toThrow('refused repository URL');
  });
});
