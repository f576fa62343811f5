import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diff, isAncestor, listFiles, mergeBase, rangeHistory, resolveCommit, resolveCommits } from './git.ts';
import { readBlobsAtRevisions } from './revision-source.ts';

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-git-'));
  const g = (...a: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=T', '-c', 'user.email=t@x', ...a]);
  g('init', '-q');
  writeFileSync(join(dir, 'a.txt'), '1\n2\n3\n');
  writeFileSync(join(dir, 'gone.txt'), 'x\n');
  writeFileSync(join(dir, 'old.txt'), 'keep\nthis\ncontent\nhere\n');
  g('add', '.');
  g('commit', '-qm', 'one');
  writeFileSync(join(dir, 'a.txt'), '1\nTWO\n3\n4\n');
  writeFileSync(join(dir, 'bin.dat'), Buffer.from([0, 1, 2, 0, 255]));
  g('rm', '-q', 'gone.txt');
  g('mv', 'old.txt', 'new.txt');
  g('add', '.');
  g('commit', '-qm', 'two');
  return dir;
}

describe('git adapter', () => {
  const dir = repo();
  it('diffs two revisions: modified, deleted, renamed, binary', async () => {
    const files = await diff(dir, 'HEAD~1', 'HEAD');
    const by = new Map(files.map((f) => [f.path, f]));
    expect(by.get('a.txt')).toMatchObject({ status: 'modified', lines: [2, 4] });
    expect(by.get('gone.txt')).toMatchObject({ status: 'deleted' });
    expect(by.get('new.txt')).toMatchObject({ status: 'renamed', oldPath: 'old.txt', lines: [] });
    expect(by.get('bin.dat')).toMatchObject({ binary: true, lines: [] });
  });
  it('reads non-ASCII paths and lines as UTF-8', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sextant-git-utf8-'));
    const g = (...a: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=T', '-c', 'user.email=t@x', ...a]);
    g('init', '-q');
    mkdirSync(join(dir, 'café'));
    writeFileSync(join(dir, 'café', 'naïve.txt'), 'un\n');
    g('add', '.');
    g('commit', '-qm', 'one');
    writeFileSync(join(dir, 'café', 'naïve.txt'), 'un\ndeux — zwei\n');
    g('commit', '-qam', 'two');
    expect(await diff(dir, 'HEAD~1', 'HEAD')).toMatchObject([{ path: 'café/naïve.txt', lines: [2] }]);
  });
  it('reads paths git writes with a trailing tab or in quotes: spaces, quotes, tabs, backslashes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sextant-git-names-'));
    const g = (...a: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=T', '-c', 'user.email=t@x', ...a]);
    g('init', '-q');
    const names = ['dir with space/a b.js', 'say "hi".js', 'tab\there.js', 'back\\slash.js', 'plain.js'];
    mkdirSync(join(dir, 'dir with space'));
    for (const name of names) writeFileSync(join(dir, name), 'one\n');
    writeFileSync(join(dir, 'moved from.js'), 'keep\nthis\ncontent\nhere\n');
    g('add', '.');
    g('commit', '-qm', 'one');
    for (const name of names) writeFileSync(join(dir, name), 'one\ntwo\n');
    g('mv', 'moved from.js', 'moved "to".js');
    g('commit', '-qam', 'two');
    const files = await diff(dir, 'HEAD~1', 'HEAD');
    expect(files.map((f) => [f.path, f.lines]).sort()).toEqual(
      [...names.map((name) => [name, [2]]), ['moved "to".js', []]].sort(),
    );
    expect(files.find((f) => f.status === 'renamed')?.oldPath).toBe('moved from.js');
  });
  it('names a revision it cannot find, and says when the clone is shallow', async () => {
    await expect(resolveCommits(dir, ['HEAD', 'HEAD~7'])).rejects.toThrow(new RegExp(`^no commit "HEAD~7" in ${dir}$`));
    const shallow = mkdtempSync(join(tmpdir(), 'sextant-git-shallow-'));
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${dir}`, shallow]);
    const failure = resolveCommits(shallow, ['HEAD~1', 'HEAD']);
    await expect(failure).rejects.toThrow(/^no commit "HEAD~1" in .*shallow clone.*--unshallow/);
    expect(await resolveCommits(shallow, ['HEAD'])).toEqual([await resolveCommit(dir, 'HEAD')]);
  });
  it('finds where two branches split, and says when their histories share no commit', async () => {
    const own = mkdtempSync(join(tmpdir(), 'sextant-git-split-'));
    const g = (...a: string[]) =>
      execFileSync('git', ['-C', own, '-c', 'user.name=T', '-c', 'user.email=t@x', ...a], { encoding: 'utf8' });
    g('init', '-q', '-b', 'main');
    g('commit', '-q', '--allow-empty', '-m', 'root');
    const root = g('rev-parse', 'HEAD').trim();
    g('checkout', '-qb', 'topic');
    g('commit', '-q', '--allow-empty', '-m', 'topic');
    g('checkout', '-q', 'main');
    g('commit', '-q', '--allow-empty', '-m', 'main moves on');
    expect(await mergeBase(own, 'main', 'topic')).toBe(root);
    g('checkout', '-q', '--orphan', 'unrelated');
    g('commit', '-q', '--allow-empty', '-m', 'no parent');
    await expect(mergeBase(own, 'main', 'unrelated')).rejects.toThrow(/^main and unrelated share no commit in /);
  });
  it('leaves no file of the diff behind, whether git succeeds or fails', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'sextant-tmp-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    try {
      expect((await diff(dir, 'HEAD~1', 'HEAD')).length).toBe(4);
      await expect(diff(dir, 'HEAD~1', 'f'.repeat(40))).rejects.toThrow(/git diff failed/);
      expect(readdirSync(temp)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });
  it('resolves full shas and lists files', async () => {
    expect(await resolveCommit(dir, 'HEAD')).toMatch(/^[0-9a-f]{40}$/);
    expect((await listFiles(dir, 'HEAD')).sort()).toEqual(['a.txt', 'bin.dat', 'new.txt']);
  });
  it('resolves several refs with one git call, and knows ancestry and the range’s authors', async () => {
    const [older, newer] = await resolveCommits(dir, ['HEAD~1', 'HEAD']);
    expect(newer).toBe(await resolveCommit(dir, 'HEAD'));
    expect(older).not.toBe(newer);
    await expect(resolveCommits(dir, ['HEAD', 'nope'])).rejects.toThrow(/^no commit "nope" in /);
    expect(await isAncestor(dir, older as string, newer as string)).toBe(true);
    expect(await isAncestor(dir, newer as string, older as string)).toBe(false);
    const history = await rangeHistory(dir, older as string, newer as string);
    expect([...history.authors]).toEqual(['T <t@x>']);
    // One author says it all: no second git log for the files.
    expect(history.fileAuthors.size).toBe(0);
  });
  it('names each file’s writers when several people wrote the range', async () => {
    const own = repo();
    const older = await resolveCommit(own, 'HEAD');
    const as = (name: string, ...args: string[]) =>
      execFileSync('git', ['-C', own, '-c', `user.name=${name}`, '-c', `user.email=${name}@x`, ...args], {
        env: { ...process.env, GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: `${name}@x` },
      });
    writeFileSync(join(own, 'a.txt'), '1\nTWO\n3\n4\n5\n');
    writeFileSync(join(own, 'c.txt'), 'c\n');
    as('U', 'add', '.');
    as('U', 'commit', '-qm', 'three');
    writeFileSync(join(own, 'a.txt'), '1\nTWO\n3\n4\n5\n6\n');
    writeFileSync(join(own, 'new.txt'), 'keep\nthis\ncontent\nhere\ntoo\n');
    as('V', 'commit', '-qam', 'four');
    const history = await rangeHistory(own, older, await resolveCommit(own, 'HEAD'));
    expect([...history.authors].sort()).toEqual(['U <U@x>', 'V <V@x>']);
    // Only a file modified in place keeps its writers; an added one is left to blame.
    expect(Object.fromEntries([...history.fileAuthors].map(([path, who]) => [path, who && [...who].sort()]))).toEqual({
      'a.txt': ['U <U@x>', 'V <V@x>'],
      'c.txt': null,
      'new.txt': ['V <V@x>'],
    });
  });
  it('refuses an option passed as a revision before git runs', async () => {
    await expect(resolveCommit(dir, '--upload-pack=touch /tmp/pwned')).rejects.toThrow(/refused revision/);
    await expect(resolveCommit(dir, 'nope')).rejects.toThrow(/^no commit "nope" in /);
  });
  it('refuses a range where one commit is wanted (rev-parse would print both ends)', async () => {
    for (const range of ['HEAD~1..HEAD', 'HEAD~1...HEAD', '..HEAD', 'HEAD^!', 'HEAD^@', 'HEAD^-1']) {
      await expect(resolveCommits(dir, ['HEAD', range])).rejects.toThrow(
        `refused revision "${range}": a range, where one commit is wanted`,
      );
    }
    // Past the check, the answer is still read strictly: one commit line per ref.
    expect(await resolveCommits(dir, ['HEAD~1', 'HEAD^{commit}'])).toHaveLength(2);
  });
  it('reads files by the object ids the diff names, the same as by revision and path', async () => {
    const [old, changed] = (await diff(dir, 'HEAD~1', 'HEAD'))
      .filter((f) => f.path === 'a.txt')
      .map((f) => [
        { revision: 'HEAD~1', path: 'a.txt', object: f.objects?.base },
        { revision: 'HEAD', path: 'a.txt', object: f.objects?.head },
      ])[0] as [{ revision: string; path: string; object: string }, { revision: string; path: string; object: string }];
    expect(old.object).toMatch(/^[0-9a-f]{40}$/);
    const byObject = await readBlobsAtRevisions(dir, [old, changed]);
    const byPath = await readBlobsAtRevisions(dir, [
      { revision: 'HEAD~1', path: 'a.txt' },
      { revision: 'HEAD', path: 'a.txt' },
    ]);
    expect(byObject.map((b) => b?.text)).toEqual(['1\n2\n3\n', '1\nTWO\n3\n4\n']);
    expect(byObject).toEqual(byPath);
    await expect(readBlobsAtRevisions(dir, [{ ...old, object: 'HEAD:a.txt' }])).rejects.toThrow(/not an object id/);
    expect(await readBlobsAtRevisions(dir, [{ ...old, object: 'f'.repeat(40) }])).toEqual([null]);
  });
  it('reads more than a pipe holds through a scratch file it removes, also when git fails', async () => {
    const big = mkdtempSync(join(tmpdir(), 'sextant-git-big-'));
    execFileSync('git', ['-C', big, 'init', '-q']);
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} ${'é'.repeat(i % 7)}`).join('\n');
    writeFileSync(join(big, 'big.txt'), lines);
    execFileSync('git', ['-C', big, '-c', 'user.name=T', '-c', 'user.email=t@x', 'add', '.']);
    execFileSync('git', ['-C', big, '-c', 'user.name=T', '-c', 'user.email=t@x', 'commit', '-qm', 'big']);
    const scratch = mkdtempSync(join(tmpdir(), 'sextant-git-scratch-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    try {
      const [blob, again] = await readBlobsAtRevisions(big, [
        { revision: 'HEAD', path: 'big.txt' },
        { revision: 'HEAD', path: 'big.txt' },
      ]);
      expect(Buffer.byteLength(lines)).toBeGreaterThan(256 * 1024);
      expect(blob?.text).toBe(lines);
      expect(again).toEqual(blob);
      await expect(readBlobsAtRevisions(scratch, [{ revision: 'HEAD', path: 'big.txt' }])).rejects.toThrow(
        /git cat-file failed/,
      );
      expect(readdirSync(scratch)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });
});
