import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseCoverage } from '@sextant/coverage';
import { afterAll, describe, expect, it } from 'vitest';
import { diffCoverage, revisionChanges } from '../src/diff-coverage.ts';

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
