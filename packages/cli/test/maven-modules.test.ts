import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEBIAN_JACOCO_LIB, execToXml } from '@sextant/coverage/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstMissing, missingCommands, skipWithout } from '../../../tools/test-support/machine.ts';
import { jacocoToolsMissing } from './support/index.ts';

// Issue 39's Maven case on a multi-module project the test writes: `module-a` and `module-b` both
// hold a different `com/acme/Util.java`; each module's classes ran under JaCoCo's agent and its XML
// sits where Maven writes it (`module-x/target/site/jacoco/jacoco.xml`, package-relative paths).
// Read together from the top, each report's class lives in its own module: the changed lines are
// the sum of diff-cover's per-module figures, never one merged `com/acme/Util`.
const root = join(import.meta.dirname, '../../..');
const missing = skipWithout(
  'the Maven modules comparison',
  firstMissing(jacocoToolsMissing, missingCommands('diff-cover')),
);
const bin = join(root, 'packages/cli/bin/sextant.mjs');
const MODULES = ['module-a', 'module-b'] as const;

const BEFORE =
  'package com.acme;\n\npublic class Util {\n  public static int twice(int n) {\n    return n * 2;\n  }\n}\n';
const AFTER: Record<(typeof MODULES)[number], string> = {
  'module-a':
    'package com.acme;\n\npublic class Util {\n  public static int twice(int n) {\n    if (n < 0) {\n      return 0;\n    }\n' +
    '    return n * 2;\n  }\n\n  public static int half(int n) {\n    return n / 2;\n  }\n}\n',
  'module-b':
    'package com.acme;\n\npublic class Util {\n  public static int twice(int n) {\n    int doubled = n * 2;\n' +
    '    return doubled;\n  }\n\n  public static String name() {\n    return "b";\n  }\n\n  public static int zero() {\n' +
    '    return 0;\n  }\n}\n',
};
// module-a's run takes the guard's other way and never halves; module-b's names but never zeroes.
const RUN: Record<(typeof MODULES)[number], string> = {
  'module-a':
    'package com.acme;\n\npublic class Run {\n  public static void main(String[] args) {\n    Util.twice(3);\n  }\n}\n',
  'module-b':
    'package com.acme;\n\npublic class Run {\n  public static void main(String[] args) {\n    Util.twice(3);\n    Util.name();\n  }\n}\n',
};

type Lines = { covered: number; total: number };
type Figures = {
  unmappedFiles: string[];
  files: number;
  diff: { lines: Lines; files: { path: string }[] };
  packages: { folder: string; files: number; diffLines: Lines | null }[];
};

let repo: string;
let cache: string;

function git(...args: string[]) {
  execFileSync('git', ['-C', repo, '-c', 'user.name=Dev', '-c', 'user.email=dev@x', ...args]);
}

const report = (module: string) => join(module, 'target/site/jacoco/jacoco.xml');

function figures(cwd: string, ...args: string[]): Figures {
  const run = spawnSync(process.execPath, [bin, 'coverage', ...args, '--base', 'base', '--head', 'head', '--json'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, SEXTANT_CACHE_DIR: cache },
  });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Figures;
}

/**
 * diff-cover's figure for one module's report. It reads JaCoCo's package paths under --src-roots
 * from the top only (git's paths are the repository's), so it runs there, told the module's sources.
 */
function diffCover(module: string): Lines {
  const out = join(cache, 'diff-cover.json');
  const roots = ['--src-roots', `${module}/src/main/java`];
  execFileSync('diff-cover', [report(module), ...roots, '--compare-branch=base', '--json-report', out, '-q'], {
    cwd: repo,
  });
  const json = JSON.parse(readFileSync(out, 'utf8')) as { total_num_lines: number; total_num_violations: number };
  return { covered: json.total_num_lines - json.total_num_violations, total: json.total_num_lines };
}

beforeAll(async () => {
  if (missing) return;
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--cli', '--if-missing']);
  repo = mkdtempSync(join(tmpdir(), 'sextant-maven-'));
  cache = mkdtempSync(join(tmpdir(), 'sextant-maven-cache-'));
  git('init', '-q');
  const modules = MODULES.map((m) => `<module>${m}</module>`).join('');
  writeFileSync(
    join(repo, 'pom.xml'),
    `<project><artifactId>top</artifactId><modules>${modules}</modules></project>\n`,
  );
  writeFileSync(join(repo, '.gitignore'), 'target/\n');
  const sources = (module: string) => join(repo, module, 'src/main/java/com/acme');
  for (const module of MODULES) {
    mkdirSync(sources(module), { recursive: true });
    writeFileSync(join(repo, module, 'pom.xml'), `<project><artifactId>${module}</artifactId></project>\n`);
    writeFileSync(join(sources(module), 'Util.java'), BEFORE);
    writeFileSync(join(sources(module), 'Run.java'), RUN[module]);
  }
  git('add', '.');
  git('commit', '-qm', 'one');
  git('tag', 'base');
  for (const module of MODULES) writeFileSync(join(sources(module), 'Util.java'), AFTER[module]);
  git('commit', '-qam', 'two');
  git('tag', 'head');
  // Debian's org.jacoco.agent.jar carries the runnable jacocoagent.jar inside it.
  execFileSync('jar', ['xf', join(DEBIAN_JACOCO_LIB, 'org.jacoco.agent.jar'), 'jacocoagent.jar'], { cwd: cache });
  for (const module of MODULES) {
    const target = join(repo, module, 'target');
    const classes = join(target, 'classes');
    const java = ['Util.java', 'Run.java'].map((file) => join(sources(module), file));
    execFileSync('javac', ['--release', '11', '-g', '-d', classes, ...java]);
    const exec = join(target, 'jacoco.exec');
    const agent = `-javaagent:${join(cache, 'jacocoagent.jar')}=destfile=${exec}`;
    execFileSync('java', [agent, '-cp', classes, 'com.acme.Run']);
    const workDir = join(target, 'site/jacoco');
    mkdirSync(workDir, { recursive: true });
    await execToXml({ exec: readFileSync(exec), classes, name: module, workDir });
  }
}, 120_000);

afterAll(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
  if (cache) rmSync(cache, { recursive: true, force: true });
});

describe.skipIf(missing)('sextant coverage on a Maven multi-module project (JaCoCo XML per module)', () => {
  it('reads each module’s report from its folder, and from the top, as diff-cover reads it', () => {
    for (const module of MODULES) {
      const truth = diffCover(module);
      expect(truth.total).toBeGreaterThan(0);
      const inModule = figures(join(repo, module), report('.'));
      expect(inModule.unmappedFiles).toEqual([]);
      expect(inModule.diff.lines).toEqual(truth);
      expect(figures(repo, report(module)).diff.lines).toEqual(truth);
    }
  });

  it('keeps each module’s classes in its module when both are read from the top: the sum of diff-cover’s figures', () => {
    const [a, b] = MODULES.map(diffCover) as [Lines, Lines];
    const truth = { covered: a.covered + b.covered, total: a.total + b.total };
    const both = figures(repo, ...MODULES.map(report));
    expect(both.unmappedFiles).toEqual([]);
    expect(both.diff.lines).toEqual(truth);
    expect(both.diff.files.map((f) => f.path).sort()).toEqual(
      MODULES.map((module) => `${module}/src/main/java/com/acme/Util.java`),
    );
    // Two classes named com/acme/Util and two Run classes: four files, none merged.
    expect(both.files).toBe(4);
    // The pom's modules are the packages, each with diff-cover's figure for its report.
    expect(both.packages.map(({ folder, files, diffLines }) => ({ folder, files, diffLines }))).toEqual([
      { folder: 'module-a', files: 2, diffLines: a },
      { folder: 'module-b', files: 2, diffLines: b },
    ]);
    // From a module with --repo naming the top, the same.
    expect(figures(join(repo, 'module-a'), report('.'), report('../module-b'), '--repo', '..').diff.lines).toEqual(
      truth,
    );
  });
});
