import type { ChangedFile } from '../diff/unified.ts';
import type { SourceMethod } from '../methods/types.ts';
import type { Coverage } from '../model/coverage.ts';
import { type LineColumns, lineColumns } from '../model/line-buffer.ts';
import { type DiffLineCoverage, diffLineCoverage, type LineHits } from './diff-lines.ts';
import { type ChangedMethod, type IncrementalCoverage, incrementalCoverage } from './incremental.ts';

export interface ChangedFileCoverage extends DiffLineCoverage {
  path: string;
  status: ChangedFile['status'];
}

export interface DiffCoverage {
  base: string;
  head: string;
  lines: DiffLineCoverage;
  files: ChangedFileCoverage[];
  incremental: IncrementalCoverage;
  /** `name <email>` per changed method, in the order of `incremental.methods`. */
  authors: (string | null)[];
  /** How many files `git blame` was run on. */
  blamedFiles: number;
  /** Changed files whose methods are unknown: tree-sitter gave up on their source. */
  unparsedFiles: string[];
}

/** What the repository says about two revisions, before any report is involved. */
export interface RevisionChanges {
  base: string;
  head: string;
  changed: ChangedFile[];
  /**
   * The head revision's methods of each file holding a changed method: what the figures need to
   * give a line to its innermost method. The base revision's are gone once the statuses are set,
   * and files without a changed method are left out (kept changes are read faster).
   */
  headMethods: Map<string, readonly SourceMethod[]>;
  changedMethods: ChangedMethod[];
  /** `name <email>` per changed method, in the order of `changedMethods`; null without changed lines. */
  authors: (string | null)[];
  /** How many files `git blame` was run on (the others had one author in the range). */
  blamedFiles: number;
  /**
   * Changed files whose methods are unknown because tree-sitter gave up on their source (see
   * ParseBudgetExceeded); absent where there are none. An answer with any is never kept.
   */
  unparsedFiles?: string[];
  /**
   * Kept with the changes when the caller asked them (see `ChangesOptions.headFiles`): whether base
   * is an ancestor of head, and the head commit's files. A run that finds them kept asks git neither.
   */
  baseIsAncestor?: boolean;
  headFiles?: string[];
}

/** Hits by line from a file's lines, which are sorted by line: no map of a large file is built. */
class SortedLineHits implements LineHits {
  constructor(private readonly lines: LineColumns) {}

  get(line: number): number | undefined {
    const index = this.lines.firstAtLeast(line);
    return index < this.lines.length && this.lines.line(index) === line ? this.lines.hits(index) : undefined;
  }
}

/** Line -> hits of the report's files that the diff touches. */
function hitsOfChangedFiles(coverage: Coverage, changed: readonly ChangedFile[]): Map<string, LineHits> {
  const wanted = new Set(changed.map((f) => f.path));
  const hits = new Map<string, LineHits>();
  for (const file of coverage.files) {
    if (wanted.has(file.path)) hits.set(file.path, new SortedLineHits(lineColumns(file)));
  }
  return hits;
}

/**
 * Diff figures for a report already mapped to repository paths: line diff coverage (diff-cover's
 * definition), per-file line figures, and the changed methods' incremental counters.
 */
export function diffCoverage(changes: RevisionChanges, coverage: Coverage): DiffCoverage {
  const hits = hitsOfChangedFiles(coverage, changes.changed);
  const files = changes.changed
    .filter((f) => f.status !== 'deleted' && !f.binary)
    .map((f) => ({ path: f.path, status: f.status, ...diffLineCoverage([f], hits) }));
  // Deleted and binary files count nothing, so the whole diff's figure is the files' sum.
  let covered = 0;
  let total = 0;
  for (const f of files) {
    covered += f.covered;
    total += f.total;
  }
  return {
    base: changes.base,
    head: changes.head,
    lines: { covered, total, ratio: total === 0 ? null : covered / total },
    files,
    incremental: incrementalCoverage(changes.changedMethods, coverage, changes.headMethods),
    authors: changes.authors,
    blamedFiles: changes.blamedFiles,
    unparsedFiles: changes.unparsedFiles ?? [],
  };
}
