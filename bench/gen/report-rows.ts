// Bulk report rows for the read-side benchmarks, generated inside the database (generate_series), so
// 5,000,000 detail rows load in about a minute instead of crossing the wire as parameters.
import type pg from 'pg';

export type ReportRowsShape = {
  teams: number;
  apps: number;
  reports: number;
  /** Per report: class rows, each followed by this many method rows. */
  classesPerReport: number;
  methodsPerClass: number;
  /** One more report with this many class rows (the virtualised detail table's case). */
  largeReportClasses: number;
};

export const FULL_SHAPE: ReportRowsShape = {
  teams: 20,
  apps: 1000,
  reports: 100_000,
  classesPerReport: 5,
  methodsPerClass: 9,
  largeReportClasses: 20_000,
};

/** Report n has the id md5('r' || n)::uuid, so the benchmark can address rows without reading them back. */
export const LARGE_REPORT_NO = 0;

const counters = (seed: string, nullEvery: number) => `
  case when ${seed} % ${nullEvery} = 0 then null else (${seed} * 7919) % 97 end,
  case when ${seed} % ${nullEvery} = 0 then null else 97 end`;

/**
 * Loads teams, apps, reports (plus one large report) and their class and method rows. Returns row counts.
 * Foreign keys are not checked while loading (session_replication_role = replica: the generated ids are
 * consistent by construction), which halves the load time; it needs a superuser, as on a bench server.
 */
export async function loadReportRows(
  pool: pg.Pool,
  shape: ReportRowsShape,
): Promise<{ reports: number; details: number }> {
  const client = await pool.connect();
  try {
    await client.query('set session_replication_role = replica');
    return await load(client, shape);
  } finally {
    await client.query('reset session_replication_role');
    client.release();
  }
}

async function load(db: pg.PoolClient, shape: ReportRowsShape): Promise<{ reports: number; details: number }> {
  const rowsPerReport = shape.classesPerReport * (1 + shape.methodsPerClass);
  await db.query(`insert into teams (id, name) select md5('t' || g)::uuid, 'team-' || g
    from generate_series(1, ${shape.teams}) g`);
  await db.query(`insert into apps (id, team_id, name, language, repo_url, default_branch, coverage_source,
      ingestion_token_hash)
    select md5('a' || g)::uuid, md5('t' || (g % ${shape.teams} + 1))::uuid, 'app-' || g, 'java',
      'https://git.example.test/app-' || g || '.git', 'main', 'jacoco-agent', md5('token' || g)
    from generate_series(1, ${shape.apps}) g`);
  // Report n belongs to app (n % apps) + 1; about 5 % have no line counter and 20 % no branch counter.
  await db.query(`insert into reports (id, app_id, name, base_version, new_version, env_type, test_type,
      coverage_type, status, line_covered, line_total, branch_covered, branch_total, instruction_covered,
      instruction_total, method_covered, method_total, complexity_covered, complexity_total,
      diff_line_covered, diff_line_total, created_at, updated_at, finished_at)
    select md5('r' || g)::uuid, md5('a' || (g % ${shape.apps} + 1))::uuid, 'report-' || g,
      'v' || (g / ${shape.apps} % 50), 'v' || (g / ${shape.apps} % 50 + 1), (array['dev','test','staging'])[g % 3 + 1],
      g % 2 + 1, case when g % 4 = 0 then 'incremental' else 'full' end,
      case when g % 50 = 0 then 'CLONE_FAIL' when g % 97 = 0 then 'ENV_REPORT' else 'SUCCESS' end,
      ${counters('g', 20)}, ${counters('g', 5)}, ${counters('g', 3)}, ${counters('(g + 1)', 7)}, ${counters('(g + 2)', 11)},
      case when g % 4 = 0 then g % 13 end, case when g % 4 = 0 then 13 end,
      now() - (g || ' minutes')::interval, now(), now() - (g || ' minutes')::interval
    from generate_series(${LARGE_REPORT_NO}, ${shape.reports}) g`);
  // Detail row ids are laid out per report: class k of report n has id n*rowsPerReport + k*(methods+1) + 1.
  const step = shape.methodsPerClass + 1;
  const details = (reportFrom: number, reportTo: number, classes: number, base: string) =>
    db.query(`insert into report_details (id, report_id, class_id, kind, name, file_path, start_line, end_line,
        changed, method_count, line_covered, line_total, branch_covered, branch_total, instruction_covered,
        instruction_total, code_author)
      select ${base} + c * ${step} + m + 1, md5('r' || r)::uuid,
        case when m = 0 then null else ${base} + c * ${step} + 1 end,
        case when m = 0 then 'class' else 'method' end,
        case when m = 0 then 'com/example/p' || (c % 40) || '/Class' || c else 'method' || m || '(I)V' end,
        'src/main/java/com/example/p' || (c % 40) || '/Class' || c || '.java',
        case when m = 0 then null else m * 20 end, case when m = 0 then null else m * 20 + 15 end,
        (r + c + m) % 7 = 0, case when m = 0 then ${shape.methodsPerClass} else 0 end,
        (r * 31 + c * 17 + m * 7) % 23, 22, case when m % 3 = 0 then null else (r + c + m) % 5 end,
        case when m % 3 = 0 then null else 4 end, (r + c * 3 + m) % 101, 100,
        (array['ada','bea','cai','dee'])[(c + m) % 4 + 1]
      from generate_series(${reportFrom}, ${reportTo}) r, generate_series(0, ${classes - 1}) c,
        generate_series(0, ${shape.methodsPerClass}) m`);
  // Batches of 10,000 reports keep each statement's memory and WAL modest.
  for (let from = 1; from <= shape.reports; from += 10_000) {
    await details(from, Math.min(shape.reports, from + 9_999), shape.classesPerReport, `r::bigint * ${rowsPerReport}`);
  }
  const largeBase = (shape.reports + 1) * rowsPerReport;
  await details(LARGE_REPORT_NO, LARGE_REPORT_NO, shape.largeReportClasses, String(largeBase));
  await db.query(`select setval(pg_get_serial_sequence('report_details', 'id'), (select max(id) from report_details))`);
  await db.query('analyze teams; analyze apps; analyze reports; analyze report_details');
  return {
    reports: shape.reports + 1,
    details: shape.reports * rowsPerReport + shape.largeReportClasses * (1 + shape.methodsPerClass),
  };
}

/** The id of class row k of report n (the layout above). */
export function classRowId(shape: ReportRowsShape, reportNo: number, classNo: number): number {
  const rowsPerReport = shape.classesPerReport * (1 + shape.methodsPerClass);
  const base = reportNo === LARGE_REPORT_NO ? (shape.reports + 1) * rowsPerReport : reportNo * rowsPerReport;
  return base + classNo * (shape.methodsPerClass + 1) + 1;
}
