import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { analyticsGeneration } from '../../db/schema/index.ts';
import { preparedRows } from '../../lib/prepared-read.ts';

/** An app as the analytics reads label it (names come from the apps and teams modules). */
export type ScopedApp = { id: string; name: string; teamId: string; teamName: string };

/** Which reports an analytics read looks at (issue 35): the apps in scope and the report filters. */
export type ReportScope = {
  apps: readonly ScopedApp[];
  version?: string;
  testType?: 1 | 2;
  envType?: string;
  /** Days (YYYY-MM-DD, UTC), inclusive, on the report's finishing time. */
  from?: string;
  to?: string;
};

export type Row = Record<string, unknown>;

/** The time a report counts at: when it finished (a report still running: when it was made). */
export const AT = sql.raw('coalesce(r.finished_at, r.created_at)');

/** The scope's filters on `reports r`; successful reports only unless `anyStatus`. */
export function scopeFilter(scope: ReportScope, opts: { anyStatus?: boolean; noVersion?: boolean } = {}): SQL {
  const ids = `{${scope.apps.map((a) => a.id).join(',')}}`;
  const parts: SQL[] = [sql`r.app_id = any(${ids}::uuid[])`];
  if (!opts.anyStatus) parts.push(sql`r.status = 'SUCCESS'`);
  if (scope.version && !opts.noVersion) parts.push(sql`r.new_version = ${scope.version}`);
  if (scope.testType) parts.push(sql`r.test_type = ${scope.testType}`);
  if (scope.envType) parts.push(sql`r.env_type = ${scope.envType}`);
  if (scope.from) parts.push(sql`${AT} >= ${scope.from}::date`);
  if (scope.to) parts.push(sql`${AT} < ${scope.to}::date + 1`);
  return sql.join(parts, sql` and `);
}

/**
 * The reach rows (app_case_method_reach) the scope's test type and environment allow, and with
 * `versioned` its version: the filters of report rows on `a`.
 */
export function reachFilter(scope: ReportScope, versioned: boolean): SQL {
  const parts: SQL[] = [];
  if (versioned && scope.version) parts.push(sql`a.new_version = ${scope.version}`);
  if (scope.testType) parts.push(sql`a.test_type = ${scope.testType}`);
  if (scope.envType) parts.push(sql`a.env_type = ${scope.envType}`);
  return parts.length === 0 ? sql`true` : sql.join(parts, sql` and `);
}

/**
 * Only apps narrow the reports (team, project, app: no version, test type, environment or days): the
 * per-app summaries kept with the reports answer for the whole scope.
 */
export const narrowedByAppsOnly = (scope: ReportScope): boolean =>
  !scope.version && !scope.testType && !scope.envType && !scope.from && !scope.to;

/** The scope's apps as a relation `names(app_id, app_name, team_name)`, to sort and label by name in SQL. */
export function appNames(scope: ReportScope): SQL {
  const rows = scope.apps.map((a) => ({ app_id: a.id, app_name: a.name, team_name: a.teamName }));
  return sql`(select * from json_to_recordset(${JSON.stringify(rows)}::json)
    as n(app_id uuid, app_name text, team_name text))`;
}

export const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
export const int = (v: unknown): number => Number(v ?? 0);
export const fraction = (covered: unknown, total: unknown): number | null => {
  const c = num(covered);
  const t = num(total);
  return c === null || t === null || t === 0 ? null : c / t;
};
export const iso = (v: unknown): string => new Date(v as string | Date).toISOString();
export const testTypeOf = (v: unknown): 1 | 2 => (Number(v) === 2 ? 2 : 1);

/** analytics_generation.n: bumped in the commit of every write the analytics reads see (migration 0031). */
export async function readAnalyticsGeneration(db: Db): Promise<number> {
  const [row] = await preparedRows(
    db,
    sql`select ${analyticsGeneration.n} as n from ${analyticsGeneration} where ${analyticsGeneration.id} = 1`,
  );
  return Number(row?.n ?? 0);
}
