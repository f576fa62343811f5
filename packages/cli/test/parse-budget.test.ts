import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const bin = join(root, 'packages/cli/bin/sextant.mjs');
// Broken Java on which tree-sitter's error recovery takes seconds (see the coverage package's parse budget).
const brokenJava = join(root, 'packages/coverage/src/methods/testdata/BrokenDriver.java');

const good = (extra: string) => `package p;\n\npublic class Good {\n  int one() {\n    return 1;${extra}\n  }\n}\n`;

let repo: string;
let cache: string;

function git(...args: string[]) {
  return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
}

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--cli', '--if-missing']);
  repo = mkdtempSync(join(tmpdir(), 'sextant-parse-budget-'));
  cache = mkdtempSync(join(tmpdir(), 'sextant-parse-budget-cache-'));
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Ada');
  git('config', 'user.email', 'ada@example.com');
  mkdirSync(join(repo, 'src/p'), { recursive: true });
  writeFileSync(join(repo, 'src/p/Good.java'), good(''));
  git('add', '.');
  git('commit', '-q', '-m', 'first');
  git('tag', 'base');
  writeFileSync(join(repo, 'src/p/Good.java'), good('\n    // changed'));
  copyFileSync(brokenJava, join(repo, 'src/p/Driver.java'));
  git('add', '.');
  git('commit', '-q', '-m', 'second');
  git('tag', 'head');
  writeFileSync(join(repo, 'lcov.info'), 'SF:src/p/Good.java\nDA:3,1\nDA:5,1\nend_of_record\n');
});

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

type Json = { diff: { unparsedFiles: string[]; methods: { file: string; name: string }[] } };

describe('sextant coverage on a changed file tree-sitter gives up on', () => {
  const run = (...extra: string[]) =>
    spawnSync(
      process.execPath,
      [bin, 'coverage', 'lcov.info', '--base', 'base', '--head', 'head', '--json', '--verbose', ...extra],
      {
        cwd: repo,
        encoding: 'utf8',
        env: { ...process.env, SEXTANT_CACHE_DIR: cache, SEXTANT_PARSE_BUDGET_MS: '100' },
      },
    );

  it('names it, finds the other files’ methods, and keeps nothing that depends on the time it took', () => {
    const first = run();
    expect(first.status).toBe(0);
    const json = JSON.parse(first.stdout) as Json;
    expect(json.diff.unparsedFiles).toEqual(['src/p/Driver.java']);
    expect(json.diff.methods.map((m) => `${m.file} ${m.name}`)).toEqual(['src/p/Good.java one']);
    expect(first.stderr).toMatch(/note: the methods of src\/p\/Driver\.java are not known: tree-sitter gave up/);
    // Asked again, the diff is made again and only the well-formed file's methods come from the cache.
    const second = run();
    expect(second.stderr).toMatch(/git diff at/);
    expect(second.stderr).toMatch(/methods of 2 changed files: 1 from the cache, 0 copies, 1 extracted/);
    expect(second.stdout).toBe(first.stdout);
  });

  it('lists it in the table', () => {
    const table = spawnSync(process.execPath, [bin, 'coverage', 'lcov.info', '--base', 'base', '--head', 'head'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, SEXTANT_PARSE_BUDGET_MS: '100' },
    });
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(
      /Methods not known \(tree-sitter gave up on the source\) in 1 file:\n {2}src\/p\/Driver\.java\n/,
    );
  });
});
