import { branchCounter, type Coverage, type DiffCoverage, lineCounter, type RevisionChanges } from '@sextant/coverage';
import { type Column, type ColumnData, intArrayLiteral } from './bulk-insert.ts';
import { emptyColumns, pushRow } from './detail-rows.ts';

const FILE_COLUMNS: readonly Column[] = [
  { name: 'path', type: 'text' },
  { name: 'language', type: 'text' },
  { name: 'line_covered', type: 'int4' },
  { name: 'line_total', type: 'int4' },
  { name: 'branch_covered', type: 'int4' },
  { name: 'branch_total', type: 'int4' },
  { name: 'changed', type: 'bool' },
  { name: 'diff_line_covered', type: 'int4' },
  { name: 'diff_line_total', type: 'int4' },
  { name: 'line_numbers', type: 'int4[]' },
  { name: 'line_hits', type: 'int8[]' },
  { name: 'branches_covered', type: 'int4[]' },
  { name: 'branches_total', type: 'int4[]' },
  { name: 'changed_lines', type: 'int4[]' },
  { name: 'carried_lines', type: 'int4[]' },
];

/**
 * One row per report file for the source view: its figures, its lines as parallel arrays, and all
 * changed new-side lines (not only coverable ones, so the view marks every changed line). Files the
 * diff touches but the report does not list get no row: there is no line data to show.
 */
export function fileRows(
  coverage: Coverage,
  diff: DiffCoverage | null,
  changes: RevisionChanges | null,
  /** Per file, the lines only carried coverage covers (issue 38). */
  carriedLines: ReadonlyMap<string, readonly number[]> = new Map(),
): ColumnData {
  const changedLines = new Map<string, readonly number[]>();
  for (const file of changes?.changed ?? []) {
    if (file.status !== 'deleted' && !file.binary) changedLines.set(file.path, file.lines);
  }
  const diffLines = new Map((diff?.files ?? []).map((f) => [f.path, f]));
  const rows = emptyColumns(FILE_COLUMNS);
  const seen = new Set<string>();
  for (const file of coverage.files) {
    if (seen.has(file.path)) throw new Error(`the coverage lists ${file.path} twice; merge it before generating`);
    seen.add(file.path);
    const line = file.counters.line ?? lineCounter(file.lines);
    const branch = file.counters.branch ?? branchCounter(file.lines);
    const changed = changedLines.get(file.path);
    const diffFile = diffLines.get(file.path);
    pushRow(rows, [
      file.path,
      file.language,
      line.covered,
      line.covered + line.missed,
      branch.covered,
      branch.covered + branch.missed,
      changed !== undefined && changed.length > 0,
      diffFile?.covered ?? null,
      diffFile?.total ?? null,
      intArrayLiteral(file.lines.map((l) => l.line)),
      intArrayLiteral(file.lines.map((l) => l.hits)),
      intArrayLiteral(file.lines.map((l) => l.branchesCovered)),
      intArrayLiteral(file.lines.map((l) => l.branchesTotal)),
      intArrayLiteral(changed ?? []),
      intArrayLiteral(carriedLines.get(file.path) ?? []),
    ]);
  }
  return rows;
}
