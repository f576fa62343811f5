import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChangedFile, type Coverage, diffLineCoverage, mapPaths } from '../../src/index.ts';
import { diff, listFiles } from '../../src/node/git.ts';
import { fixturePath, readFixtureJson } from './tool-output.ts';

/** The part of diff-cover's `--json-report` the comparisons use. */
export type DiffCoverReport = {
  src_stats: Record<string, { violation_lines: number[] }>;
  total_num_lines: number;
  total_num_violations: number;
  /** int(covered / total * 100), 100 when no changed line is measured. */
  total_percent_covered: number;
};

export function readDiffCover(relative: string): DiffCoverReport {
  return readFixtureJson<DiffCoverReport>(relative);
}

/** Clones a fixture's two-revision bundle (tags `base` and `head`) into a fresh directory. */
export function cloneFixtureRepo(tool: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), `sextant-${tool}-`)), 'repo');
  execFileSync('git', ['clone', '--quiet', '--branch', 'main', '--', fixturePath(`${tool}/repo.bundle`), dir]);
  return dir;
}

/** What the library says about a report against a cloned repository's base..head diff. */
export type LibraryDiffFigures = {
  changed: ChangedFile[];
  unmappedFiles: string[];
  total: number;
  violations: number;
  /** The library's covered / total, null for "no changed lines". */
  ratio: number | null;
  /** Per file with at least one measured changed line: its uncovered changed lines, ascending. */
  violationLines: Record<string, number[]>;
};

export async function libraryDiffFigures(repo: string, coverage: Coverage): Promise<LibraryDiffFigures> {
  const changed = await diff(repo, 'base', 'head');
  const mapped = mapPaths(coverage, await listFiles(repo, 'head'));
  const hitsByFile = new Map<string, Map<number, number>>();
  for (const file of mapped.coverage.files) {
    hitsByFile.set(file.path, new Map(file.lines.map((line) => [line.line, line.hits])));
  }
  const figures = diffLineCoverage(changed, hitsByFile);

  const violationLines: Record<string, number[]> = {};
  for (const file of changed) {
    const hits = hitsByFile.get(file.path);
    if (!hits || file.status === 'deleted' || file.binary) continue;
    // The lines diff-cover reads, misplaced past a missing final newline as diffLineCoverage does.
    const shift = file.diffCoverShiftFrom ?? Number.POSITIVE_INFINITY;
    const measured = file.lines.map((line) => (line >= shift ? line + 1 : line)).filter((line) => hits.has(line));
    if (measured.length === 0) continue;
    violationLines[file.path] = measured.filter((line) => hits.get(line) === 0).sort((a, b) => a - b);
  }
  return {
    changed,
    unmappedFiles: mapped.unmappedFiles,
    total: figures.total,
    violations: figures.total - figures.covered,
    ratio: figures.ratio,
    violationLines,
  };
}

/** diff-cover's per-file violation lines, keyed like ours. */
export function diffCoverViolationLines(report: DiffCoverReport): Record<string, number[]> {
  return Object.fromEntries(Object.entries(report.src_stats).map(([path, stats]) => [path, stats.violation_lines]));
}
