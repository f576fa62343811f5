import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEBIAN_JACOCO_LIB, execToXml } from '@sextant/coverage/node';
import { firstMissing, missingCommands, missingFiles } from '../../../tools/test-support/machine.ts';

type DiffCoverJson = { total_num_lines: number; total_num_violations: number };

/**
 * A two-commit git repository with Java and JavaScript sources; a JaCoCo XML report made by the
 * real JaCoCo (agent + Ant report task, Debian's libjacoco-java) over the head revision; an LCOV
 * tracefile for the JavaScript file; and Debian's diff-cover JSON for each report and the same
 * revisions: the oracle for line diff coverage.
 */
/** What making the sample project takes beyond Node and git: a JDK, JaCoCo's Ant task, diff-cover. */
export const sampleProjectMissing = firstMissing(
  missingCommands('java', 'javac', 'ant', 'unzip', 'diff-cover'),
  missingFiles(join(DEBIAN_JACOCO_LIB, 'org.jacoco.agent.jar')),
);

export interface SampleProject {
  root: string;
  repo: string;
  base: string;
  head: string;
  jacocoXml: string;
  lcovInfo: string;
  /** A second run's tracefile of the same code, which called discount() only. */
  lcovSecondRun: string;
  diffCover: { jacoco: DiffCoverJson; lcov: DiffCoverJson; lcovBothRuns: DiffCoverJson };
  dispose(): void;
}

// An LCOV tracefile for web/cart.js at head, as a run calling total() on a non-empty cart gives.
const CART_LCOV = `TN:
SF:web/cart.js
FN:1,total
FN:8,discount
FNDA:1,total
FNDA:0,discount
FNF:2
FNH:1
BRDA:2,0,0,0
BRDA:2,0,1,1
BRF:2
BRH:1
DA:1,1
DA:2,1
DA:3,0
DA:4,1
DA:5,1
DA:6,1
DA:8,0
DA:9,0
DA:10,0
LF:9
LH:5
end_of_record
`;

const BASE_FILES: Record<string, string> = {
  'src/main/java/demo/Calc.java': `package demo;

public class Calc {
  int add(int a, int b) {
    return a + b;
  }

  int sub(int a, int b) {
    return a - b;
  }
}
`,
  'src/main/java/demo/Main.java': `package demo;

public class Main {
  public static void main(String[] args) {
    Calc calc = new Calc();
    System.out.println(calc.add(1, 2));
    System.out.println(calc.sub(3, 1));
  }
}
`,
  'web/cart.js': `export function total(items) {
  return items.reduce((sum, item) => sum + item.price, 0);
}
`,
};

const HEAD_FILES: Record<string, string> = {
  'src/main/java/demo/Calc.java': `package demo;

import java.util.function.IntBinaryOperator;

public class Calc {
  int add(int a, int b) {
    IntBinaryOperator op = (x, y) -> x + y;
    return op.applyAsInt(a, b);
  }

  double add(double a, double b) {
    return a + b;
  }

  int sub(int a, int b) {
    return a - b;
  }

  int mul(int a, int b) {
    if (a == 0) {
      return 0;
    }
    return a * b;
  }
}
`,
  'src/main/java/demo/Main.java': `package demo;

public class Main {
  public static void main(String[] args) {
    Calc calc = new Calc();
    System.out.println(calc.add(1, 2));
    System.out.println(calc.add(1.5, 2.5));
    System.out.println(calc.sub(3, 1));
  }
}
`,
  'web/cart.js': `export function total(items) {
  if (items.length === 0) {
    return 0;
  }
  return items.reduce((sum, item) => sum + item.price, 0);
}

export function discount(total, rate) {
  return total * (1 - rate);
}
`,
};

const CART_LCOV_SECOND_RUN = `TN:
SF:web/cart.js
FN:1,total
FN:8,discount
FNDA:0,total
FNDA:1,discount
FNF:2
FNH:1
BRDA:2,0,0,-
BRDA:2,0,1,-
BRF:2
BRH:0
DA:1,0
DA:2,0
DA:3,0
DA:4,0
DA:5,0
DA:6,0
DA:8,1
DA:9,1
DA:10,1
LF:9
LH:3
end_of_record
`;

function writeTree(repo: string, files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
}

function commit(repo: string, name: string, date: string, message: string): string {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: `${name.toLowerCase()}@example.com`,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: `${name.toLowerCase()}@example.com`,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  execFileSync('git', ['-C', repo, 'add', '-A'], { env });
  execFileSync('git', ['-C', repo, 'commit', '-q', '-m', message], { env });
  return execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
}

export async function makeSampleProject(): Promise<SampleProject> {
  const root = mkdtempSync(join(tmpdir(), 'sextant-cli-'));
  const repo = join(root, 'repo');
  const build = join(root, 'build');
  mkdirSync(repo);
  mkdirSync(join(build, 'classes'), { recursive: true });
  execFileSync('git', ['-C', repo, 'init', '-q', '-b', 'main']);
  writeTree(repo, BASE_FILES);
  const base = commit(repo, 'Ann', '2026-01-05T10:00:00Z', 'first');
  writeTree(repo, HEAD_FILES);
  const head = commit(repo, 'Bob', '2026-01-06T10:00:00Z', 'second');

  // Debian's agent jar carries the runnable agent inside it.
  writeFileSync(
    join(build, 'jacocoagent.jar'),
    execFileSync('unzip', ['-p', join(DEBIAN_JACOCO_LIB, 'org.jacoco.agent.jar'), 'jacocoagent.jar']),
  );
  const sources = ['Calc.java', 'Main.java'].map((f) => join(repo, 'src/main/java/demo', f));
  execFileSync('javac', ['--release', '11', '-g', '-d', join(build, 'classes'), ...sources]);
  const exec = join(build, 'jacoco.exec');
  execFileSync('java', [
    `-javaagent:${join(build, 'jacocoagent.jar')}=destfile=${exec}`,
    '-cp',
    join(build, 'classes'),
    'demo.Main',
  ]);
  const jacocoXml = await execToXml({
    exec: readFileSync(exec),
    classes: join(build, 'classes'),
    name: 'demo',
    workDir: root,
  });
  const lcovInfo = join(root, 'lcov.info');
  writeFileSync(lcovInfo, CART_LCOV);
  const lcovSecondRun = join(root, 'lcov-second-run.info');
  writeFileSync(lcovSecondRun, CART_LCOV_SECOND_RUN);
  let runs = 0;
  const diffCover = (...reports: string[]): DiffCoverJson => {
    const out = join(root, `diff-cover-${++runs}.json`);
    execFileSync('diff-cover', [...reports, `--compare-branch=${base}`, '--json-report', out, '-q'], { cwd: repo });
    return JSON.parse(readFileSync(out, 'utf8'));
  };
  return {
    root,
    repo,
    base,
    head,
    jacocoXml,
    lcovInfo,
    lcovSecondRun,
    diffCover: {
      jacoco: diffCover(jacocoXml),
      lcov: diffCover(lcovInfo),
      lcovBothRuns: diffCover(lcovInfo, lcovSecondRun),
    },
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

export type JacocoCounters = Record<string, { covered: number; missed: number }>;

/** `<method>` counters of JaCoCo's XML by `class.name desc`: the tool's own per-method figures. */
export function jacocoMethodCounters(xml: string): Map<string, { line: number; counters: JacocoCounters }> {
  const methods = new Map<string, { line: number; counters: JacocoCounters }>();
  for (const cls of xml.matchAll(/<class name="([^"]+)"[^>]*>(.*?)<\/class>/g)) {
    for (const m of (cls[2] ?? '').matchAll(
      /<method name="([^"]+)" desc="([^"]+)"(?: line="(\d+)")?>(.*?)<\/method>/g,
    )) {
      const counters: JacocoCounters = {};
      for (const c of (m[4] ?? '').matchAll(/<counter type="(\w+)" missed="(\d+)" covered="(\d+)"\/>/g)) {
        counters[(c[1] ?? '').toLowerCase()] = { missed: Number(c[2]), covered: Number(c[3]) };
      }
      methods.set(`${cls[1]}.${(m[1] ?? '').replaceAll('&lt;', '<').replaceAll('&gt;', '>')}${m[2]}`, {
        line: Number(m[3] ?? 0),
        counters,
      });
    }
  }
  return methods;
}

/** The report-level counters: JaCoCo writes them last, directly under `<report>`. */
export function jacocoReportCounters(xml: string): JacocoCounters {
  const tail = xml.slice(xml.lastIndexOf('</package>'));
  const counters: JacocoCounters = {};
  for (const c of tail.matchAll(/<counter type="(\w+)" missed="(\d+)" covered="(\d+)"\/>/g)) {
    counters[(c[1] ?? '').toLowerCase()] = { missed: Number(c[2]), covered: Number(c[3]) };
  }
  return counters;
}
