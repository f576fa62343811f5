import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingCommands, skipWithout } from '../../../tools/test-support/machine.ts';

// `sextant coverage` on repositories as CI meets them: run inside one package of a monorepo (the
// report's paths relative to the package, the diff the package's, paths repository-relative), and
// on a branch whose base moved on since it split off (--merge-base, diff-cover's comparison).
const root = join(import.meta.dirname, '../../..');
const noDiffCover = skipWithout(
  'the monorepo and moved-base comparisons with diff-cover',
  missingCommands('diff-cover'),
);
const bin = join(root, 'packages/cli/bin/sextant.mjs');

const BEFORE = 'export function price(n) {\n  return n * 2;\n}\n';
const AFTER =
  'export function price(n) {\n  if (n < 0) return 0;\n  return n * 2;\n}\n\nexport function tax(n) {\n  return n / 5;\n}\n';

type Figures = {
  diff: { lines: { covered: number; total: number }; methods: { file: string; name: string; covered: boolean }[] };
  unmappedFiles: string[];
};

let repo: string;
let cache: string;

function git(...args: string[]) {
  execFileSync('git', ['-C', repo, '-c', 'user.name=Dev', '-c', 'user.email=dev@x', ...args]);
}

/** An LCOV report of the package's `src/price.js` as its own tests would write it (package-relative). */
function packageReport(pkg: string, hits: Record<number, number>): string {
  const lines = Object.entries(hits).map(([line, count]) => `DA:${line},${count}`);
  const file = join(repo, 'packages', pkg, 'lcov.info');
  writeFileSync(file, ['TN:', 'SF:src/price.js', ...lines, 'end_of_record', ''].join('\n'));
  return file;
}

function sextantIn(pkg: string, report: string): Figures {
  const run = spawnSync(process.execPath, [bin, 'coverage', report, '--base', 'base', '--head', 'head', '--json'], {
    cwd: join(repo, 'packages', pkg),
    encoding: 'utf8',
    env: { ...process.env, SEXTANT_CACHE_DIR: cache },
  });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Figures;
}

function diffCoverIn(pkg: string, report: string): { covered: number; total: number } {
  const out = join(repo, `diff-cover-${pkg}.json`);
  execFileSync('diff-cover', [report, '--compare-branch=base', '--json-report', out, '-q'], {
    cwd: join(repo, 'packages', pkg),
  });
  const json = JSON.parse(readFileSync(out, 'utf8')) as { total_num_lines: number; total_num_violations: number };
  return { covered: json.total_num_lines - json.total_num_violations, total: json.total_num_lines };
}

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--cli', '--if-missing']);
  repo = mkdtempSync(join(tmpdir(), 'sextant-monorepo-'));
  cache = mkdtempSync(join(tmpdir(), 'sextant-monorepo-cache-'));
  git('init', '-q');
  for (const pkg of ['web', 'api']) {
    mkdirSync(join(repo, 'packages', pkg, 'src'), { recursive: true });
    writeFileSync(join(repo, 'packages', pkg, 'src/price.js'), BEFORE);
  }
  git('add', '.');
  git('commit', '-qm', 'one');
  git('tag', 'base');
  for (const pkg of ['web', 'api']) writeFileSync(join(repo, 'packages', pkg, 'src/price.js'), AFTER);
  git('commit', '-qam', 'two');
  git('tag', 'head');
});

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

describe('sextant coverage in a package folder of a monorepo', () => {
  it.skipIf(noDiffCover)(
    'maps the package-relative report, diffs only the package, and agrees with diff-cover run there',
    () => {
      // web's tests ran price (the guard too) but not tax; api's ran tax but never price.
      const web = packageReport('web', { 1: 1, 2: 1, 3: 1, 6: 0, 7: 0 });
      const api = packageReport('api', { 1: 0, 2: 0, 3: 0, 6: 1, 7: 1 });
      const inWeb = sextantIn('web', web);
      expect(inWeb.unmappedFiles).toEqual([]);
      expect(inWeb.diff.lines).toEqual(diffCoverIn('web', web));
      expect(inWeb.diff.lines).toEqual({ covered: 1, total: 3 });
      expect(inWeb.diff.methods.map((m) => [m.file, m.name, m.covered])).toEqual([
        ['packages/web/src/price.js', 'price', true],
        ['packages/web/src/price.js', 'tax', false],
      ]);
      // The same commits from the other package, with the changes of the first run cached.
      const inApi = sextantIn('api', api);
      expect(inApi.diff.lines).toEqual(diffCoverIn('api', api));
      expect(inApi.diff.lines).toEqual({ covered: 2, total: 3 });
      expect(inApi.diff.methods.map((m) => [m.file, m.name, m.covered])).toEqual([
        ['packages/api/src/price.js', 'price', false],
        ['packages/api/src/price.js', 'tax', true],
      ]);
    },
  );
});

describe('sextant coverage with uncommitted edits to a report file', () => {
  it('notes that the report may be of the work tree, not of head, only while head is checked out', () => {
    const web = packageReport('web', { 1: 1, 2: 1, 3: 1, 6: 0, 7: 0 });
    const source = join(repo, 'packages/web/src/price.js');
    writeFileSync(source, `// a local edit\n${AFTER}`);
    const run = (head: string) =>
      spawnSync(process.execPath, [bin, 'coverage', web, '--base', 'base', '--head', head, '--json'], {
        cwd: join(repo, 'packages/web'),
        encoding: 'utf8',
        env: { ...process.env, SEXTANT_CACHE_DIR: cache },
      });
    try {
      expect(run('head').stderr).toBe(
        'sextant coverage: note: packages/web/src/price.js differs in the work tree from head; if the tests ran on the work tree, the report’s line numbers are not those of the commit compared\n',
      );
      expect(run('base').stderr).toBe('');
    } finally {
      writeFileSync(source, AFTER);
    }
    expect(run('head').stderr).toBe('');
  });
});

describe('sextant coverage in a folder git does not track (a build output folder)', () => {
  it('compares the whole repository, with the report’s absolute paths mapped', () => {
    const out = join(repo, 'out');
    mkdirSync(out, { recursive: true });
    const report = join(out, 'lcov.info');
    const lines = ['DA:1,1', 'DA:2,1', 'DA:3,1', 'DA:6,0', 'DA:7,0', 'end_of_record'];
    const files = ['web', 'api'].flatMap((pkg) => [`SF:${join(repo, 'packages', pkg, 'src/price.js')}`, ...lines]);
    writeFileSync(report, ['TN:', ...files, ''].join('\n'));
    const run = spawnSync(process.execPath, [bin, 'coverage', report, '--base', 'base', '--head', 'head', '--json'], {
      cwd: out,
      encoding: 'utf8',
      env: { ...process.env, SEXTANT_CACHE_DIR: cache },
    });
    const figures = JSON.parse(run.stdout) as Figures;
    expect(figures.unmappedFiles).toEqual([]);
    expect(figures.diff.lines).toEqual({ covered: 2, total: 6 });
    expect(new Set(figures.diff.methods.map((m) => m.file))).toEqual(
      new Set(['packages/web/src/price.js', 'packages/api/src/price.js']),
    );
  });
});

describe('sextant coverage on a branch whose base moved on', () => {
  it.skipIf(noDiffCover)('warns that base is no ancestor, and with --merge-base agrees with diff-cover', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sextant-diverged-'));
    const g = (...args: string[]) =>
      execFileSync('git', ['-C', dir, '-c', 'user.name=Dev', '-c', 'user.email=dev@x', ...args]);
    const write = (text: string) => writeFileSync(join(dir, 'a.js'), text);
    g('init', '-q', '-b', 'main');
    write('function a(x) {\n  return x + 1;\n}\n\nfunction b(y) {\n  return y;\n}\n');
    g('add', '.');
    g('commit', '-qm', 'one');
    g('checkout', '-qb', 'feature');
    write('function a(x) {\n  if (x) return 3;\n  return x + 1;\n}\n\nfunction b(y) {\n  return y;\n}\n');
    g('commit', '-qam', 'the branch guards a');
    g('checkout', '-q', 'main');
    write('function a(x) {\n  return x + 1;\n}\n\nfunction b(y) {\n  return y * 2;\n}\n');
    g('commit', '-qam', 'main changes b meanwhile');
    g('checkout', '-q', 'feature');
    writeFileSync(join(dir, 'lcov.info'), 'TN:\nSF:a.js\nDA:1,1\nDA:2,0\nDA:3,1\nDA:6,1\nDA:7,1\nend_of_record\n');
    const run = (...extra: string[]) =>
      spawnSync(
        process.execPath,
        [bin, 'coverage', 'lcov.info', '--base', 'main', '--head', 'HEAD', '--json', ...extra],
        {
          cwd: dir,
          encoding: 'utf8',
          env: { ...process.env, SEXTANT_CACHE_DIR: cache },
        },
      );
    const plain = run();
    expect(plain.stderr).toMatch(/^sextant coverage: note: main is not an ancestor of HEAD.*--merge-base/);
    expect((JSON.parse(plain.stdout) as Figures).diff.methods.map((m) => m.name)).toEqual(['a', 'b']);
    const split = run('--merge-base');
    expect(split.stderr).toBe('');
    const figures = JSON.parse(split.stdout) as Figures & { diff: { base: string } };
    expect(figures.diff.base).toBe(
      execFileSync('git', ['-C', dir, 'merge-base', 'main', 'HEAD'], { encoding: 'utf8' }).trim(),
    );
    expect(figures.diff.methods.map((m) => m.name)).toEqual(['a']);
    const out = join(dir, 'diff-cover.json');
    execFileSync('diff-cover', ['lcov.info', '--compare-branch=main', '--json-report', out, '-q'], { cwd: dir });
    const dc = JSON.parse(readFileSync(out, 'utf8')) as { total_num_lines: number; total_num_violations: number };
    expect(figures.diff.lines).toEqual({
      covered: dc.total_num_lines - dc.total_num_violations,
      total: dc.total_num_lines,
    });
    expect(figures.diff.lines).toEqual({ covered: 0, total: 1 });
    rmSync(dir, { recursive: true, force: true });
  });
});
