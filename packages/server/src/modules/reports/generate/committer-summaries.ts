import type { DiffCoverage } from '@sextant/coverage';
import type pg from 'pg';

export type CommitterSummary = {
  author: string;
  changedMethods: number;
  measuredMethods: number;
  coveredMethods: number;
  lineCovered: number;
  lineTotal: number;
};

/**
 * The changed methods of a diff grouped by blame author: how many, how many the report measured and
 * covered (the engine's `covered`), and their line counters summed. An absent line counter adds nothing.
 */
export function committerSummaries(diff: DiffCoverage): CommitterSummary[] {
  const byAuthor = new Map<string, CommitterSummary>();
  diff.incremental.methods.forEach((method, index) => {
    const author = diff.authors[index] ?? '';
    let row = byAuthor.get(author);
    if (!row) {
      row = { author, changedMethods: 0, measuredMethods: 0, coveredMethods: 0, lineCovered: 0, lineTotal: 0 };
      byAuthor.set(author, row);
    }
    row.changedMethods++;
    if (method.measured) row.measuredMethods++;
    if (method.covered) row.coveredMethods++;
    const line = method.counters.line;
    if (line) {
      row.lineCovered += line.covered;
      row.lineTotal += line.covered + line.missed;
    }
  });
  return [...byAuthor.values()];
}

/**
 * Replaces a report's committer summaries (table report_committers) inside its generation
 * transaction; a report without a diff has none.
 */
export async function writeCommitterSummaries(
  client: pg.PoolClient,
  reportId: string,
  diff: DiffCoverage | null,
): Promise<void> {
  await client.query('delete from report_committers where report_id = $1', [reportId]);
  if (!diff) return;
  const rows = committerSummaries(diff);
  if (rows.length === 0) return;
  await client.query(
    `insert into report_committers
       (report_id, author, changed_methods, measured_methods, covered_methods, line_covered, line_total)
     select $1, * from unnest($2::text[], $3::int[], $4::int[], $5::int[], $6::int8[], $7::int8[])`,
    [
      reportId,
      rows.map((r) => r.author),
      rows.map((r) => r.changedMethods),
      rows.map((r) => r.measuredMethods),
      rows.map((r) => r.coveredMethods),
      rows.map((r) => r.lineCovered),
      rows.map((r) => r.lineTotal),
    ],
  );
}
