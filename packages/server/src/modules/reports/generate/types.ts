import type { Coverage, DiffCoverage, RevisionChanges } from '@sextant/coverage';

/** What the GENERATING_REPORT step needs: a merged, path-mapped coverage and (incremental) its diff. */
export type GenerateInput = {
  reportId: string;
  appId: string;
  /** The report's newVersion as named (risk items carry it). */
  version: string;
  newCommit: string;
  coverageType: 'full' | 'incremental';
  /** Merged, paths repo-relative. */
  coverage: Coverage;
  /** diffCoverage(changes, coverage) for an incremental report; null for a full one. */
  diff: DiffCoverage | null;
  changes: RevisionChanges | null;
  /** Requirement keys referenced by commit messages between base and new, e.g. 'REQ-12' (may be empty). */
  requirements: string[];
  /** The settings' passing grade (a fraction), default 0.6. */
  passingGrade: number;
};

/** Row counts written, for the step's log line and the bench. */
export type GenerateResult = {
  classRows: number;
  methodRows: number;
  fileRows: number;
  riskItemsOpened: number;
  riskItemsResolved: number;
};
