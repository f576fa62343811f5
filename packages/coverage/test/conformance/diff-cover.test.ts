import { beforeAll, describe, expect, it } from 'vitest';
import { mergeCoverage, parseUnifiedDiff } from '../../src/index.ts';
import { readCoverageFile } from '../../src/node/index.ts';
import {
  cloneFixtureRepo,
  diffCoverViolationLines,
  type LibraryDiffFigures,
  libraryDiffFigures,
  readDiffCover,
} from './diff-cover.ts';
import { fixturePath, readFixture } from './tool-output.ts';

// Every report that Debian's diff-cover 7.4 reads, with the JSON it wrote for it at head against base
// (scripts/make-fixtures.sh). Line diff coverage must match diff-cover exactly (issue 3, figure a).
const cases = [
  { tool: 'jacoco', reports: ['jacoco.xml'], diffCover: 'diff-cover.json' },
  { tool: 'c', reports: ['lcov.info'], diffCover: 'diff-cover-lcov.json' },
  { tool: 'c', reports: ['gcovr-cobertura.xml'], diffCover: 'diff-cover-gcovr.json' },
  { tool: 'python', reports: ['coverage.xml'], diffCover: 'diff-cover-xml.json' },
  { tool: 'python', reports: ['coverage.lcov'], diffCover: 'diff-cover-lcov.json' },
  { tool: 'js', reports: ['lcov.info'], diffCover: 'diff-cover-lcov.json' },
  { tool: 'js', reports: ['cobertura-coverage.xml'], diffCover: 'diff-cover-cobertura.json' },
  { tool: 'js', reports: ['clover.xml'], diffCover: 'diff-cover-clover.json' },
  // diff-cover reads neither Istanbul JSON nor coverage.py JSON: each is compared with diff-cover's
  // verdict on a report the same run wrote in a format it reads.
  { tool: 'js', reports: ['coverage-final.json'], diffCover: 'diff-cover-lcov.json' },
  { tool: 'python', reports: ['coverage.json'], diffCover: 'diff-cover-xml.json' },
  // Two runs given to diff-cover together (a line counts if any report measures it, and is
  // uncovered only if no report covers it), against the library's merge of the same reports.
  { tool: 'jacoco', reports: ['jacoco-main.xml', 'jacoco-cli.xml'], diffCover: 'diff-cover-two-reports.json' },
  { tool: 'c', reports: ['lcov-run-a.info', 'lcov-run-b.info'], diffCover: 'diff-cover-two-runs.json' },
] as const;

const repos = new Map<string, string>();

beforeAll(() => {
  for (const tool of new Set(cases.map((c) => c.tool))) repos.set(tool, cloneFixtureRepo(tool));
});

describe.each(cases)('$tool/$reports against diff-cover', ({ tool, reports, diffCover }) => {
  let ours: LibraryDiffFigures;
  const theirs = readDiffCover(`${tool}/${diffCover}`);

  beforeAll(async () => {
    const parsed = await Promise.all(reports.map((report) => readCoverageFile(fixturePath(`${tool}/${report}`))));
    ours = await libraryDiffFigures(repos.get(tool)!, parsed.length === 1 ? parsed[0]! : mergeCoverage(parsed));
  });

  it('measures the same number of changed lines and finds the same number uncovered', () => {
    expect(theirs.total_num_lines).toBeGreaterThan(0);
    expect({ lines: ours.total, violations: ours.violations }).toEqual({
      lines: theirs.total_num_lines,
      violations: theirs.total_num_violations,
    });
  });

  it('gives the percentage diff-cover prints (which truncates, and says 100 for no lines)', () => {
    expect(ours.ratio === null ? 100 : Math.trunc(ours.ratio * 100)).toBe(theirs.total_percent_covered);
  });

  it('names the same uncovered changed lines in the same files', () => {
    expect(ours.violationLines).toEqual(diffCoverViolationLines(theirs));
  });

  it('maps every report path onto the repository', () => {
    expect(ours.unmappedFiles).toEqual([]);
  });

  it('reads the same changed lines from git as from the diff diff-cover was given', () => {
    const saved = parseUnifiedDiff(readFixture(`${tool}/diff.patch`));
    const lines = (files: typeof saved) =>
      Object.fromEntries(files.filter((f) => f.status !== 'deleted').map((f) => [f.path, f.lines]));
    expect(lines(ours.changed)).toEqual(lines(saved));
  });
});
