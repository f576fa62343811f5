import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missingCommands, skipWithout } from '../../../../tools/test-support/machine.ts';
import { parseCoverage } from '../../src/index.ts';
import { reportWithDiff } from '../../src/node/index.ts';
import { type DiffCoverReport, diffCoverViolationLines, libraryDiffFigures } from './diff-cover.ts';
import { randomRepo } from './random-repo.ts';

// Beyond the fixtures: seeded random repositories (edits, CRLF, missing final newlines, renames,
// deletions, binary files) and reports, each given to Debian's diff-cover as it runs (scripts/ci
// installs it) and to the library. The line figures and the uncovered lines must be the same.

const noDiffCover = skipWithout('random repositories against diff-cover', missingCommands('diff-cover'));
const SEEDS = Array.from({ length: 24 }, (_, i) => 1000 + i * 7919);
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function diffCover(repo: string, report: string): DiffCoverReport {
  const json = join(dirname(report), 'diff-cover.json');
  execFileSync('diff-cover', [report, '--compare-branch=base', '--json-report', json], { cwd: repo, stdio: 'pipe' });
  return JSON.parse(readFileSync(json, 'utf8')) as DiffCoverReport;
}

describe.skipIf(noDiffCover)('random repositories against diff-cover (needs diff-cover on PATH)', () => {
  it.each(SEEDS)('seed %i: the same changed lines measured, covered and uncovered', async (seed) => {
    const { repo, report } = randomRepo(seed);
    made.push(dirname(repo));
    const theirs = diffCover(repo, report);
    const { diff } = await reportWithDiff({
      files: [report],
      format: 'auto',
      repo,
      base: 'base',
      head: 'head',
      linesOnly: true,
      methods: { cacheDir: null },
    });
    expect(diff?.lines).toMatchObject({
      total: theirs.total_num_lines,
      covered: theirs.total_num_lines - theirs.total_num_violations,
    });
    const ours = await libraryDiffFigures(repo, parseCoverage(readFileSync(report)));
    expect(ours.violationLines).toEqual(diffCoverViolationLines(theirs));
  });

  it('meets the cases these seeds are for', () => {
    // The generator's choices, counted over the seeds' diffs: a regression in it would quietly
    // make the comparison above weaker.
    const seen = { renamed: 0, deleted: 0, added: 0, binary: 0, crlf: 0 };
    for (const seed of SEEDS) {
      const { repo } = randomRepo(seed);
      made.push(dirname(repo));
      const status = execFileSync('git', ['-C', repo, 'diff', '--name-status', '-M', 'base', 'head'], {
        encoding: 'utf8',
      });
      if (/^R/m.test(status)) seen.renamed++;
      if (/^D/m.test(status)) seen.deleted++;
      if (/^A/m.test(status)) seen.added++;
      if (/bin\.dat/.test(status)) seen.binary++;
      const crlf = spawnSync('git', ['-C', repo, 'grep', '-lI', '-e', '\r', 'head'], { encoding: 'utf8' });
      if (crlf.stdout.trim() !== '') seen.crlf++;
    }
    for (const count of Object.values(seen)) expect(count).toBeGreaterThan(2);
  });
});
