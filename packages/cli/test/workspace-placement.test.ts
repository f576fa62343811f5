import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingCommands, skipWithout } from '../../../tools/test-support/machine.ts';

// Issue 39 on an npm workspaces repository the test writes: `packages/alpha` and `packages/beta`
// both hold `src/util.js`, c8 runs inside each package (package-relative `SF:src/util.js`) and once
// more over both, merged at the top. Wherever `sextant coverage` starts (the package, the top, the
// package with --repo naming the top), a report's paths are placed by where the report file lies,
// and the changed lines agree with diff-cover run in the package the report was made in.
const root = join(import.meta.dirname, '../../..');
const noDiffCover = skipWithout('the workspace comparisons with diff-cover', missingCommands('diff-cover'));
const bin = join(root, 'packages/cli/bin/sextant.mjs');
const c8 = join(root, 'node_modules/.bin/c8');

const BEFORE = 'export function price(n) {\n  return n * 2;\n}\n';
const AFTER =
  'export function price(n) {\n  if (n < 0) return 0;\n  return n * 2;\n}\n\n' +
  'export function tax(n) {\n  const rate = 5;\n  return n / rate;\n}\n';
// alpha's tests price a positive amount and never tax; beta's price a negative one and tax.
const TESTS: Record<string, string> = {
  alpha: "import { price } from './src/util.js';\nprice(3);\n",
  beta: "import { price, tax } from './src/util.js';\nprice(-1);\ntax(10);\n",
};

type Lines = { covered: number; total: number };
type Figures = {
  unmappedFiles: string[];
  ambiguousFiles: { path: string; candidates: string[] }[];
  diff: { lines: Lines };
  packages: { folder: string; files: number; diffLines: Lines | null }[];
  gate?: { threshold: number; status: string; reason: string | null };
};

let repo: string;
let cache: string;
let rawCoverage: string;

function git(...args: string[]) {
  execFileSync('git', ['-C', repo, '-c', 'user.name=Dev', '-c', 'user.email=dev@x', ...args]);
}

function sextant(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [bin, 'coverage', ...args, '--base', 'base', '--head', 'head'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, SEXTANT_CACHE_DIR: cache },
  });
}

function figures(cwd: string, ...args: string[]): Figures {
  const run = sextant(cwd, ...args, '--json');
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Figures;
}

/** diff-cover's changed-line figure for `report`, run in `cwd`. */
function diffCover(cwd: string, report: string): Lines {
  const out = join(cache, 'diff-cover.json');
  execFileSync('diff-cover', [report, '--compare-branch=base', '--json-report', out, '-q'], { cwd });
  const json = JSON.parse(readFileSync(out, 'utf8')) as { total_num_lines: number; total_num_violations: number };
  return { covered: json.total_num_lines - json.total_num_violations, total: json.total_num_lines };
}

const sum = (a: Lines, b: Lines): Lines => ({ covered: a.covered + b.covered, total: a.total + b.total });
const pkg = (name: string) => join(repo, 'packages', name);

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--cli', '--if-missing']);
  repo = mkdtempSync(join(tmpdir(), 'sextant-workspaces-'));
  cache = mkdtempSync(join(tmpdir(), 'sextant-workspaces-cache-'));
  rawCoverage = join(cache, 'v8');
  git('init', '-q');
  writeFileSync(join(repo, 'package.json'), JSON.stringify({ private: true, workspaces: ['packages/*'] }));
  writeFileSync(join(repo, '.gitignore'), 'coverage/\n');
  for (const name of ['alpha', 'beta']) {
    mkdirSync(join(pkg(name), 'src'), { recursive: true });
    writeFileSync(join(pkg(name), 'package.json'), JSON.stringify({ name, type: 'module' }));
    writeFileSync(join(pkg(name), 'test.mjs'), TESTS[name] as string);
    writeFileSync(join(pkg(name), 'src/util.js'), BEFORE);
  }
  git('add', '.');
  git('commit', '-qm', 'one');
  git('tag', 'base');
  for (const name of ['alpha', 'beta']) writeFileSync(join(pkg(name), 'src/util.js'), AFTER);
  git('commit', '-qam', 'two');
  git('tag', 'head');
  // Each package's own run, and their raw V8 data kept for one report merged at the top.
  for (const name of ['alpha', 'beta']) {
    execFileSync(c8, ['--reporter=lcovonly', '--reports-dir=coverage', 'node', 'test.mjs'], { cwd: pkg(name) });
    execFileSync(c8, ['--temp-directory', rawCoverage, '--clean=false', '--reporter=none', 'node', 'test.mjs'], {
      cwd: pkg(name),
    });
  }
  execFileSync(c8, ['report', '--temp-directory', rawCoverage, '--reporter=lcovonly', '--reports-dir=coverage'], {
    cwd: repo,
  });
}, 60_000);

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

describe.skipIf(noDiffCover)('sextant coverage in an npm workspaces repository (c8 per package)', () => {
  it('c8 wrote package-relative paths that name a file in both packages', () => {
    for (const name of ['alpha', 'beta']) {
      expect(readFileSync(join(pkg(name), 'coverage/lcov.info'), 'utf8')).toMatch(/^SF:src\/util\.js$/m);
    }
  });

  it('places a package’s report by its location from the package, the top and with --repo naming the top', () => {
    const alpha = diffCover(pkg('alpha'), 'coverage/lcov.info');
    expect(alpha.total).toBeGreaterThan(0);
    const fromPackage = figures(pkg('alpha'), 'coverage/lcov.info');
    const fromTop = figures(repo, 'packages/alpha/coverage/lcov.info');
    const withRepo = figures(pkg('alpha'), 'coverage/lcov.info', '--repo', '../..');
    for (const run of [fromPackage, fromTop, withRepo]) {
      expect(run.unmappedFiles).toEqual([]);
      expect(run.diff.lines).toEqual(alpha);
    }
  });

  it('keeps each package’s report in its package: both from the top are the sum of diff-cover’s per-package figures', () => {
    const truth = sum(diffCover(pkg('alpha'), 'coverage/lcov.info'), diffCover(pkg('beta'), 'coverage/lcov.info'));
    const both = figures(repo, 'packages/alpha/coverage/lcov.info', 'packages/beta/coverage/lcov.info');
    expect(both.unmappedFiles).toEqual([]);
    expect(both.diff.lines).toEqual(truth);
    // c8's report merged at the top names repository paths: the same figure, and diff-cover's there.
    expect(readFileSync(join(repo, 'coverage/lcov.info'), 'utf8')).toMatch(/^SF:packages\/alpha\/src\/util\.js$/m);
    expect(figures(repo, 'coverage/lcov.info').diff.lines).toEqual(truth);
    expect(diffCover(repo, 'coverage/lcov.info')).toEqual(truth);
  });

  it('splits the figures by the workspace’s packages, each equal to diff-cover run in it', () => {
    const perPackage = ['alpha', 'beta'].map((name) => ({
      folder: `packages/${name}`,
      diffLines: diffCover(pkg(name), 'coverage/lcov.info'),
    }));
    for (const reports of [
      ['coverage/lcov.info'],
      ['packages/alpha/coverage/lcov.info', 'packages/beta/coverage/lcov.info'],
    ]) {
      const run = figures(repo, ...reports);
      expect(run.packages.map(({ folder, diffLines }) => ({ folder, diffLines }))).toEqual(perPackage);
    }
    const table = sextant(repo, 'coverage/lcov.info').stdout;
    expect(table).toMatch(/^Packages \(2\)$/m);
    expect(table).toMatch(
      new RegExp(`^  packages/alpha .* ${perPackage[0]?.diffLines.covered}/${perPackage[0]?.diffLines.total} `, 'm'),
    );
  });

  it('--base-dir names the package for a report kept outside the repository', () => {
    const outside = join(cache, 'alpha-lcov.info');
    copyFileSync(join(pkg('alpha'), 'coverage/lcov.info'), outside);
    const run = figures(repo, outside, '--base-dir', 'packages/alpha');
    expect(run.unmappedFiles).toEqual([]);
    expect(run.diff.lines).toEqual(diffCover(pkg('alpha'), 'coverage/lcov.info'));
  });

  it('the gate exits 2 below the threshold from every starting folder', () => {
    const starts: [string, string[]][] = [
      [pkg('alpha'), ['coverage/lcov.info']],
      [repo, ['packages/alpha/coverage/lcov.info']],
      [pkg('alpha'), ['coverage/lcov.info', '--repo', '../..']],
    ];
    for (const [cwd, args] of starts) {
      const run = sextant(cwd, ...args, '--fail-under-diff', '80');
      expect(run.stderr).toMatch(/^sextant: diff coverage \d+\.\d\d% is below --fail-under-diff 80%\n$/);
      expect(run.status).toBe(2);
    }
  });

  it('the gate exits 1, naming the files and why, when nothing could be placed and no changed line was measured', () => {
    // Outside the repository and run from its top: `src/util.js` could be either package's.
    const outside = join(cache, 'lcov.info');
    copyFileSync(join(pkg('alpha'), 'coverage/lcov.info'), outside);
    const run = sextant(repo, outside, '--fail-under-diff', '80');
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'sextant: --fail-under-diff cannot pass on nothing: no changed line was measured, and 1 file of the ' +
        'report could not be placed: src/util.js (could be packages/alpha/src/util.js or packages/beta/src/util.js); ' +
        'run from the folder the report was made in, or give --base-dir\n',
    );
    expect(run.stdout).toMatch(
      /src\/util\.js: could be packages\/alpha\/src\/util\.js or packages\/beta\/src\/util\.js/,
    );
    const json = sextant(repo, outside, '--fail-under-diff', '80', '--json');
    expect(json.status).toBe(1);
    const answer = JSON.parse(json.stdout) as Figures;
    expect(answer.diff.lines).toEqual({ covered: 0, total: 0 });
    expect(answer.ambiguousFiles).toEqual([
      { path: 'src/util.js', candidates: ['packages/alpha/src/util.js', 'packages/beta/src/util.js'] },
    ]);
    expect(answer.gate).toEqual({
      threshold: 80,
      status: 'nothing-placed',
      reason: expect.stringContaining('src/util.js'),
    });
    // No threshold, no gate: the figures alone, exit 0.
    expect(sextant(repo, outside).status).toBe(0);
  });
});
