import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingCommands, skipWithout } from '../../../tools/test-support/machine.ts';

// Issue 39 on a Go workspace the test writes: `go.work` uses `./alpha` (module example.com/pricing)
// and `./beta` (module example.com/billing), both holding `calc/calc.go`. `go test -coverprofile` runs
// in each module, so each profile names `example.com/<module>/calc/calc.go`. Wherever `sextant
// coverage` starts, each profile's files are placed in its own module, and the changed lines equal
// diff-cover's run in that module's folder on the same blocks written as LCOV (diff-cover reads no
// Go profile): a line counts when a block with statements spans it, hit when one of them ran.
const root = join(import.meta.dirname, '../../..');
const noGo = skipWithout('the Go workspace comparisons', missingCommands('go', 'diff-cover'));
const bin = join(root, 'packages/cli/bin/sextant.mjs');

const MODULES = { alpha: 'example.com/pricing', beta: 'example.com/billing' } as const;
type Module = keyof typeof MODULES;
const BEFORE = 'package calc\n\nfunc Price(n int) int {\n\treturn n * 2\n}\n';
const AFTER =
  'package calc\n\nfunc Price(n int) int {\n\tif n < 0 {\n\t\treturn 0\n\t}\n\treturn n * 2\n}\n\n' +
  'func Tax(n int) int {\n\trate := 5\n\treturn n / rate\n}\n';
// alpha's test prices a positive amount and never taxes; beta's prices a negative one and taxes.
const TESTS: Record<Module, string> = {
  alpha:
    'package calc\n\nimport "testing"\n\nfunc TestPrice(t *testing.T) {\n\tif Price(3) != 6 {\n\t\tt.Fail()\n\t}\n}\n',
  beta: 'package calc\n\nimport "testing"\n\nfunc TestBoth(t *testing.T) {\n\tif Price(-1) != 0 || Tax(10) != 2 {\n\t\tt.Fail()\n\t}\n}\n',
};

type Lines = { covered: number; total: number };
type Figures = {
  unmappedFiles: string[];
  diff: { lines: Lines };
  packages: { folder: string; diffLines: Lines | null }[];
};

let repo: string;
let cache: string;
const mod = (name: Module) => join(repo, name);

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

/** The profile's blocks as LCOV for diff-cover, paths relative to the module's folder. */
function profileAsLcov(name: Module): string {
  const hits = new Map<string, Map<number, number>>();
  const lines = readFileSync(join(mod(name), 'cover.out'), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  for (const line of lines) {
    const [, file = '', start, end, statements, count] = /^(.+):(\d+)\.\d+,(\d+)\.\d+ (\d+) (\d+)$/.exec(line) ?? [];
    if (Number(statements) === 0) continue;
    const path = file.slice(MODULES[name].length + 1);
    const byLine = hits.get(path) ?? new Map<number, number>();
    hits.set(path, byLine);
    for (let n = Number(start); n <= Number(end); n++) byLine.set(n, Math.max(byLine.get(n) ?? 0, Number(count)));
  }
  return [...hits]
    .map(([path, byLine]) => {
      const records = [...byLine].sort(([a], [b]) => a - b).map(([n, count]) => `DA:${n},${count}`);
      return `SF:${path}\n${records.join('\n')}\nend_of_record\n`;
    })
    .join('');
}

/** diff-cover's changed-line figure for a module, run in its folder. */
function diffCover(name: Module): Lines {
  const lcov = join(mod(name), 'cover.lcov');
  writeFileSync(lcov, profileAsLcov(name));
  const out = join(cache, 'diff-cover.json');
  execFileSync('diff-cover', ['cover.lcov', '--compare-branch=base', '--json-report', out, '-q'], { cwd: mod(name) });
  const json = JSON.parse(readFileSync(out, 'utf8')) as { total_num_lines: number; total_num_violations: number };
  return { covered: json.total_num_lines - json.total_num_violations, total: json.total_num_lines };
}

beforeAll(() => {
  if (noGo) return;
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--cli', '--if-missing']);
  repo = mkdtempSync(join(tmpdir(), 'sextant-go-work-'));
  cache = mkdtempSync(join(tmpdir(), 'sextant-go-work-cache-'));
  git('init', '-q');
  writeFileSync(join(repo, 'go.work'), 'go 1.18\n\nuse (\n\t./alpha\n\t./beta\n)\n');
  writeFileSync(join(repo, '.gitignore'), 'cover.out\ncover.lcov\n');
  for (const name of ['alpha', 'beta'] as const) {
    mkdirSync(join(mod(name), 'calc'), { recursive: true });
    writeFileSync(join(mod(name), 'go.mod'), `module ${MODULES[name]}\n\ngo 1.18\n`);
    writeFileSync(join(mod(name), 'calc/calc_test.go'), TESTS[name]);
    writeFileSync(join(mod(name), 'calc/calc.go'), BEFORE);
  }
  git('add', '.');
  git('commit', '-qm', 'one');
  git('tag', 'base');
  for (const name of ['alpha', 'beta'] as const) writeFileSync(join(mod(name), 'calc/calc.go'), AFTER);
  git('commit', '-qam', 'two');
  git('tag', 'head');
  const env = { ...process.env, GOCACHE: join(cache, 'go-build'), GOPATH: join(cache, 'go') };
  for (const name of ['alpha', 'beta'] as const) {
    execFileSync('go', ['test', '-coverprofile=cover.out', './...'], { cwd: mod(name), env, stdio: 'ignore' });
  }
}, 180_000);

afterAll(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
  if (cache) rmSync(cache, { recursive: true, force: true });
});

describe.skipIf(noGo)('sextant coverage in a Go workspace (go test -coverprofile per module)', () => {
  it('go wrote import paths that end in a file of both modules', () => {
    expect(readFileSync(join(mod('alpha'), 'cover.out'), 'utf8')).toMatch(/^example\.com\/pricing\/calc\/calc\.go:/m);
    expect(readFileSync(join(mod('beta'), 'cover.out'), 'utf8')).toMatch(/^example\.com\/billing\/calc\/calc\.go:/m);
  });

  it("places a module's profile in its module from the module, the top and with --repo naming the top", () => {
    for (const name of ['alpha', 'beta'] as const) {
      const truth = diffCover(name);
      expect(truth.total).toBeGreaterThan(0);
      for (const run of [
        figures(mod(name), 'cover.out'),
        figures(repo, `${name}/cover.out`),
        figures(mod(name), 'cover.out', '--repo', '..'),
      ]) {
        expect(run.unmappedFiles).toEqual([]);
        expect(run.diff.lines).toEqual(truth);
      }
    }
  }, 300_000);

  it("both from the top: the sum of diff-cover's per-module figures, split by the go.work's modules", () => {
    const alpha = diffCover('alpha');
    const beta = diffCover('beta');
    const both = figures(repo, 'alpha/cover.out', 'beta/cover.out');
    expect(both.unmappedFiles).toEqual([]);
    expect(both.diff.lines).toEqual({ covered: alpha.covered + beta.covered, total: alpha.total + beta.total });
    expect(both.packages.map(({ folder, diffLines }) => ({ folder, diffLines }))).toEqual([
      { folder: 'alpha', diffLines: alpha },
      { folder: 'beta', diffLines: beta },
    ]);
  }, 120_000);

  it('the gate exits 2 below the threshold from every starting folder', () => {
    const starts: [string, string[]][] = [
      [mod('alpha'), ['cover.out']],
      [repo, ['alpha/cover.out']],
      [mod('alpha'), ['cover.out', '--repo', '..']],
    ];
    for (const [cwd, args] of starts) {
      const run = sextant(cwd, ...args, '--fail-under-diff', '80');
      expect(run.stderr).toMatch(/^sextant: diff coverage \d+\.\d\d% is below --fail-under-diff 80%\n$/);
      expect(run.status).toBe(2);
    }
  }, 120_000);
});
