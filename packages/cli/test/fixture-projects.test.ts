import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The committed fixture projects (packages/coverage/fixtures, made by the real tools): for each
// report, `sextant coverage --base base --head head` must count the changed lines as diff-cover did.
const root = join(import.meta.dirname, '../../..');
const fixtures = join(root, 'packages/coverage/fixtures');
const bin = join(root, 'packages/cli/bin/sextant.mjs');
const work = mkdtempSync(join(tmpdir(), 'sextant-fixtures-'));

const CASES: [tool: string, reports: string[], diffCover: string][] = [
  ['jacoco', ['jacoco.xml'], 'diff-cover.json'],
  ['jacoco', ['jacoco-main.xml', 'jacoco-cli.xml'], 'diff-cover-two-reports.json'],
  ['c', ['lcov.info'], 'diff-cover-lcov.json'],
  ['c', ['gcovr-cobertura.xml'], 'diff-cover-gcovr.json'],
  ['c', ['lcov-run-a.info', 'lcov-run-b.info'], 'diff-cover-two-runs.json'],
  ['js', ['lcov.info'], 'diff-cover-lcov.json'],
  ['js', ['cobertura-coverage.xml'], 'diff-cover-cobertura.json'],
  ['js', ['clover.xml'], 'diff-cover-clover.json'],
  ['python', ['coverage.xml'], 'diff-cover-xml.json'],
  ['python', ['coverage.lcov'], 'diff-cover-lcov.json'],
];

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--cli', '--if-missing']);
  for (const tool of new Set(CASES.map(([tool]) => tool))) {
    execFileSync('git', ['clone', '-q', '--branch', 'main', join(fixtures, tool, 'repo.bundle'), join(work, tool)]);
  }
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('line diff coverage on the fixture projects equals diff-cover', () => {
  it.each(CASES)('%s %j', (tool, reports, diffCoverFile) => {
    const args = ['coverage', ...reports.map((r) => join(fixtures, tool, r))];
    args.push('--repo', join(work, tool), '--base', 'base', '--head', 'head', '--json');
    const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const json = JSON.parse(run.stdout) as {
      unmappedFiles: string[];
      diff: { lines: { covered: number; total: number } };
    };
    const expected = JSON.parse(readFileSync(join(fixtures, tool, diffCoverFile), 'utf8')) as {
      total_num_lines: number;
      total_num_violations: number;
    };
    expect(json.diff.lines).toEqual({
      covered: expected.total_num_lines - expected.total_num_violations,
      total: expected.total_num_lines,
    });
    expect(json.unmappedFiles).toEqual([]);
  });
});
