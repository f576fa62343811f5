// The rows the analytics reads need beyond reports and their detail rows (issue 35), generated inside
// the database (generate_series) over the layout of report-rows.ts: committer summaries, projects,
// requirements, cases, case-tagged uploads, per-case methods, requirement summaries and risks. Names
// follow report_details' (file, class, method), so case and requirement rows meet the changed methods.
import type pg from 'pg';
import type { ReportRowsShape } from './report-rows.ts';

export type AnalyticsShape = {
  /** Apps per project (projects = apps / this). */
  appsPerProject: number;
  requirementsPerProject: number;
  casesPerApp: number;
  /** Uploads carrying a case id. */
  uploads: number;
  /** Every n-th report holds per-case method rows (two cases, a third of its methods each). */
  caseReportEvery: number;
  /** Every n-th report (incremental ones only) holds requirement summaries (two keys, four methods each). */
  requirementReportEvery: number;
  /** Every n-th report (incremental ones only) has four coverage risks. */
  riskReportEvery: number;
};

export const FULL_ANALYTICS: AnalyticsShape = {
  appsPerProject: 20,
  requirementsPerProject: 40,
  casesPerApp: 10,
  uploads: 20_000,
  caseReportEvery: 5,
  requirementReportEvery: 8,
  riskReportEvery: 40,
};

const CLASS = (c: string) => `'com/example/p' || (${c} % 40) || '/Class' || ${c}`;
const FILE = (c: string) => `'src/main/java/com/example/p' || (${c} % 40) || '/Class' || ${c} || '.java'`;
/** Project p's id: md5-made like the others, with the version and variant digits a uuid route parameter wants. */
export const PROJECT_ID = (p: string) =>
  `(select (substr(h, 1, 12) || '4' || substr(h, 14, 3) || '8' || substr(h, 18))::uuid from md5('p' || ${p}) h)`;
/** Report n's project (its app's): apps 1..k form project 1, and so on. */
const PROJECT_OF_APP = (app: string, a: AnalyticsShape) => `((${app} - 1) / ${a.appsPerProject} + 1)`;

/** Loads the rows; returns their counts by table. Same session rules as loadReportRows (replica role). */
export async function loadAnalyticsRows(
  pool: pg.Pool,
  shape: ReportRowsShape,
  a: AnalyticsShape,
): Promise<Record<string, number>> {
  const db = await pool.connect();
  const counts: Record<string, number> = {};
  const run = async (table: string, text: string) => {
    counts[table] = (counts[table] ?? 0) + ((await db.query(text)).rowCount ?? 0);
  };
  const projects = Math.max(1, Math.floor(shape.apps / a.appsPerProject));
  // Report n: app (n % apps) + 1, incremental when n % 4 = 0 (report-rows.ts).
  const appOf = `(n % ${shape.apps} + 1)`;
  try {
    await db.query('set session_replication_role = replica');
    await run(
      'report_committers',
      `insert into report_committers
        (report_id, author, changed_methods, measured_methods, covered_methods, line_covered, line_total)
      select md5('r' || n)::uuid, 'Dev ' || ((n + k) % 40) || ' <dev' || ((n + k) % 40) || '@example.test>',
        3 + (n + k) % 9, 3 + (n + k) % 9, (n * 7 + k) % (3 + (n + k) % 9), (n * 13 + k) % 40, 40
      from generate_series(4, ${shape.reports}, 4) n, generate_series(1, 4) k`,
    );
    await run(
      'projects',
      `insert into projects (id, name, team_id, start_date, end_date, status)
      select ${PROJECT_ID('p')}, 'project-' || p, md5('t' || (p % ${shape.teams} + 1))::uuid,
        current_date - 60, current_date + 30, 'active' from generate_series(1, ${projects}) p`,
    );
    await run(
      'project_apps',
      `insert into project_apps (project_id, app_id)
      select ${PROJECT_ID(PROJECT_OF_APP('g', a))}, md5('a' || g)::uuid
      from generate_series(1, ${projects * a.appsPerProject}) g`,
    );
    await run(
      'requirements',
      `insert into requirements (id, key, title, project_id, status)
      select md5('q' || q)::uuid, 'REQ-' || q, 'Requirement ' || q,
        ${PROJECT_ID(`((q - 1) / ${a.requirementsPerProject} + 1)`)}, (array['open','done'])[q % 2 + 1]
      from generate_series(1, ${projects * a.requirementsPerProject}) q`,
    );
    // Case j of app g; the first half of an app's cases name one of its project's requirements.
    const reqOf = (app: string, k: string) =>
      `'REQ-' || ((${PROJECT_OF_APP(app, a)} - 1) * ${a.requirementsPerProject} + (${k}) % ${a.requirementsPerProject} + 1)`;
    await run(
      'cases',
      `insert into cases (id, key, title, app_id, requirement_id, type)
      select md5('c' || g || '-' || j)::uuid, 'CASE-' || j, 'Case ' || j || ' of app ' || g, md5('a' || g)::uuid,
        case when j < ${a.casesPerApp / 2} and g <= ${projects * a.appsPerProject}
          then md5('q' || ((${PROJECT_OF_APP('g', a)} - 1) * ${a.requirementsPerProject} + (g * 3 + j) % ${a.requirementsPerProject} + 1))::uuid end,
        'automated'
      from generate_series(1, ${shape.apps}) g, generate_series(0, ${a.casesPerApp - 1}) j`,
    );
    await run(
      'coverage_uploads',
      `insert into coverage_uploads (app_id, commit, env_type, test_type, case_id, agent_id, format, stored_path,
        size_bytes, files, created_at)
      select md5('a' || (u % ${shape.apps} + 1))::uuid, md5('commit' || u), (array['dev','test','staging'])[u % 3 + 1],
        u % 2 + 1, 'CASE-' || (u / ${shape.apps} % ${a.casesPerApp}), 'agent-' || (u % 7), 'jacoco',
        'uploads/' || u || '.exec', 40000 + u % 1000, 5, now() - (u * 5 || ' minutes')::interval
      from generate_series(1, ${a.uploads}) u`,
    );
    // Case k of report n covers method m of each class when (m + k) % 3 = 0; changed as report_details says.
    for (let from = a.caseReportEvery; from <= shape.reports; from += 10_000 * a.caseReportEvery) {
      const to = Math.min(shape.reports, from + 10_000 * a.caseReportEvery - 1);
      await run(
        'report_case_methods',
        `insert into report_case_methods (report_id, case_key, file_path, class_name, method, changed)
        select md5('r' || n)::uuid, 'CASE-' || ((n / ${shape.apps} + k * 3) % ${a.casesPerApp}), ${FILE('c')}, ${CLASS('c')},
          'method' || m || '(I)V', n % 4 = 0 and (n + c + m) % 7 = 0
        from generate_series(${from}, ${to}, ${a.caseReportEvery}) n, generate_series(0, 1) k,
          generate_series(0, ${shape.classesPerReport - 1}) c, generate_series(1, ${shape.methodsPerClass}) m
        where (m + k) % 3 = 0 and n % 50 <> 0 and n % 97 <> 0`,
      );
    }
    const methods = `(select jsonb_agg(jsonb_build_object('filePath', ${FILE('c')}, 'className', ${CLASS('c')},
        'method', 'method' || (c + 1) || '(I)V', 'measured', (n + c) % 5 <> 0, 'covered', (n + c) % 3 = 0,
        'lineCovered', (n + c) % 15, 'lineTotal', 15)) from generate_series(k, k + 3) c)`;
    await run(
      'report_requirements',
      `insert into report_requirements (report_id, requirement_key, commits, methods, changed_methods, covered_methods)
      select md5('r' || n)::uuid, ${reqOf(appOf, `n / ${shape.apps} + k`)},
        jsonb_build_array(jsonb_build_object('sha', md5('s' || n || k), 'subject', 'REQ work ' || n),
          jsonb_build_object('sha', md5('t' || n || k), 'subject', 'REQ fix ' || n)),
        ${methods}, 4, (select count(*) from generate_series(k, k + 3) c where (n + c) % 3 = 0)
      from generate_series(${a.requirementReportEvery}, ${shape.reports}, ${a.requirementReportEvery}) n,
        generate_series(0, 1) k
      where n % 4 = 0 and ${appOf} <= ${projects * a.appsPerProject}`,
    );
    await run(
      'risk_items',
      `insert into risk_items (app_id, report_id, test_type, version, class_name, method_name, signature, file_path,
        start_line, end_line, author, requirement, line_covered, line_total, changed_lines, state)
      select md5('a' || ${appOf})::uuid, md5('r' || n)::uuid, n % 2 + 1, 'v' || (n / ${shape.apps} % 50 + 1), ${CLASS('c')},
        'method' || (c + 1), '(I)V', ${FILE('c')}, 20, 35, 'Dev ' || (n % 40) || ' <dev' || (n % 40) || '@example.test>',
        case when c % 2 = 0 and ${appOf} <= ${projects * a.appsPerProject} then ${reqOf(appOf, `n / ${shape.apps}`)} end,
        n % 10, 15, 4, (array['observing','judged','resolved'])[(n + c) % 3 + 1]
      from generate_series(${a.riskReportEvery}, ${shape.reports}, ${a.riskReportEvery}) n, generate_series(0, 3) c
      where n % 4 = 0`,
    );
    // What the pipeline keeps beside the per-method rows (migration 0022), as its writers derive it.
    await run(
      'report_case_summaries',
      `insert into report_case_summaries (report_id, case_key, methods, changed_methods)
      select report_id, case_key, count(*), count(*) filter (where changed) from report_case_methods group by 1, 2`,
    );
    await run(
      'app_case_method_reach',
      `insert into app_case_method_reach (app_id, file_path, class_name, method, case_key, test_type, env_type,
        new_version, first_at, reports)
      select r.app_id, c.file_path, c.class_name, c.method, c.case_key, r.test_type, r.env_type, r.new_version,
        min(coalesce(r.finished_at, r.created_at)), count(*)
      from reports r join report_case_methods c on c.report_id = r.id where r.status = 'SUCCESS'
      group by r.app_id, c.file_path, c.class_name, c.method, c.case_key, r.test_type, r.env_type, r.new_version`,
    );
    await db.query('select app_case_summaries_refresh(id), requirement_app_summaries_refresh(id) from apps');
    await db.query(
      'analyze report_case_summaries; analyze app_case_summaries; analyze app_case_method_reach; analyze requirement_app_summaries; ' +
        'analyze report_committers; analyze projects; analyze project_apps; analyze requirements; analyze cases; ' +
        'analyze coverage_uploads; analyze report_case_methods; analyze report_requirements; analyze risk_items',
    );
  } finally {
    await db.query('reset session_replication_role');
    db.release();
  }
  return counts;
}
