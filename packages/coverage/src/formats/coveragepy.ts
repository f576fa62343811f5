import { counter } from '../figures/counters.ts';
import {
  type BranchCoverage,
  type Coverage,
  emptyCounters,
  type FileCoverage,
  type LineCoverage,
} from '../model/coverage.ts';
import { isObject, JsonCollector } from './json.ts';
import { totals } from './lcov.ts';
import { fail, Interner, languageOf, MAX_LINE, newLine, type TextParser } from './shared.ts';

/**
 * coverage.py JSON (`coverage json`). Lines: executed_lines hit once, missing_lines not hit;
 * excluded_lines are not coverable. Counters: line = statements as `coverage report` counts
 * them (summary.covered_lines / num_statements), branch = arcs (covered_branches / num_branches)
 * when the report was made with --branch, else null. Per-line branches from executed_branches
 * and missing_branches keyed by their source line, each arc also kept as a branch `from->to`
 * (hits 1 or 0: coverage.py has no counts) so merged runs add per arc. The rest are null.
 */
export function coveragePyParser(): TextParser {
  const collector = new JsonCollector('coveragepy');
  return {
    write: (text) => collector.write(text),
    end(): Coverage {
      const data = collector.end();
      if (!isObject(data) || !isObject(data.files))
        fail('coveragepy', 'format-mismatch', 'coverage.py JSON has a "files" object');
      const names = new Interner();
      const files: FileCoverage[] = [];
      for (const [path, entry] of Object.entries(data.files)) {
        if (!isObject(entry)) fail('coveragepy', 'bad-record', 'file entry is not an object', { file: path });
        files.push(toFile(names.get(path.replaceAll('\\', '/')), entry));
      }
      return { format: 'coveragepy', files, counters: totals(files) };
    },
  };
}

function lineList(path: string, value: unknown, what: string): number[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail('coveragepy', 'bad-record', `${what} is not a list`, { file: path });
  for (const line of value) {
    if (typeof line !== 'number' || !Number.isSafeInteger(line) || line < 1 || line > MAX_LINE) {
      fail('coveragepy', 'bad-number', `${what} holds ${JSON.stringify(line)?.slice(0, 40)}, not a line number`, {
        file: path,
      });
    }
  }
  return value as number[];
}

function arcs(path: string, value: unknown, what: string): [number, number][] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail('coveragepy', 'bad-record', `${what} is not a list`, { file: path });
  for (const arc of value) {
    if (
      !Array.isArray(arc) ||
      arc.length !== 2 ||
      !arc.every((n) => typeof n === 'number' && Number.isSafeInteger(n))
    ) {
      fail('coveragepy', 'bad-record', `${what} holds something other than [from, to] pairs`, { file: path });
    }
  }
  return value as [number, number][];
}

function summaryNumber(path: string, summary: Record<string, unknown>, key: string): number | null {
  const value = summary[key];
  if (value === undefined) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail('coveragepy', 'bad-number', `summary.${key} is not a non-negative integer`, { file: path });
  }
  return value;
}

function toFile(path: string, entry: Record<string, unknown>): FileCoverage {
  const byLine = new Map<number, LineCoverage>();
  for (const line of lineList(path, entry.executed_lines, 'executed_lines')) byLine.set(line, newLine(line, 1));
  for (const line of lineList(path, entry.missing_lines, 'missing_lines')) {
    if (!byLine.has(line)) byLine.set(line, newLine(line, 0));
  }
  const hasBranches = entry.executed_branches !== undefined || entry.missing_branches !== undefined;
  const branches: BranchCoverage[] = [];
  const addArc = ([from, to]: [number, number], taken: boolean) => {
    const line = byLine.get(from);
    if (!line) return;
    line.branchesTotal++;
    if (taken) line.branchesCovered++;
    branches.push({ line: from, id: `${from}->${to}`, hits: taken ? 1 : 0 });
  };
  for (const arc of arcs(path, entry.executed_branches, 'executed_branches')) addArc(arc, true);
  for (const arc of arcs(path, entry.missing_branches, 'missing_branches')) addArc(arc, false);
  const lines = [...byLine.values()].sort((a, b) => a.line - b.line);

  const counters = emptyCounters();
  const summary = isObject(entry.summary) ? entry.summary : {};
  const statements = summaryNumber(path, summary, 'num_statements');
  const covered = summaryNumber(path, summary, 'covered_lines');
  if (statements !== null && covered !== null && covered <= statements)
    counters.line = counter(covered, statements - covered);
  else {
    const hit = lines.filter((l) => l.hits > 0).length;
    counters.line = counter(hit, lines.length - hit);
  }
  const numBranches = summaryNumber(path, summary, 'num_branches');
  const coveredBranches = summaryNumber(path, summary, 'covered_branches');
  if (numBranches !== null && coveredBranches !== null && coveredBranches <= numBranches) {
    counters.branch = counter(coveredBranches, numBranches - coveredBranches);
  } else if (hasBranches) {
    let c = 0;
    let t = 0;
    for (const l of lines) {
      c += l.branchesCovered;
      t += l.branchesTotal;
    }
    counters.branch = counter(c, t - c);
  }
  const file: FileCoverage = { path, language: languageOf(path), lines, classes: [], counters };
  if (hasBranches) file.branches = branches.sort((a, b) => a.line - b.line);
  return file;
}
