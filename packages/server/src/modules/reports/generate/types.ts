import type { Carried } from '@sextant/api';
import type { CarriedFigures, Coverage, DiffCoverage, RevisionChanges } from '@sextant/coverage';
import type pg from 'pg';
import type { CaseCoverage } from './case-summaries.ts';
import type { RequirementChange } from './requirement-summaries.ts';

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
  /** The report's test type (risk items carry it for their filters). */
  testType?: number;
  /** A monorepo's package folders (`workspaceFolders` at the new commit); none by default. */
  packages?: string[];
  /**
   * Issue 38: what coverage carried from older commits adds, and the report's `carried` summary;
   * absent or null when carry-forward is off or nothing was carried. The fresh figures stay as they are.
   */
  carried?: { figures: CarriedFigures; summary: Carried } | null;
  /** Each case-tagged upload's mapped coverage (case analytics, issue 35); none by default. */
  cases?: CaseCoverage[];
  /** Per requirement key, its commits and the changed methods they wrote (incremental; issue 35). */
  requirementChanges?: RequirementChange[];
};

/** What the risks module records of a report: written in the report's transaction, announced after it. */
export type CoverageRiskInput = {
  reportId: string;
  appId: string;
  version: string;
  testType: number | null;
  coverage: Coverage;
  /** Null for a full report: it only resolves items it shows at the grade. */
  diff: DiffCoverage | null;
  requirement: string | null;
  passingGrade: number;
};
export type CoverageRiskOutcome = { opened: number; resolved: number; announce: () => Promise<void> };
/** The risks module's side of report generation (issue 34), handed to the reports module. */
export interface CoverageRisks {
  record(client: pg.ClientBase, input: CoverageRiskInput): Promise<CoverageRiskOutcome>;
}

/** Row counts written, for the step's log line and the bench. */
export type GenerateResult = {
  classRows: number;
  methodRows: number;
  fileRows: number;
  riskItemsOpened: number;
  riskItemsResolved: number;
};
