import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../tools/test-support/machine.ts';
import { runCli } from '../src/run.ts';
import { counted } from '../src/table.ts';
import {
  jacocoMethodCounters,
  jacocoReportCounters,
  makeSampleProject,
  type SampleProject,
  sampleProjectMissing,
} from './sample-project.ts';

const execFileAsync = promisify(execFile);
const root = join(import.meta.dirname, '../../..');
const bin = join(root, 'packages/cli/bin/sextant.mjs');

function sextant(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

type JsonCounter = { covered: number; total: number } | null;
type CoverageJson = {
  format: string;
  totals: Record<string, JsonCounter>;
  files: number;
  unmappedFiles: string[];
  diff?: {
    base: string;
    head: string;
    lines: { covered: number; total: number };
    totals: Record<string, JsonCounter>;
    methods: {
      file: string;
      class: string | null;
      name: string;
      signature: string | null;
      startLine: number;
      endLine: number;
      author: string | null;
      status: string;
      counters: Record<string, JsonCounter>;
      covered: boolean;
    }[];
  };
};

let project: SampleProject;

const noTools = skipWithout('sextant coverage on the sample project', sampleProjectMissing);

beforeAll(async () => {
  if (noTools) return;
  // The bin runs the bundle; build it when the sources are newer (what `npm install` does).
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--cli', '--if-missing']);
  project = await makeSampleProject();
});

afterAll(() => project?.dispose());

const diffArgs = () => ['--repo', project.repo, '--base', project.base, '--head', project.head];

describe.skipIf(noTools)('sextant coverage on a JaCoCo report', () => {
  it('prints the totals JaCoCo wrote, the files, and no unmapped file', () => {
    const run = sextant(['coverage', project.jacocoXml, '--json']);
    expect(run.status).toBe(0);
    const json = JSON.parse(run.stdout) as CoverageJson;
    const expected = jacocoReportCounters(readFileSync(project.jacocoXml, 'utf8'));
    expect(json.format).toBe('jacoco');
    for (const kind of ['instruction', 'branch', 'line', 'complexity', 'method', 'class']) {
      const c = expected[kind] ?? { covered: 0, missed: 0 };
      expect(json.totals[kind], kind).toEqual({ covered: c.covered, total: c.covered + c.missed });
    }
    expect(json.files).toBe(2);
    expect(json.unmappedFiles).toEqual([]);
    expect(json.diff).toBeUndefined();
  });

  it('gives the diff figures: diff-cover’s line figure, changed methods with JaCoCo’s own counters', () => {
    const run = sextant(['coverage', project.jacocoXml, ...diffArgs(), '--json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const diff = (JSON.parse(run.stdout) as CoverageJson).diff;
    if (!diff) throw new Error('no diff in the output');
    expect(diff.base).toBe(project.base);
    expect(diff.head).toBe(project.head);
    const { total_num_lines, total_num_violations } = project.diffCover.jacoco;
    expect(diff.lines).toEqual({ covered: total_num_lines - total_num_violations, total: total_num_lines });

    // By construction of the second commit: add(II)I rewritten with a lambda, add(DD)D and mul
    // new, main() calls the new overload; sub and the constructors untouched.
    const java = diff.methods.filter((m) => m.file.endsWith('.java'));
    expect(java.map((m) => [m.file, m.class, m.name, m.signature, m.status, m.author])).toEqual([
      ['src/main/java/demo/Calc.java', 'demo/Calc', 'add', '(II)I', 'modified', 'Bob <bob@example.com>'],
      ['src/main/java/demo/Calc.java', 'demo/Calc', 'add', '(DD)D', 'added', 'Bob <bob@example.com>'],
      ['src/main/java/demo/Calc.java', 'demo/Calc', 'mul', '(II)I', 'added', 'Bob <bob@example.com>'],
      [
        'src/main/java/demo/Main.java',
        'demo/Main',
        'main',
        '([Ljava/lang/String;)V',
        'modified',
        'Bob <bob@example.com>',
      ],
    ]);
    const mul = diff.methods.find((m) => m.name === 'mul');
    expect(mul?.covered).toBe(false);
    expect([mul?.startLine, mul?.endLine]).toEqual([19, 24]);

    // The JavaScript change is listed too, unmeasured: the JaCoCo report does not cover it.
    expect(diff.methods.filter((m) => m.file === 'web/cart.js').map((m) => [m.name, m.covered])).toEqual([
      ['total', false],
      ['discount', false],
    ]);
    // Incremental totals: JaCoCo's <method> counters of exactly those methods, add(II)I's lambda included.
    const reported = jacocoMethodCounters(readFileSync(project.jacocoXml, 'utf8'));
    const keys = ['demo/Calc.add(II)I', 'demo/Calc.lambda$add$0(II)I', 'demo/Calc.add(DD)D', 'demo/Calc.mul(II)I'];
    keys.push('demo/Main.main([Ljava/lang/String;)V');
    for (const kind of ['instruction', 'branch', 'line', 'complexity', 'method']) {
      let covered = 0;
      let total = 0;
      for (const key of keys) {
        const c = reported.get(key)?.counters[kind];
        if (!reported.has(key)) throw new Error(`JaCoCo has no ${key}`);
        covered += c?.covered ?? 0;
        total += (c?.covered ?? 0) + (c?.missed ?? 0);
      }
      expect(diff.totals[kind], kind).toEqual({ covered, total });
    }
    // Both classes have a changed method that ran.
    expect(diff.totals.class).toEqual({ covered: 2, total: 2 });
  });

  it('prints a table without colour when stdout is not a terminal', () => {
    const run = sextant(['coverage', project.jacocoXml, ...diffArgs()]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Coverage (jacoco, 2 files)');
    expect(run.stdout).toMatch(
      /Uncovered changed methods \(1\):\n {2}src\/main\/java\/demo\/Calc\.java:19-24 {2}demo\/Calc\.mul\(II\)I {2}added {2}Bob <bob@example.com>/,
    );
    expect(run.stdout).not.toContain('\u001b[');
    // The changed JavaScript is not in the JaCoCo report: counted in one line, listed by --json.
    const json = JSON.parse(sextant(['coverage', project.jacocoXml, ...diffArgs(), '--json']).stdout) as {
      diff: { methods: { file: string; measured: boolean }[] };
    };
    const unmeasured = json.diff.methods.filter((m) => !m.measured);
    expect(unmeasured.length).toBeGreaterThan(0);
    const files = new Set(unmeasured.map((m) => m.file)).size;
    expect(run.stdout).toContain(
      `\n${counted(unmeasured.length, 'more changed method')} in ${counted(files, 'file')} the report does not cover (listed by --json).\n`,
    );
  });

  it('writes --json on one line into a pipe and indented on a terminal, the same document', async () => {
    const piped = sextant(['coverage', project.jacocoXml, ...diffArgs(), '--json']);
    expect(piped.stdout.trimEnd().split('\n')).toHaveLength(1);
    let shown = '';
    const args = ['coverage', project.jacocoXml, ...diffArgs(), '--json', '--no-cache'];
    const io = {
      cwd: project.repo,
      stdout: (t: string) => (shown += t),
      stderr: () => {},
      colour: true,
      terminal: true,
    };
    expect(await runCli(args, io)).toBe(0);
    expect(shown).toMatch(/^\{\n {2}"format": "jacoco",\n/);
    expect(JSON.parse(shown)).toEqual(JSON.parse(piped.stdout));
  });
});

describe.skipIf(noTools)('sextant coverage on an LCOV report', () => {
  it('agrees with diff-cover and counts changed functions from the tracefile', () => {
    const run = sextant(['coverage', project.lcovInfo, ...diffArgs(), '--json']);
    expect(run.status).toBe(0);
    const json = JSON.parse(run.stdout) as CoverageJson;
    expect(json.format).toBe('lcov');
    expect(json.totals.instruction).toBeNull();
    expect(json.totals.line).toEqual({ covered: 5, total: 9 });
    const { total_num_lines, total_num_violations } = project.diffCover.lcov;
    expect(json.diff?.lines).toEqual({ covered: total_num_lines - total_num_violations, total: total_num_lines });
    const js = json.diff?.methods.filter((m) => m.file === 'web/cart.js');
    expect(
      js?.map((m) => [m.name, m.status, m.counters.line, m.counters.branch, m.counters.method, m.covered]),
    ).toEqual([
      ['total', 'modified', { covered: 5, total: 6 }, { covered: 1, total: 2 }, { covered: 1, total: 1 }, true],
      ['discount', 'added', { covered: 0, total: 3 }, { covered: 0, total: 0 }, { covered: 0, total: 1 }, false],
    ]);
  });
});

describe.skipIf(noTools)('finding the changed methods', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.json'))
      .map((e) => e.name);

  it('prints the same in the bundled worker threads as in-process', () => {
    for (const report of [project.jacocoXml, project.lcovInfo]) {
      const command = ['coverage', report, ...diffArgs(), '--json', '--no-cache', '--verbose'];
      const inProcess = sextant(command, { SEXTANT_WORKERS: '0' });
      const threaded = sextant(command, { SEXTANT_WORKERS: '2' });
      expect(inProcess.status).toBe(0);
      const extracted = / (\d+) extracted \((\d+) worker threads?, (\d+) in the main thread; WebAssembly tokenizer\)/;
      const [, files, none, all] = extracted.exec(inProcess.stderr) ?? [];
      expect(Number(files)).toBeGreaterThan(0);
      expect([none, all]).toEqual(['0', files]);
      expect(extracted.exec(threaded.stderr)?.slice(1)).toEqual([files, '2', '0']);
      // Each step's finishing time, in the order the steps depend on one another.
      const at = (step: string) => Number(new RegExp(`${step} at (\\d+) ms`).exec(inProcess.stderr)?.[1]);
      const steps = ['git diff', 'changed methods', 'authors', 'figures'].map(at);
      expect(steps.every(Number.isFinite)).toBe(true);
      expect([...steps].sort((a, b) => a - b)).toEqual(steps);
      expect(at('report read')).toBeLessThanOrEqual(at('figures'));
      expect(JSON.parse(inProcess.stdout).diff.methods.length).toBeGreaterThan(1);
      expect(threaded.stdout).toBe(inProcess.stdout);
      // The bundle finds tokens.wasm beside it; the JavaScript tokenizer gives the same answer.
      const javascript = sextant(command, { SEXTANT_JS_TOKENS: '1' });
      expect(javascript.stderr).toMatch(/; JavaScript tokenizer\)/);
      expect(javascript.stdout).toBe(inProcess.stdout);
    }
  });

  it('parses a few dozen changed files in its own thread, where a server would start workers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sextant-cli-files-'));
    try {
      const git = (...args: string[]) =>
        execFileSync('git', ['-C', dir, '-c', 'user.name=T', '-c', 'user.email=t@x', ...args], { encoding: 'utf8' });
      const names = Array.from({ length: 24 }, (_, k) => `f${k}.js`);
      const write = (body: string) => {
        for (const [k, name] of names.entries())
          writeFileSync(join(dir, name), `function run${k}() {\n  return ${body};\n}\n`);
      };
      git('init', '-q');
      write('1');
      git('add', '.');
      git('commit', '-qm', 'one');
      write('2');
      git('commit', '-qam', 'two');
      const lcov = join(dir, 'lcov.info');
      writeFileSync(lcov, names.map((name) => `SF:${name}\nDA:1,1\nDA:2,1\nend_of_record\n`).join(''));
      const command = ['coverage', lcov, '--repo', dir, '--base', 'HEAD~1', '--head', 'HEAD', '--json', '--no-cache'];
      const run = sextant([...command, '--verbose']);
      expect(run.status).toBe(0);
      expect(run.stderr).toMatch(/ 24 extracted \(0 worker threads, 24 in the main thread;/);
      expect(JSON.parse(run.stdout).diff.methods).toHaveLength(24);
      expect(sextant(command, { SEXTANT_WORKERS: '1' }).stdout).toBe(run.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps them between runs in SEXTANT_CACHE_DIR unless --no-cache, with the same output', () => {
    const cache = mkdtempSync(join(tmpdir(), 'sextant-cli-cache-'));
    try {
      const command = ['coverage', project.jacocoXml, ...diffArgs(), '--json'];
      const uncached = sextant([...command, '--no-cache'], { SEXTANT_CACHE_DIR: cache });
      expect(files(cache)).toEqual([]);
      const first = sextant(command, { SEXTANT_CACHE_DIR: cache });
      const kept = files(cache);
      expect(kept.length).toBeGreaterThan(0);
      const second = sextant(command, { SEXTANT_CACHE_DIR: cache });
      expect(files(cache)).toEqual(kept);
      expect(first.stdout).toBe(uncached.stdout);
      expect(second.stdout).toBe(uncached.stdout);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('keys what it keeps by the build: another build-id finds nothing kept by the last build', () => {
    const cache = mkdtempSync(join(tmpdir(), 'sextant-cli-cache-'));
    // Inside packages/cli, so the copy resolves its dependencies as the bundle does.
    const copy = mkdtempSync(join(root, 'packages/cli/.dist-copy-'));
    try {
      cpSync(join(root, 'packages/cli/dist'), copy, { recursive: true });
      const run = () => {
        const args = [join(copy, 'sextant.mjs'), 'coverage', project.jacocoXml, ...diffArgs(), '--json', '--verbose'];
        const env = { ...process.env, SEXTANT_CACHE_DIR: cache };
        return spawnSync(process.execPath, args, { encoding: 'utf8', env });
      };
      const methodFolders = () => readdirSync(cache).filter((name) => name.startsWith('methods-'));
      const first = run();
      expect(first.stderr).toMatch(/git diff at/);
      expect(run().stderr).toMatch(/the diff, changed methods and authors from the cache/);
      const kept = methodFolders();
      expect(kept).toHaveLength(1);
      writeFileSync(join(copy, 'build-id'), 'another build\n');
      const rebuilt = run();
      expect(rebuilt.stderr).toMatch(/git diff at/);
      expect(rebuilt.stderr).toMatch(/ 0 from the cache/);
      // The last build's extractions are dropped, as on any change of the extractor.
      expect(methodFolders()).toHaveLength(1);
      expect(methodFolders()).not.toEqual(kept);
      expect(rebuilt.stdout).toBe(first.stdout);
    } finally {
      rmSync(cache, { recursive: true, force: true });
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('shares one cache between runs at the same time: each that parsed adds a segment, a later run reads them all', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'sextant-cli-cache-'));
    try {
      const command = [bin, 'coverage', project.jacocoXml, ...diffArgs(), '--json', '--verbose'];
      const env = { ...process.env, SEXTANT_CACHE_DIR: cache };
      const runs = await Promise.all(
        Array.from({ length: 4 }, () => execFileAsync(process.execPath, command, { env, encoding: 'utf8' })),
      );
      // On a busy machine a run may start after another has kept its answer, and then parse nothing.
      const parsed = runs.filter((run) => / [1-9]\d* extracted /.test(run.stderr)).length;
      expect(parsed).toBeGreaterThan(0);
      expect(files(cache)).toHaveLength(parsed);
      // The commit pair's changes are kept too (changes-cache.ts): without them, methods come from the cache.
      const later = sextant(command.slice(1), { SEXTANT_CACHE_DIR: cache });
      expect(later.stderr).toMatch(/the diff, changed methods and authors from the cache/);
      expect(later.stderr).toMatch(/\(changes read from the cache at \d+ ms, /);
      expect(later.stderr).not.toMatch(/git diff at/);
      rmSync(join(cache, 'changes'), { recursive: true, force: true });
      const withoutChanges = sextant(command.slice(1), { SEXTANT_CACHE_DIR: cache });
      expect(withoutChanges.stderr).toMatch(/ 0 extracted /);
      for (const run of [...runs, withoutChanges]) expect(run.stdout).toBe(later.stdout);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});

describe.skipIf(noTools)('sextant coverage on several reports', () => {
  it('merges them: a line or function covered by any run is covered, as diff-cover counts it', () => {
    const run = sextant(['coverage', project.lcovInfo, project.lcovSecondRun, ...diffArgs(), '--json']);
    expect(run.status).toBe(0);
    const json = JSON.parse(run.stdout) as CoverageJson;
    expect(json.totals.line).toEqual({ covered: 8, total: 9 });
    expect(json.totals.method).toEqual({ covered: 2, total: 2 });
    const { total_num_lines, total_num_violations } = project.diffCover.lcovBothRuns;
    expect(json.diff?.lines).toEqual({ covered: total_num_lines - total_num_violations, total: total_num_lines });
    const discount = json.diff?.methods.find((m) => m.name === 'discount');
    expect([discount?.counters.line, discount?.covered]).toEqual([{ covered: 3, total: 3 }, true]);
  });
});

describe.skipIf(noTools)('exit codes', () => {
  it('2 when diff coverage is under --fail-under-diff, 0 when not', () => {
    const { total_num_lines, total_num_violations } = project.diffCover.jacoco;
    const pct = ((total_num_lines - total_num_violations) / total_num_lines) * 100;
    const under = sextant(['coverage', project.jacocoXml, ...diffArgs(), '--fail-under-diff', String(pct + 0.01)]);
    expect(under.status).toBe(2);
    expect(under.stderr).toMatch(/below --fail-under-diff/);
    expect(sextant(['coverage', project.jacocoXml, ...diffArgs(), '--fail-under-diff', String(pct)]).status).toBe(0);
  });

  it('keeps its exit code, and says nothing, when the reader of its output has gone (`| head`)', async () => {
    const { total_num_lines, total_num_violations } = project.diffCover.jacoco;
    const pct = ((total_num_lines - total_num_violations) / total_num_lines) * 100;
    const child = spawn(process.execPath, [
      bin,
      'coverage',
      project.jacocoXml,
      ...diffArgs(),
      '--fail-under-diff',
      String(pct + 0.01),
    ]);
    // Closed before the CLI has started, so its first write meets a pipe without a reader.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [status] = (await once(child, 'close')) as [number | null];
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(stderr).toMatch(/below --fail-under-diff/);
    expect(status).toBe(2);
  });

  it('1 with one line naming the file and position for a broken report', () => {
    const truncated = join(project.root, 'truncated.xml');
    const xml = readFileSync(project.jacocoXml, 'utf8');
    writeFileSync(truncated, xml.slice(0, Math.floor(xml.length / 2)));
    const run = sextant(['coverage', truncated, '--json']);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      new RegExp(`^sextant coverage: ${truncated.replaceAll('/', '\\/')}:\\d+:\\d+: .+\\(unexpected-eof\\)\\n$`),
    );
  });

  it('reads a report from standard input with -, plain or gzipped, as from the file', () => {
    const fromFile = sextant(['coverage', project.lcovInfo, '--json']);
    const viaStdin = (input: Buffer) =>
      spawnSync(process.execPath, [bin, 'coverage', '-', '--json'], { input, encoding: 'utf8' });
    const plain = viaStdin(readFileSync(project.lcovInfo));
    expect(plain.stderr).toBe('');
    expect(plain.stdout).toBe(fromFile.stdout);
    expect(viaStdin(gzipSync(readFileSync(project.lcovInfo))).stdout).toBe(fromFile.stdout);
    const broken = viaStdin(Buffer.from('<report name="x"><package'));
    expect([broken.status, broken.stderr]).toEqual([
      1,
      expect.stringMatching(/^sextant coverage: standard input.*\n$/),
    ]);
    expect(sextant(['coverage', '-', '-']).stderr).toMatch(/standard input \(-\) can be read once/);
  });

  it('1 for a --repo that is no folder; a relative one is taken from the working folder', () => {
    const nowhere = sextant(['coverage', project.lcovInfo, '--repo', join(project.root, 'nowhere'), '--json']);
    expect([nowhere.status, nowhere.stderr.split('\n')[0]]).toEqual([
      1,
      `sextant coverage: --repo ${join(project.root, 'nowhere')}: no such folder`,
    ]);
    const relative = spawnSync(process.execPath, [bin, 'coverage', project.lcovInfo, '--repo', '.', '--json'], {
      cwd: project.repo,
      encoding: 'utf8',
    });
    expect([relative.status, JSON.parse(relative.stdout).unmappedFiles]).toEqual([0, []]);
  });

  it('1 for a missing report and for reports of different formats', () => {
    const missing = sextant(['coverage', join(project.root, 'nope.xml')]);
    expect([missing.status, missing.stderr]).toEqual([
      1,
      `sextant coverage: ${join(project.root, 'nope.xml')}: cannot read the report: no such file (unreadable)\n`,
    ]);
    const mixed = sextant(['coverage', project.jacocoXml, project.lcovInfo]);
    expect([mixed.status, mixed.stderr]).toEqual([
      1,
      `sextant coverage: ${project.lcovInfo}: the report is lcov and ${project.jacocoXml} is jacoco: reports merge in one format (format-mismatch)\n`,
    ]);
  });

  it('1 for a revision that looks like an option; git never runs it', () => {
    const marker = join(project.root, 'pwned');
    for (const base of [`--upload-pack=touch ${marker}`, '-x']) {
      const run = sextant([
        'coverage',
        project.jacocoXml,
        '--repo',
        project.repo,
        `--base=${base}`,
        '--head',
        project.head,
      ]);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^sextant coverage: refused revision/);
    }
    const unknown = sextant([
      'coverage',
      project.jacocoXml,
      '--repo',
      project.repo,
      '--base',
      'no-such-ref',
      '--head',
      'HEAD',
    ]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(marker)).toBe(false);
  });

  it('1 with the usage for bad arguments', () => {
    expect(sextant(['coverage']).status).toBe(1);
    expect(sextant(['coverage', project.jacocoXml, '--base', 'HEAD']).stderr).toMatch(/--base and --head go together/);
    expect(sextant(['coverage', project.jacocoXml, '--format', 'xml']).stderr).toMatch(/unknown format "xml"/);
    expect(sextant(['coverage', project.jacocoXml, '--bogus']).status).toBe(1);
  });
});
