import { readFileSync } from 'node:fs';
import { FIXTURES } from './pipeline-support.ts';

type LineFigures = { covered: number; total: number };

/**
 * diff-cover's own figures from its `--json-report` kept beside a fixture (Debian diff-cover 7.4):
 * the changed coverable lines, and per file with an uncovered one its covered and total, worked
 * back from its percentage (diff-cover prints no per-file count; a file at 100 % is left out).
 */
export function diffCoverFigures(relative: string): LineFigures & { files: Record<string, LineFigures> } {
  const report = JSON.parse(readFileSync(`${FIXTURES}${relative}`, 'utf8')) as {
    src_stats: Record<string, { percent_covered: number; violation_lines: number[] }>;
    total_num_lines: number;
    total_num_violations: number;
  };
  const files: Record<string, LineFigures> = {};
  for (const [path, stats] of Object.entries(report.src_stats)) {
    const missed = stats.violation_lines.length;
    if (missed === 0) continue;
    const total = Math.round(missed / (1 - stats.percent_covered / 100));
    files[path] = { covered: total - missed, total };
  }
  return { covered: report.total_num_lines - report.total_num_violations, total: report.total_num_lines, files };
}

/**
 * JaCoCo's own LINE counter of the whole report: the last one of its XML, written after the last
 * package (its per-class CSV counts a line two classes share twice, so its sum is not this figure).
 */
export function jacocoReportLines(relative: string): LineFigures {
  const xml = readFileSync(`${FIXTURES}${relative}`, 'utf8');
  const match = xml.match(/<counter type="LINE" missed="(\d+)" covered="(\d+)"\/>(?:<counter [^>]*\/>)*<\/report>\s*$/);
  if (!match) throw new Error(`${relative}: no report-level LINE counter`);
  const [missed, covered] = [Number(match[1]), Number(match[2])];
  return { covered, total: covered + missed };
}
