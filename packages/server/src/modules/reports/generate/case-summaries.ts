import type { Coverage, MethodCoverage } from '@sextant/coverage';
import type pg from 'pg';
import { classEntries } from './detail-rows.ts';
import type { MethodChanges } from './method-changes.ts';

/** One upload's mapped coverage and the test case it names (the upload's case id). */
export type CaseCoverage = { caseKey: string; coverage: Coverage };

export type CaseMethodRow = { caseKey: string; filePath: string; className: string; method: string; changed: boolean };

/** A method ran when its method counter is covered, else when any of its lines is. */
function ran(method: MethodCoverage): boolean {
  const counter = method.counters.method ?? method.counters.line;
  return counter !== null && counter.covered > 0;
}

/**
 * The report methods each case's uploads ran, named as report_details names them (class row name,
 * `name + signature`), with whether the method is a changed method of the report. Several uploads of
 * one case add up; a method appears once per case.
 */
export function caseMethodRows(cases: readonly CaseCoverage[], changes: MethodChanges): CaseMethodRow[] {
  const rows = new Map<string, CaseMethodRow>();
  for (const { caseKey, coverage } of cases) {
    for (const entry of classEntries(coverage)) {
      const path = entry.file.path;
      const touched = changes.touches(path);
      for (const method of entry.methods) {
        if (!ran(method)) continue;
        const name = method.signature ? method.name + method.signature : method.name;
        const key = [caseKey, path, entry.name, name].join('\u0000');
        const changed = touched && changes.changeOf(path, entry.name, method) !== null;
        const seen = rows.get(key);
        if (seen) seen.changed ||= changed;
        else rows.set(key, { caseKey, filePath: path, className: entry.name, method: name, changed });
      }
    }
  }
  return [...rows.values()];
}

/** Per case, how many methods it ran and how many of them are changed methods (report_case_summaries). */
export function caseSummaries(rows: readonly CaseMethodRow[]): { caseKey: string; methods: number; changed: number }[] {
  const byCase = new Map<string, { caseKey: string; methods: number; changed: number }>();
  for (const row of rows) {
    const summary = byCase.get(row.caseKey) ?? { caseKey: row.caseKey, methods: 0, changed: 0 };
    summary.methods++;
    if (row.changed) summary.changed++;
    byCase.set(row.caseKey, summary);
  }
  return [...byCase.values()];
}

/**
 * Replaces a report's case rows (table report_case_methods) and their per-case counts
 * (report_case_summaries) inside its generation transaction. Its app's case figures
 * (app_case_summaries) and its group's reach (app_case_method_reach) follow the report reaching
 * SUCCESS (the trigger of migrations 0022 and 0030); rows written again for a report already
 * successful (the summaries backfill) refresh them here.
 */
export async function writeCaseMethods(client: pg.PoolClient, reportId: string, rows: CaseMethodRow[]): Promise<void> {
  await client.query('delete from report_case_methods where report_id = $1', [reportId]);
  await client.query('delete from report_case_summaries where report_id = $1', [reportId]);
  for (let from = 0; from < rows.length; from += 10_000) {
    const part = rows.slice(from, from + 10_000);
    await client.query(
      `insert into report_case_methods (report_id, case_key, file_path, class_name, method, changed)
       select $1, * from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bool[])`,
      [
        reportId,
        part.map((r) => r.caseKey),
        part.map((r) => r.filePath),
        part.map((r) => r.className),
        part.map((r) => r.method),
        part.map((r) => r.changed),
      ],
    );
  }
  const summaries = caseSummaries(rows);
  if (summaries.length > 0) {
    await client.query(
      `insert into report_case_summaries (report_id, case_key, methods, changed_methods)
       select $1, * from unnest($2::text[], $3::int[], $4::int[])`,
      [reportId, summaries.map((s) => s.caseKey), summaries.map((s) => s.methods), summaries.map((s) => s.changed)],
    );
  }
  await client.query(
    `select app_case_summaries_refresh(app_id), app_case_method_reach_refresh(app_id, test_type, env_type, new_version)
     from reports where id = $1 and status = 'SUCCESS'`,
    [reportId],
  );
}
