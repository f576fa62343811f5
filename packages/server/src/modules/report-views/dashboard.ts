import { type Dashboard, type Report, RUNNING_STATUSES } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import { fractionSql, iso, isUuid, REPORT_COLUMNS, toReport } from './report-row.ts';

export const TREND_LENGTH = 20;

type Scope = { teamId?: string; appId?: string };
type AppRow = { id: string; name: string; teamId: string; teamName: string };

async function appsInScope(db: Db, scope: Scope): Promise<AppRow[]> {
  const filters: SQL[] = [sql`true`];
  if (scope.teamId) filters.push(sql`a.team_id = ${scope.teamId}`);
  if (scope.appId) filters.push(sql`a.id = ${scope.appId}`);
  const result = await db.execute(sql`select a.id, a.name, a.team_id, t.name as team_name
    from apps a join teams t on t.id = a.team_id where ${sql.join(filters, sql` and `)} order by t.name, a.name`);
  return result.rows.map((r) => ({
    id: String(r.id),
    name: String(r.name),
    teamId: String(r.team_id),
    teamName: String(r.team_name),
  }));
}

async function exists(db: Db, table: 'teams' | 'apps', id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await db.execute(sql`select 1 from ${sql.raw(table)} where id = ${id}`);
  return result.rows.length > 0;
}

/**
 * The team and app dashboards (issue 6): per app and test type, the latest successful full and
 * incremental report and the trend of the last successful reports (by version: the version first
 * reported first, issue 37); reports running now;
 * open risk items. Without a team or app: every app.
 */
export async function dashboard(db: Db, scope: Scope): Promise<Dashboard> {
  if (scope.teamId && !(await exists(db, 'teams', scope.teamId))) throw new ApiError(404, 'not-found', 'No such team.');
  if (scope.appId && !(await exists(db, 'apps', scope.appId))) throw new ApiError(404, 'not-found', 'No such app.');
  const apps = await appsInScope(db, scope);
  const ids = apps.map((a) => a.id);
  if (ids.length === 0) return { apps: [], running: [], openRisks: 0 };
  const inScope = sql`r.app_id = any(${`{${ids.join(',')}}`}::uuid[])`;
  const running = sql.raw(`(${RUNNING_STATUSES.map((s) => `'${s}'`).join(', ')})`);
  const [latest, trend, now, risks] = await Promise.all([
    db.execute(sql`select distinct on (r.app_id, r.test_type, r.coverage_type) ${REPORT_COLUMNS}
      from reports r join apps a on a.id = r.app_id where ${inScope} and r.status = 'SUCCESS'
      order by r.app_id, r.test_type, r.coverage_type, coalesce(r.finished_at, r.created_at) desc, r.id desc`),
    db.execute(sql`select * from (
        select r.id, r.app_id, r.test_type, r.name, r.coverage_type, coalesce(r.finished_at, r.created_at) as date,
          r.new_version, min(r.created_at) over (partition by r.app_id, r.test_type, r.new_version) as version_date,
          ${fractionSql('r', 'line')} as line_coverage, ${fractionSql('r', 'branch')} as branch_coverage,
          (r.diff_line_covered::float8 / nullif(r.diff_line_total, 0)) as diff_line_coverage,
          row_number() over (partition by r.app_id, r.test_type
            order by coalesce(r.finished_at, r.created_at) desc, r.id desc) as n
        from reports r where ${inScope} and r.status = 'SUCCESS') recent
      where n <= ${TREND_LENGTH} order by version_date asc, date asc, id asc`),
    db.execute(sql`select ${REPORT_COLUMNS} from reports r join apps a on a.id = r.app_id
      where ${inScope} and r.status in ${running} order by r.created_at asc, r.id asc`),
    db.execute(sql`select count(*)::int as n from risk_items r
      where ${inScope} and r.state in ('observing', 'pending')`),
  ]);
  const latestReports = latest.rows.map(toReport);
  const summaries: Dashboard['apps'] = [];
  for (const app of apps) {
    for (const testType of [1, 2] as const) {
      const pick = (coverageType: Report['coverageType']) =>
        latestReports.find((r) => r.appId === app.id && r.testType === testType && r.coverageType === coverageType) ??
        null;
      summaries.push({
        appId: app.id,
        appName: app.name,
        teamId: app.teamId,
        teamName: app.teamName,
        testType,
        latestFull: pick('full'),
        latestIncremental: pick('incremental'),
        trend: trend.rows
          .filter((t) => String(t.app_id) === app.id && Number(t.test_type) === testType)
          .map((t) => ({
            reportId: String(t.id),
            name: String(t.name),
            date: iso(t.date),
            version: String(t.new_version),
            versionDate: iso(t.version_date),
            coverageType: t.coverage_type === 'incremental' ? 'incremental' : 'full',
            lineCoverage: t.line_coverage === null ? null : Number(t.line_coverage),
            branchCoverage: t.branch_coverage === null ? null : Number(t.branch_coverage),
            diffLineCoverage: t.diff_line_coverage === null ? null : Number(t.diff_line_coverage),
          })),
      });
    }
  }
  return { apps: summaries, running: now.rows.map(toReport), openRisks: Number(risks.rows[0]?.n ?? 0) };
}
