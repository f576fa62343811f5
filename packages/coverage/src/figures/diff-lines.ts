import type { ChangedFile } from '../diff/unified.ts';
import { ascendingUnique } from '../model/sorted.ts';

export interface DiffLineCoverage {
  covered: number;
  total: number;
  /** covered / total, or null when no changed line is coverable ("no changed lines"). */
  ratio: number | null;
}

/** A file's hits by line number (a `Map` will do); undefined where the report has no such line. */
export interface LineHits {
  get(line: number): number | undefined;
}

/**
 * Line diff coverage as Debian's diff-cover defines it: a changed new-side line counts when the
 * report measures it (any report lists it); it is covered when any report gives it hits > 0.
 * Deleted and binary files, and files the report does not list, contribute nothing. Where
 * diff-cover misplaces lines after a `\ No newline at end of file` marker (`diffCoverShiftFrom`),
 * this does too, so the two print the same figure.
 * `hitsByFile` maps repo-relative paths to line -> hits (hits already summed across reports).
 */
export function diffLineCoverage(
  changed: readonly ChangedFile[],
  hitsByFile: ReadonlyMap<string, LineHits>,
): DiffLineCoverage {
  let covered = 0;
  let total = 0;
  for (const file of changed) {
    if (file.status === 'deleted' || file.binary) continue;
    const hits = hitsByFile.get(file.path);
    if (!hits) continue;
    const shift = file.diffCoverShiftFrom ?? Number.POSITIVE_INFINITY;
    for (const changed of ascendingUnique(file.lines)) {
      const h = hits.get(changed >= shift ? changed + 1 : changed);
      if (h === undefined) continue;
      total++;
      if (h > 0) covered++;
    }
  }
  return { covered, total, ratio: total === 0 ? null : covered / total };
}
