import type { Coverage } from '../model/coverage.ts';
import type { DiffCoverage } from './diff-coverage.ts';

/** One package's share of a report: its files' line totals and, with a diff, its changed lines. */
export interface PackageFigures {
  /** The package folder (repository-relative); '' for files in no package. */
  folder: string;
  files: number;
  lines: { covered: number; total: number };
  diffLines: { covered: number; total: number } | null;
}

/**
 * The report's figures split by package (`workspaceFolders`): each file counts in the deepest
 * package folder holding it. Packages the report has no file of and no changed line in are left out.
 */
export function figuresByPackage(
  folders: readonly string[],
  coverage: Coverage,
  diff: DiffCoverage | null,
): PackageFigures[] {
  const deepestFirst = [...folders].sort((a, b) => b.length - a.length);
  const owner = (path: string) => deepestFirst.find((folder) => path.startsWith(`${folder}/`)) ?? '';
  const rows = new Map<string, PackageFigures>();
  const row = (folder: string) => {
    let found = rows.get(folder);
    if (!found) {
      found = { folder, files: 0, lines: { covered: 0, total: 0 }, diffLines: diff ? { covered: 0, total: 0 } : null };
      rows.set(folder, found);
    }
    return found;
  };
  for (const file of coverage.files) {
    const into = row(owner(file.path));
    into.files++;
    const line = file.counters.line;
    if (line) {
      into.lines.covered += line.covered;
      into.lines.total += line.covered + line.missed;
    }
  }
  for (const file of diff?.files ?? []) {
    if (file.total === 0) continue;
    const into = row(owner(file.path)).diffLines as { covered: number; total: number };
    into.covered += file.covered;
    into.total += file.total;
  }
  return [...rows.values()].sort((a, b) => a.folder.localeCompare(b.folder));
}
