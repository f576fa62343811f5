import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blameLines, lineRanges, methodAuthor } from './blame.ts';

function commitAs(dir: string, name: string, date: string, message: string) {
  execFileSync(
    'git',
    ['-C', dir, '-c', `user.name=${name}`, '-c', `user.email=${name.toLowerCase()}@x.test`, 'commit', '-qam', message],
    {
      env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    },
  );
}

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-blame-'));
  execFileSync('git', ['-C', dir, 'init', '-q']);
  writeFileSync(join(dir, 'A.java'), 'a\nb\nc\nd\ne\n');
  execFileSync('git', ['-C', dir, 'add', '.']);
  commitAs(dir, 'Ann', '2024-01-01T10:00:00Z', 'one');
  writeFileSync(join(dir, 'A.java'), 'a\nB\nC\nd\ne\n');
  commitAs(dir, 'Bob', '2024-02-01T10:00:00Z', 'two');
  writeFileSync(join(dir, 'A.java'), 'a\nB\nC\nD\nE\n');
  commitAs(dir, 'Cy', '2024-03-01T10:00:00Z', 'three');
  return dir;
}

describe('git blame', () => {
  const dir = repo();

  it('compresses lines into -L ranges', () => {
    expect(lineRanges([9, 3, 4, 5, 4, 0])).toEqual([
      [3, 5],
      [9, 9],
    ]);
  });

  it('blames only the asked lines, with author, mail and commit time', async () => {
    const lines = await blameLines(dir, 'HEAD', 'A.java', [1, 2, 3, 5]);
    expect(lines.map((l) => [l.line, l.author, l.email])).toEqual([
      [1, 'Ann', 'ann@x.test'],
      [2, 'Bob', 'bob@x.test'],
      [3, 'Bob', 'bob@x.test'],
      [5, 'Cy', 'cy@x.test'],
    ]);
    expect(lines[0]?.committerTime).toBe(Date.parse('2024-01-01T10:00:00Z') / 1000);
    expect(lines[1]?.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('the author with most changed lines wins; a tie goes to the latest commit', async () => {
    expect(methodAuthor(await blameLines(dir, 'HEAD', 'A.java', [1, 2, 3]))).toBe('Bob <bob@x.test>');
    // Bob and Cy two lines each: Cy's commit is later.
    expect(methodAuthor(await blameLines(dir, 'HEAD', 'A.java', [2, 3, 4, 5]))).toBe('Cy <cy@x.test>');
    expect(methodAuthor([])).toBeNull();
  });

  it('refuses option-like revisions before running git', async () => {
    await expect(blameLines(dir, '--upload-pack=touch /tmp/x', 'A.java', [1])).rejects.toThrow(/refused revision/);
    await expect(blameLines(dir, 'HEAD', 'missing.java', [1])).rejects.toThrow(/git blame failed for missing.java/);
  });
});
