import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COUNTER_KINDS, type CounterKind, type Coverage } from '@sextant/coverage';
import { readCoverageFile } from '@sextant/coverage/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/run.ts';

/**
 * Two real JaCoCo 0.8.6 runs of one program (packages/coverage/fixtures/jacoco: `jacoco-main.xml`,
 * `jacoco-cli.xml`) that took different branches of the same lines, and JaCoCo's own report over
 * both exec files (`jacoco.xml`): the truth a merge of the two XML files can only bracket.
 */
const fixtures = join(import.meta.dirname, '../../coverage/fixtures/jacoco');
const runs = [join(fixtures, 'jacoco-main.xml'), join(fixtures, 'jacoco-cli.xml')];

type JsonCounter = { covered: number; total: number; coveredAtMost?: number } | null;
type Json = {
  totals: Record<CounterKind, JsonCounter>;
  exactCounters: CounterKind[];
  diff: {
    totals: Record<CounterKind, JsonCounter>;
    methods: { class: string; name: string; signature: string; counters: Record<CounterKind, JsonCounter> }[];
  };
};

async function sextant(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io = {
    cwd: fixtures,
    stdout: (t: string) => (stdout += t),
    stderr: (t: string) => (stderr += t),
    colour: false,
  };
  const code = await runCli(['coverage', ...args], io);
  return { code, stdout, stderr };
}

/** JaCoCo's figure lies in the merged range; `true` when the range is a real one (lower < upper). */
function bracket(ours: JsonCounter, jacoco: { covered: number; missed: number } | null) {
  expect(ours).not.toBeNull();
  expect(jacoco).not.toBeNull();
  const { covered, total } = ours as NonNullable<JsonCounter>;
  const most = ours?.coveredAtMost ?? covered;
  expect(total).toBe((jacoco?.covered ?? 0) + (jacoco?.missed ?? 0));
  expect(covered).toBeLessThanOrEqual(jacoco?.covered ?? -1);
  expect(most).toBeGreaterThanOrEqual(jacoco?.covered ?? Infinity);
  return most > covered;
}

const asCounter = (c: JsonCounter | undefined) => (c ? { covered: c.covered, missed: c.total - c.covered } : null);

let jacoco: Coverage;
let repo: string;

beforeAll(async () => {
  jacoco = await readCoverageFile(join(fixtures, 'jacoco.xml'));
  repo = mkdtempSync(join(tmpdir(), 'sextant-ranges-'));
  execFileSync('git', ['clone', '-q', '--branch', 'main', join(fixtures, 'repo.bundle'), repo]);
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('sextant coverage over two JaCoCo XML runs', () => {
  it('--json gives ranges holding JaCoCo’s own figures and names the exact counters', async () => {
    const run = await sextant([...runs, '--json']);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as Json;
    const ranged = COUNTER_KINDS.filter((kind) => bracket(json.totals[kind], jacoco.counters[kind]));
    // The two runs covered different branches of three lines and different instructions of one.
    expect(ranged).toEqual(['instruction', 'branch', 'complexity']);
    expect(json.exactCounters).toEqual(['line', 'method', 'class']);
    for (const kind of json.exactCounters) {
      expect(json.totals[kind]).toEqual({ covered: jacoco.counters[kind]?.covered, total: expect.any(Number) });
    }
    // JaCoCo over both exec files: 306 of 359 instructions, 22 of 30 branches, 30 of 46 complexity.
    expect([json.totals.branch, json.totals.instruction]).toEqual([
      { covered: 20, total: 30, coveredAtMost: 24 },
      { covered: 305, total: 359, coveredAtMost: 306 },
    ]);
  });

  it('the table shows “20–24/30”, grades the lower bound, and says why', async () => {
    const run = await sextant(runs);
    expect(run.stdout).toMatch(/branch\s+20–24\/30\s+66\.6%/);
    expect(run.stdout).toMatch(/line\s+67\/83\s+80\.7%/);
    expect(run.stdout).toContain('JaCoCo’s XML keeps per-line sums, not probes');
    const single = await sextant([join(fixtures, 'jacoco.xml')]);
    expect(single.stdout).not.toContain('a–b');
  });

  it('changed methods carry ranges, each holding its figure over JaCoCo’s own merged report', async () => {
    const diffArgs = ['--repo', repo, '--base', 'base', '--head', 'head', '--json', '--no-cache'];
    const merged = JSON.parse((await sextant([...runs, ...diffArgs])).stdout) as Json;
    const truth = JSON.parse((await sextant([join(fixtures, 'jacoco.xml'), ...diffArgs])).stdout) as Json;
    expect(merged.diff.methods.length).toBe(truth.diff.methods.length);
    let rangedMethods = 0;
    for (const [i, method] of merged.diff.methods.entries()) {
      const own = truth.diff.methods[i];
      expect([method.class, method.name]).toEqual([own?.class, own?.name]);
      const ranged = COUNTER_KINDS.filter(
        (kind) => method.counters[kind] !== null && bracket(method.counters[kind], asCounter(own?.counters[kind])),
      );
      if (ranged.length > 0) rangedMethods++;
    }
    expect(rangedMethods).toBeGreaterThan(0);
    for (const kind of COUNTER_KINDS) {
      bracket(merged.diff.totals[kind], asCounter(truth.diff.totals[kind]));
    }
    expect(merged.diff.totals.branch?.coveredAtMost).toBeGreaterThan(merged.diff.totals.branch?.covered ?? Infinity);
  });
});
