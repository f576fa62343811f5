import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../tools/test-support/machine.ts';
import { makeSampleProject, type SampleProject, sampleProjectMissing } from './sample-project.ts';

const root = join(import.meta.dirname, '../../..');
const bin = join(root, 'packages/cli/bin/sextant.mjs');

function sextant(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

type DiffJson = {
  base: string;
  head: string;
  lines: { covered: number; total: number };
  totals: unknown;
  methods: unknown[] | null;
  files: { path: string; covered: number; total: number }[];
};

let project: SampleProject;
let cache: string;

const noTools = skipWithout('sextant coverage --lines-only on the sample project', sampleProjectMissing);

beforeAll(async () => {
  if (noTools) return;
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--cli', '--if-missing']);
  project = await makeSampleProject();
  cache = mkdtempSync(join(tmpdir(), 'sextant-lines-only-'));
});

afterAll(() => {
  project?.dispose();
  rmSync(cache, { recursive: true, force: true });
});

const diffArgs = () => ['--repo', project.repo, '--base', project.base, '--head', project.head];
const diffOf = (stdout: string) => (JSON.parse(stdout) as { diff: DiffJson }).diff;

describe.skipIf(noTools)('sextant coverage --lines-only', () => {
  it('gives diff-cover’s line figures without looking for changed methods', () => {
    const full = sextant(['coverage', project.jacocoXml, ...diffArgs(), '--json', '--no-cache']);
    const run = sextant(['coverage', project.jacocoXml, ...diffArgs(), '--json', '--lines-only', '--verbose'], {
      SEXTANT_CACHE_DIR: cache,
    });
    expect(run.status).toBe(0);
    const diff = diffOf(run.stdout);
    const { total_num_lines, total_num_violations } = project.diffCover.jacoco;
    expect(diff.lines).toEqual({ covered: total_num_lines - total_num_violations, total: total_num_lines });
    const expected = diffOf(full.stdout);
    expect([diff.base, diff.head, diff.files]).toEqual([expected.base, expected.head, expected.files]);
    expect(expected.methods?.length).toBeGreaterThan(0);
    expect([diff.totals, diff.methods]).toEqual([null, null]);
    // No tree-sitter and no blame ran, and nothing incomplete was kept for a later full run.
    expect(run.stderr).toMatch(/git diff at \d+ ms/);
    expect(run.stderr).not.toMatch(/changed methods at|authors at|extracted/);
    const later = sextant(['coverage', project.jacocoXml, ...diffArgs(), '--json', '--verbose'], {
      SEXTANT_CACHE_DIR: cache,
    });
    expect(later.stderr).toMatch(/changed methods at \d+ ms/);
    expect(later.stdout).toBe(full.stdout);
  });

  it('reads a kept full answer and still lists no methods', () => {
    const kept = mkdtempSync(join(tmpdir(), 'sextant-lines-only-'));
    sextant(['coverage', project.jacocoXml, ...diffArgs(), '--json'], { SEXTANT_CACHE_DIR: kept });
    const run = sextant(['coverage', project.jacocoXml, ...diffArgs(), '--json', '--lines-only', '--verbose'], {
      SEXTANT_CACHE_DIR: kept,
    });
    rmSync(kept, { recursive: true, force: true });
    expect(run.stderr).toMatch(/the diff from the cache/);
    const uncached = sextant(['coverage', project.jacocoXml, ...diffArgs(), '--json', '--lines-only', '--no-cache']);
    expect(run.stdout).toBe(uncached.stdout);
    expect(diffOf(run.stdout).methods).toBeNull();
  });

  it('leaves the changed methods out of the table and still gates on --fail-under-diff', () => {
    const table = sextant(['coverage', project.jacocoXml, ...diffArgs(), '--lines-only', '--no-cache']);
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/changed lines \d+\/\d+/);
    expect(table.stdout).not.toContain('Changed methods');
    const gate = sextant(['coverage', project.jacocoXml, ...diffArgs(), '--lines-only', '--fail-under-diff', '100']);
    expect(gate.status).toBe(2);
    expect(gate.stderr).toMatch(/is below --fail-under-diff 100%/);
  });

  it('needs --base and --head', () => {
    const run = sextant(['coverage', project.jacocoXml, '--lines-only']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('--lines-only needs --base and --head');
  });
});
