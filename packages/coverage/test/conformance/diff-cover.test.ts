import { beforeAll, describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../src/index.ts';
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
  { tool: 'jacoco', report: 'jacoco.xml', diffCover: 'diff-cover.json' },
  { tool: 'c', report: 'lcov.info', diffCover: 'diff-cover-lcov.json' },
  { tool: 'c', report: 'gcovr-cobertura.xml', diffCover: 'diff-cover-gcovr.json' },
  { tool: 'python', report: 'coverage.xml', diffCover: 'diff-cover-xml.json' },
  { tool: 'python', report: 'coverage.lcov', diffCover: 'diff-cover-lcov.json' },
  { tool: 'js', report: 'lcov.info', diffCover: 'diff-cover-lcov.json' },
  { tool: 'js', report: 'cobertura-coverage.xml', diffCover: 'diff-cover-cobertura.json' },
  { tool: 'js', report: 'clover.xml', diffCover: 'diff-cover-clover.json' },
] as const;

const repos = new Map<string, string>();

beforeAll(() => {
  for (const tool of new Set(cases.map((c) => c.tool))) repos.set(tool, cloneFixtureRepo(tool));
});

describe.each(cases)('$tool/$report against diff-cover', ({ tool, report, diffCover }) => {
  let ours: LibraryDiffFigures;
  const theirs = readDiffCover(`${tool}/${diffCover}`);

  beforeAll(async () => {
    ours = await libraryDiffFigures(repos.get(tool)!, await readCoverageFile(fixturePath(`${tool}/${report}`)));
  });

  it('measures the same number of changed lines and finds the same number uncovered', () => {
    expect(theirs.total_num_lines).toBeGreaterThan(0);
    expect({ lines: ours.total, violations: ours.violations }).toEqual({
      lines: theirs.total_num_lines,
      violations: theirs.total_num_violations,
    });
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
