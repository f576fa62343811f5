import type { DiffCoverage } from '@sextant/coverage';
import type pg from 'pg';
import type { RequirementMethodRow } from '../../../db/schema/index.ts';

/** A requirement key, the commits naming it, and the diff's changed methods (indexes) they wrote. */
export type RequirementChange = { key: string; commits: { sha: string; subject: string }[]; methods: number[] };

export type RequirementRow = {
  key: string;
  commits: RequirementChange['commits'];
  methods: RequirementMethodRow[];
  covered: number;
};

/** The report's rows: per key its commits and its changed methods with the report's coverage of each. */
export function requirementRows(diff: DiffCoverage | null, changes: readonly RequirementChange[]): RequirementRow[] {
  const all = diff?.incremental.methods ?? [];
  return changes.map((change) => {
    const methods = change.methods.flatMap((index) => {
      const m = all[index];
      if (!m) return [];
      const line = m.counters.line;
      return [
        {
          filePath: m.file,
          className: m.class,
          method: m.signature ? m.name + m.signature : m.name,
          measured: m.measured,
          covered: m.covered,
          lineCovered: line?.covered ?? 0,
          lineTotal: line ? line.covered + line.missed : 0,
        },
      ];
    });
    return { key: change.key, commits: change.commits, methods, covered: methods.filter((m) => m.covered).length };
  });
}

/**
 * Replaces a report's requirement rows (table report_requirements) inside its generation transaction.
 * Its app's requirement figures (requirement_app_summaries) follow the report reaching SUCCESS (the
 * trigger of migration 0022); rows written again for a report already successful (the summaries
 * backfill) refresh them here.
 */
export async function writeRequirementRows(client: pg.PoolClient, reportId: string, rows: RequirementRow[]) {
  await client.query('delete from report_requirements where report_id = $1', [reportId]);
  if (rows.length > 0) await insertRequirementRows(client, reportId, rows);
  await refreshRequirementApp(client, reportId);
}

/** The app's requirement figures again (migration 0022's function) when the report counts in them. */
async function refreshRequirementApp(client: pg.PoolClient, reportId: string): Promise<void> {
  await client.query(
    `select requirement_app_summaries_refresh(app_id) from reports where id = $1 and status = 'SUCCESS'`,
    [reportId],
  );
}

async function insertRequirementRows(client: pg.PoolClient, reportId: string, rows: RequirementRow[]) {
  await client.query(
    `insert into report_requirements (report_id, requirement_key, commits, methods, changed_methods, covered_methods)
     select $1, k, c, m, n, v from unnest($2::text[], $3::jsonb[], $4::jsonb[], $5::int[], $6::int[]) as u(k, c, m, n, v)`,
    [
      reportId,
      rows.map((r) => r.key),
      rows.map((r) => JSON.stringify(r.commits)),
      rows.map((r) => JSON.stringify(r.methods)),
      rows.map((r) => r.methods.length),
      rows.map((r) => r.covered),
    ],
  );
}
