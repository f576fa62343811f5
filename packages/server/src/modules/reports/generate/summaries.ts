import type { DiffCoverage } from '@sextant/coverage';
import type pg from 'pg';
import { type CaseMethodRow, writeCaseMethods } from './case-summaries.ts';
import { writeCommitterSummaries } from './committer-summaries.ts';
import { type RequirementRow, writeRequirementRows } from './requirement-summaries.ts';

/**
 * The generation of the summary tables a report's rows carry (committers, cases, requirements). A
 * successful report whose `summaries_version` is below it (null: finished before the column) has its
 * summaries derived again by the backfill (summaries-backfill.ts).
 */
export const SUMMARIES_VERSION = 1;

export type ReportSummaries = { diff: DiffCoverage | null; cases: CaseMethodRow[]; requirements: RequirementRow[] };

/** Replaces a report's summaries and marks them current, on the caller's transaction. */
export async function writeSummaries(client: pg.PoolClient, reportId: string, s: ReportSummaries): Promise<void> {
  await writeCommitterSummaries(client, reportId, s.diff);
  await writeCaseMethods(client, reportId, s.cases);
  await writeRequirementRows(client, reportId, s.requirements);
  await client.query('update reports set summaries_version = $2 where id = $1', [reportId, SUMMARIES_VERSION]);
}
