import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { changesCacheStats } from './changes-cache.ts';
import { isAncestor, listFiles } from './git.ts';
import { changesBetweenCommits } from './revision-changes.ts';

const repo = mkdtempSync(join(tmpdir(), 'sextant-changes-cache-'));
const cacheDir = mkdtempSync(join(tmpdir(), 'sextant-changes-cache-dir-'));
afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

function git(...args: string[]): string {
  return execFileSync('git', ['-C', repo, '-c', 'user.name=Ann', '-c', 'user.email=ann@x.test', ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@x.test' },
  }).trim();
}

function commit(text: string): string {
  writeFileSync(join(repo, 'calc.py'), text);
  git('add', '-A');
  git('commit', '-qm', 'change');
  return git('rev-parse', 'HEAD');
}

git('init', '-q');
const first = commit('def one(x):\n    return x\n\n\ndef two(x):\n    return x\n');
const second = commit('def one(x):\n    return x + 1\n\n\ndef two(x):\n    return x\n');
const third = commit('def one(x):\n    return x + 1\n\n\ndef two(x):\n    return x * 2\n');

const cached = () => changesBetweenCommits(repo, first, second, { cacheDir, workers: 0 });
const entries = () => readdirSync(join(cacheDir, 'changes')).filter((name) => name.endsWith('.v8'));

describe('the changes cache', () => {
  beforeEach(() => {
    rmSync(join(cacheDir, 'changes'), { recursive: true, force: true });
    rmSync(join(repo, '.git', 'info', 'attributes'), { force: true });
  });

  it('answers a second run over the same commits from the cache, with what git answered', async () => {
    const asked = await cached();
    expect(changesCacheStats.hit).toBe(false);
    expect(asked.changedMethods.map((m) => [m.name, m.changedLines])).toEqual([['one', [2]]]);
    expect(asked.authors).toEqual(['Ann <ann@x.test>']);
    const kept = await cached();
    expect(changesCacheStats.hit).toBe(true);
    expect(kept).toEqual(asked);
    expect(entries()).toHaveLength(1);
  });

  it('keeps each commit pair apart', async () => {
    await cached();
    const other = await changesBetweenCommits(repo, second, third, { cacheDir, workers: 0 });
    expect(changesCacheStats.hit).toBe(false);
    expect(other.changedMethods.map((m) => m.name)).toEqual(['two']);
    expect(entries()).toHaveLength(2);
  });

  it('asks git again when an attribute file changes what git diffs', async () => {
    expect((await cached()).changed[0]?.binary).toBe(false);
    writeFileSync(join(repo, '.git', 'info', 'attributes'), '*.py -diff\n');
    const again = await cached();
    expect(changesCacheStats.hit).toBe(false);
    expect(again.changed[0]?.binary).toBe(true);
    expect(again.changedMethods).toEqual([]);
  });

  it('asks git again when the configuration changes, here the mailmap that names authors', async () => {
    await cached();
    const mailmap = join(repo, 'people.mailmap');
    writeFileSync(mailmap, 'Bea <bea@x.test> Ann <ann@x.test>\n');
    git('config', 'mailmap.file', mailmap);
    try {
      const again = await cached();
      expect(changesCacheStats.hit).toBe(false);
      expect(again.authors).toEqual(['Bea <bea@x.test>']);
    } finally {
      git('config', '--unset', 'mailmap.file');
    }
  });

  it('keeps nothing while the mailmap comes from a configured blob, which moves with its ref', async () => {
    git('config', 'mailmap.blob', 'HEAD:.mailmap');
    try {
      await cached();
      await cached();
      expect(changesCacheStats.hit).toBe(false);
    } finally {
      git('config', '--unset', 'mailmap.blob');
    }
    await cached();
    expect(changesCacheStats.hit).toBe(false);
    await cached();
    expect(changesCacheStats.hit).toBe(true);
  });

  it('takes a damaged entry for a miss and writes it again', async () => {
    const asked = await cached();
    const [entry] = entries();
    writeFileSync(join(cacheDir, 'changes', entry as string), 'not a serialized value');
    expect(await cached()).toEqual(asked);
    expect(changesCacheStats.hit).toBe(false);
    expect(await cached()).toEqual(asked);
    expect(changesCacheStats.hit).toBe(true);
  });

  it('keeps the ancestry and the head commit’s files the caller gives, for a run that then asks git neither', async () => {
    const headFiles = listFiles(repo, second);
    const pairFacts = { ancestry: isAncestor(repo, first, second), headFiles };
    const asked = await changesBetweenCommits(repo, first, second, { cacheDir, workers: 0, ...pairFacts });
    expect(asked.headFiles).toBeUndefined();
    const kept = await cached();
    expect(changesCacheStats.hit).toBe(true);
    expect(kept).toEqual({ ...asked, baseIsAncestor: true, headFiles: ['calc.py'] });
    // Kept files that are not all strings make the entry a miss.
    const [entry] = entries();
    writeFileSync(join(cacheDir, 'changes', entry as string), serialize({ ...kept, headFiles: ['calc.py', 7] }));
    expect(await cached()).toEqual(asked);
    expect(changesCacheStats.hit).toBe(false);
  });

  it('keeps nothing without a cache folder', async () => {
    await changesBetweenCommits(repo, first, second, { workers: 0 });
    expect(changesCacheStats.hit).toBe(false);
    expect(readdirSync(cacheDir)).not.toContain('changes');
  });
});
