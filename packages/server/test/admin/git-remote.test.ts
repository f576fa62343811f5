import { type AddressInfo, createServer, type Socket } from 'node:net';
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
    // A server that accepts the connection and never answers: only the timeout can end git.
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      await expect(lsRemote(`https://127.0.0.1:${port}/repo.git`, { timeoutMs: 300 })).rejects.toThrow(
        'git ls-remote timed out after 0.3 s',
      );
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
    await expect(lsRemote('--upload-pack=touch')).rejects.toThrow('refused repository URL');
  });
});
