import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChangedFile, parseUnifiedDiff } from '../diff/unified.ts';
import { expandCopies, hasEnoughCopies, parseRawDiff, type RawChange, representatives } from './diff-copies.ts';
import { diff, diffStats } from './git.ts';

function git(dir: string, ...args: string[]): Buffer {
  return execFileSync('git', ['-C', dir, '-c', 'user.name=T', '-c', 'user.email=t@x', ...args], {
    maxBuffer: 1 << 28,
  });
}

/** What git's whole patch says, parsed: the answer `diff` must give whichever way it asks. */
function wholePatch(dir: string, base: string, head: string, ...pathspec: string[]): ChangedFile[] {
  const options = ['--no-ext-diff', '--no-textconv', '-M', '--unified=0', '--full-index'];
  return parseUnifiedDiff(git(dir, '-c', 'core.quotePath=false', 'diff', ...options, base, head, '--', ...pathspec));
}

const body = (n: number, changed: number[]) =>
  `${Array.from({ length: n }, (_, i) => (changed.includes(i) ? `changed ${i}` : `line ${i}`)).join('\n')}\n`;

/**
 * `copies` copies of one small package, changed alike between two commits: modified, added,
 * deleted, renamed, binary and mode-changed files, one copy's file changed otherwise, and files
 * no copy shares.
 */
function repoWithCopies(copies: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-copies-'));
  git(dir, 'init', '-q');
  const each = (write: (folder: string, k: number) => void) => {
    for (let k = 0; k < copies; k++) {
      const folder = join(dir, `copy ${k}`);
      mkdirSync(folder, { recursive: true });
      write(folder, k);
    }
  };
  each((folder, k) => {
    writeFileSync(join(folder, 'main.js'), body(40, []));
    writeFileSync(join(folder, 'gone.js'), body(5, []));
    writeFileSync(join(folder, 'old name.js'), body(30, []));
    writeFileSync(join(folder, 'run.sh'), 'echo\n');
    writeFileSync(join(folder, 'image.bin'), Buffer.from([0, 1, 2, 0, 255]));
    writeFileSync(join(folder, 'own.js'), body(10, [k]));
  });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');
  each((folder, k) => {
    writeFileSync(join(folder, 'main.js'), body(42, k === 3 ? [1, 2] : [5, 6, 30]));
    rmSync(join(folder, 'gone.js'));
    rmSync(join(folder, 'old name.js'));
    writeFileSync(join(folder, 'new name.js'), body(30, [29]));
    writeFileSync(join(folder, 'added.ts'), body(3, []));
    chmodSync(join(folder, 'run.sh'), 0o755);
    writeFileSync(join(folder, 'image.bin'), Buffer.from([0, 1, 2, 0, 254]));
    writeFileSync(join(folder, 'own.js'), body(12, [k, 11]));
  });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'head');
  return dir;
}

describe('a diff with copies of the same changes', () => {
  it('asks git for one of each and answers exactly as the whole patch', async () => {
    const dir = repoWithCopies(20);
    const files = await diff(dir, 'HEAD~1', 'HEAD');
    expect(files).toEqual(wholePatch(dir, 'HEAD~1', 'HEAD'));
    // git pairs a few of the copies' deletions and additions as renames and leaves the rest.
    expect(new Set(files.map((f) => f.status))).toEqual(new Set(['modified', 'added', 'deleted', 'renamed']));
    expect(diffStats.files).toBe(files.length);
    expect(diffStats.patched).toBeLessThan(files.length / 4);
    const renamed = files.filter((f) => f.status === 'renamed' && f.path.endsWith('/new name.js'));
    expect(renamed.length).toBeGreaterThan(1);
    for (const file of renamed)
      expect(file).toMatchObject({ oldPath: expect.stringMatching(/old name.js$/), lines: [30] });
    // A copy's lists are its own, not its representative's.
    const [first, second] = files.filter((f) => f.path.endsWith('/main.js') && !f.path.startsWith('copy 3/'));
    expect(first?.lines).not.toBe(second?.lines);
  });

  it('keeps apart a copy its .gitattributes makes binary, and works from a folder of the repository', async () => {
    const dir = repoWithCopies(20);
    await diff(dir, 'HEAD~1', 'HEAD');
    const { patched } = diffStats;
    writeFileSync(join(dir, '.gitattributes'), '"copy 7/main.js" -diff\n');
    const files = await diff(join(dir, 'copy 2'), 'HEAD~1', 'HEAD');
    expect(files).toEqual(wholePatch(dir, 'HEAD~1', 'HEAD'));
    expect(files.find((f) => f.path === 'copy 7/main.js')).toMatchObject({ binary: true, lines: [] });
    expect(files.find((f) => f.path === 'copy 8/main.js')).toMatchObject({ binary: false, lines: [6, 7, 31, 41, 42] });
    expect(diffStats.patched).toBe(patched + 1);
  });

  it('asks for the whole patch when copies are few, and within a scope', async () => {
    const few = repoWithCopies(2);
    const whole = wholePatch(few, 'HEAD~1', 'HEAD');
    expect(await diff(few, 'HEAD~1', 'HEAD')).toEqual(whole);
    expect(diffStats).toEqual({ files: whole.length, patched: whole.length });
    const many = repoWithCopies(20);
    const scoped = await diff(many, 'HEAD~1', 'HEAD', 'copy 4');
    expect(scoped.map((f) => f.path).every((path) => path.startsWith('copy 4/'))).toBe(true);
    expect(scoped).toEqual(wholePatch(many, 'HEAD~1', 'HEAD', 'copy 4'));
  });
});

describe('git diff --raw -z', () => {
  const id = (c: string) => c.repeat(40);
  it('reads modifications, additions, deletions and renames with their object ids', () => {
    const raw = [
      `:100644 100755 ${id('a')} ${id('b')} M`,
      'dir/x y.js',
      `:000000 100644 ${id('0')} ${id('c')} A`,
      'new\nline.js',
      `:100644 000000 ${id('d')} ${id('0')} D`,
      'gone.js',
      `:100644 100644 ${id('e')} ${id('f')} R087`,
      'from.js',
      'to.js',
      '',
    ].join('\0');
    expect(parseRawDiff(raw)).toEqual([
      {
        key: `100644 100755 ${id('a')} ${id('b')} M`,
        status: 'M',
        path: 'dir/x y.js',
        oldPath: null,
        objects: { base: id('a'), head: id('b') },
      },
      {
        key: `000000 100644 ${id('0')} ${id('c')} A`,
        status: 'A',
        path: 'new\nline.js',
        oldPath: null,
        objects: { base: null, head: id('c') },
      },
      {
        key: `100644 000000 ${id('d')} ${id('0')} D`,
        status: 'D',
        path: 'gone.js',
        oldPath: null,
        objects: { base: id('d'), head: null },
      },
      {
        key: `100644 100644 ${id('e')} ${id('f')} R087`,
        status: 'R',
        path: 'to.js',
        oldPath: 'from.js',
        objects: { base: id('e'), head: id('f') },
      },
    ]);
    expect(() => parseRawDiff('diff --git a/x b/x\0')).toThrow(/unexpected git diff --raw line/);
  });
});

describe('copies from their representatives', () => {
  const change = (path: string, key = 'k'): RawChange => ({
    key,
    status: 'M',
    path,
    oldPath: null,
    objects: { base: 'a'.repeat(40), head: 'b'.repeat(40) },
  });
  const patched = (path: string, status: ChangedFile['status'] = 'modified'): ChangedFile => ({
    path,
    oldPath: null,
    status,
    binary: false,
    lines: [2],
    hunks: [{ oldStart: 2, oldCount: 1, newStart: 2, newCount: 1 }],
    deletions: [],
    diffCoverShiftFrom: null,
    objects: { base: 'a'.repeat(40), head: 'b'.repeat(40) },
  });
  const changes = Array.from({ length: 20 }, (_, k) => change(`copy-${k}/x.js`));

  it('counts as worth it only from 16 copies and a quarter of the files', () => {
    expect(hasEnoughCopies(changes)).toBe(true);
    expect(hasEnoughCopies(changes.slice(0, 16))).toBe(false);
    expect(
      hasEnoughCopies([...changes, ...Array.from({ length: 60 }, (_, k) => change(`other-${k}.js`, `k${k}`))]),
    ).toBe(false);
  });

  it('refuses a patch that does not say what the raw list did, or says more', () => {
    expect(expandCopies(changes, [patched('copy-0/x.js')])?.map((f) => f.path)).toEqual(changes.map((c) => c.path));
    expect(expandCopies(changes, [patched('copy-0/x.js', 'added')])).toBeNull();
    expect(expandCopies(changes, [patched('copy-1/x.js')])).toBeNull();
    expect(expandCopies(changes, [patched('copy-0/x.js'), patched('elsewhere.js')])).toBeNull();
  });

  it('folds each side’s diff attribute into the groups, and gives up without them', () => {
    const own = changes.map((c) => ({ ...c }));
    const pathspecs = representatives(own, new Map([['copy-5/x.js', 'unset']]));
    expect(pathspecs).toEqual({ renames: [], others: [':(top,literal)copy-0/x.js', ':(top,literal)copy-5/x.js'] });
    expect(
      representatives(
        changes.map((c) => ({ ...c })),
        null,
      ),
    ).toBeNull();
  });
});
