import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseCoverage } from '@sextant/coverage';
import { afterAll, describe, expect, it } from 'vitest';
import { diffCoverage } from '../figures/diff-coverage.ts';
import { blameLines, methodAuthor } from './blame.ts';
import { revisionChanges } from './revision-changes.ts';

const repo = mkdtempSync(join(tmpdir(), 'sextant-rename-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

function commit(files: Record<string, string | null>, message: string): string {
  for (const [path, text] of Object.entries(files)) {
    if (text === null) execFileSync('git', ['-C', repo, 'rm', '-q', path]);
    else {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), text);
    }
  }
  const env = { ...process.env, GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@x.test' };
  execFileSync('git', ['-C', repo, 'add', '-A']);
  execFileSync('git', ['-C', repo, '-c', 'user.name=Ann', '-c', 'user.email=ann@x.test', 'commit', '-qm', message], {
    env,
  });
  return execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
}

const PADDING = '\n# padding so git sees a rename\n'.repeat(8);
const OLD = `def keep(x):\n    return x\n\n\ndef change(x):\n    return x + 1\n${PADDING}`;
const NEW = `def keep(x):\n    return x\n\n\ndef change(x):\n    return x + 2\n${PADDING}`;

describe('diffCoverage across a rename', () => {
  execFileSync('git', ['-C', repo, 'init', '-q']);
  const base = commit({ 'old/calc.py': OLD, 'gone.py': 'def bye():\n    pass\n' }, 'one');
  const head = commit({ 'old/calc.py': null, 'new/calc.py': NEW, 'gone.py': null }, 'two');
  // coverage.py's LCOV for the head revision: change() ran, its new line too.
  const coverage = parseCoverage('SF:new/calc.py\nDA:1,1\nDA:2,0\nDA:5,1\nDA:6,1\nend_of_record\n', { format: 'lcov' });

  it('reads the base methods from the old path, so a renamed file’s methods are modified, not added', async () => {
    const result = diffCoverage(await revisionChanges(repo, base, head), coverage);
    expect(result.files.map((f) => [f.path, f.status, f.covered, f.total])).toEqual([['new/calc.py', 'renamed', 1, 1]]);
    expect(result.incremental.methods.map((m) => [m.file, m.name, m.status, m.changedLines, m.covered])).toEqual([
      ['new/calc.py', 'change', 'modified', [6], true],
    ]);
    expect(result.authors).toEqual(['Ann <ann@x.test>']);
    expect(result.lines).toMatchObject({ covered: 1, total: 1 });
  });
});

/** git in `dir` as `name` (author and committer, `name@x.test`); its output trimmed. */
function gitAs(dir: string, name: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', `user.name=${name}`, '-c', `user.email=${name}@x.test`, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: `${name}@x.test` },
  }).trim();
}

describe('revisionChanges on deleted lines and several authors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-deleted-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const at = (name: string, ...args: string[]) => gitAs(dir, name, ...args);
  const save = (name: string, text: string, message: string) => {
    writeFileSync(join(dir, 'calc.py'), text);
    at(name, 'add', 'calc.py');
    at(name, 'commit', '-qm', message);
    return at(name, 'rev-parse', 'HEAD');
  };
  at('Ann', 'init', '-q');
  const one = 'def shrink(x):\n    a = 1\n    b = 2\n    return x\n\n\ndef grow(x):\n    return x\n';
  const base = save('Ann', one, 'one');
  const mid = save('Bob', one.replace('    b = 2\n', ''), 'Bob removes a line');
  const head = save('Cy', one.replace('    b = 2\n', '').replace('return x\n', 'return x + 1\n'), 'Cy edits');

  // After head, Dan removes a line of shrink and Eve changes grow: two people wrote calc.py in head..tail.
  const danText = 'def shrink(x):\n    return x + 1\n\n\ndef grow(x):\n    return x\n';
  save('Dan', danText, 'Dan removes another line');
  const tail = save('Eve', danText.replace('return x\n', 'return -x\n'), 'Eve edits grow');

  it('counts a method that only lost lines as modified, the range’s one author its author', async () => {
    const changes = await revisionChanges(dir, base, mid);
    expect(changes.changed[0]?.deletions).toEqual([{ after: 2, oldStart: 3, count: 1 }]);
    expect(changes.changedMethods.map((m) => [m.name, m.status, m.changedLines])).toEqual([['shrink', 'modified', []]]);
    expect(changes.authors).toEqual(['Bob <Bob@x.test>']);
  });

  it('leaves a method that only lost lines without an author when several people changed its file', async () => {
    const changes = await revisionChanges(dir, head, tail);
    expect(changes.changedMethods.map((m) => [m.name, m.status, m.changedLines])).toEqual([
      ['shrink', 'modified', []],
      ['grow', 'modified', [6]],
    ]);
    expect(changes.authors).toEqual([null, 'Eve <Eve@x.test>']);
  });

  it('blames each changed method when several people wrote the range', async () => {
    const changes = await revisionChanges(dir, base, head);
    expect(changes.changedMethods.map((m) => [m.name, m.changedLines])).toEqual([['shrink', [3]]]);
    expect(changes.authors).toEqual(['Cy <Cy@x.test>']);
  });

  it('blames the whole history when base is no ancestor of head', async () => {
    const changes = await revisionChanges(dir, head, base);
    expect(changes.changedMethods.map((m) => [m.name, m.status, m.changedLines])).toEqual([
      ['shrink', 'modified', [3, 4]],
    ]);
    expect(changes.authors).toEqual(['Ann <Ann@x.test>']);
  });
});

describe('revisionChanges on copies of one file', () => {
  const copies = mkdtempSync(join(tmpdir(), 'sextant-copies-'));
  afterAll(() => rmSync(copies, { recursive: true, force: true }));
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', copies, '-c', 'user.name=Ann', '-c', 'user.email=ann@x.test', ...args], {
      encoding: 'utf8',
    }).trim();
  const put = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(copies, path)), { recursive: true });
      writeFileSync(join(copies, path), text);
    }
    git('add', '-A');
    git('commit', '-qm', 'step');
    return git('rev-parse', 'HEAD');
  };
  const ONE = 'def f(x):\n    return x\n';
  const TWO = 'def f(x):\n    return x + 1\n\n\ndef g():\n    return 2\n';
  const OTHER = 'def f(x):\n    return x\n\n\ndef g():\n    return 1\n';

  it('gives each copy its own entries, the same as a file of its own, and tells different bases apart', async () => {
    git('init', '-q');
    const base = put({ 'a/m.py': ONE, 'b/m.py': ONE, 'c/m.py': OTHER });
    const head = put({ 'a/m.py': TWO, 'b/m.py': TWO, 'c/m.py': TWO });
    const changes = await revisionChanges(copies, base, head);
    expect(changes.changedMethods.map((m) => [m.file, m.name, m.status, m.changedLines])).toEqual([
      ['a/m.py', 'f', 'modified', [2]],
      ['a/m.py', 'g', 'added', [5, 6]],
      ['b/m.py', 'f', 'modified', [2]],
      ['b/m.py', 'g', 'added', [5, 6]],
      ['c/m.py', 'f', 'modified', [2]],
      ['c/m.py', 'g', 'modified', [6]],
    ]);
    expect(changes.headMethods.get('b/m.py')).toEqual(changes.headMethods.get('a/m.py'));
  });
});

describe('authors of a range several people wrote', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-authors-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const as = (name: string, ...args: string[]) => gitAs(dir, name, ...args);
  const save = (name: string, files: Record<string, string | null>) => {
    for (const [path, text] of Object.entries(files)) {
      if (text === null) as(name, 'rm', '-q', path);
      else writeFileSync(join(dir, path), text);
    }
    as(name, 'add', '-A');
    as(name, 'commit', '-qm', `${name} works`);
    return as(name, 'rev-parse', 'HEAD');
  };
  const source = (body: string) => `def f(x):\n    return ${body}\n${PADDING}`;
  as('Ann', 'init', '-q');
  const base = save('Ann', {
    'bob.py': source('1'),
    'cy.py': source('2'),
    'both.py': source('3'),
    'a.py': source('4'),
    'fay.py': source('5'),
  });
  save('Bob', { 'bob.py': source('10'), 'both.py': source('30') });
  save('Cy', { 'cy.py': source('20'), 'both.py': source('31'), 'a.py': source('40') });
  // Dee only moves a.py: blame follows its changed line back to Cy, who wrote it.
  const moved = save('Dee', { 'a.py': null, 'moved.py': source('40') });
  // Fay changes fay.py on a branch from base, which Ann merges: the merge equals Fay's side there.
  as('Fay', 'checkout', '-q', '-b', 'side', base);
  save('Fay', { 'fay.py': source('50') });
  as('Ann', 'checkout', '-q', moved);
  as('Ann', 'merge', '-q', '--no-ff', '-m', 'Ann merges', 'side');
  const head = as('Ann', 'rev-parse', 'HEAD');

  it('names the one author of a file without blame, and blames files with several or a moved file', async () => {
    const changes = await revisionChanges(dir, base, head);
    const byFile = Object.fromEntries(changes.changedMethods.map((m, i) => [m.file, changes.authors[i]]));
    expect(byFile).toEqual({
      'bob.py': 'Bob <Bob@x.test>',
      'cy.py': 'Cy <Cy@x.test>',
      'both.py': 'Cy <Cy@x.test>',
      'moved.py': 'Cy <Cy@x.test>',
      'fay.py': 'Fay <Fay@x.test>',
    });
    // bob.py, cy.py and fay.py had one writer each (the merge wrote nothing of fay.py's); both.py
    // had two, and moved.py was added by its move.
    expect(changes.blamedFiles).toBe(2);
  });

  it('gives every method the author blame gives it', async () => {
    const changes = await revisionChanges(dir, base, head);
    const blamed = await Promise.all(
      changes.changedMethods.map(async (m) => methodAuthor(await blameLines(dir, head, m.file, m.changedLines, base))),
    );
    expect(changes.authors).toEqual(blamed);
  });
});
