// One measured run for bench/report-pipeline.ts, in a process of its own (so its peak RSS is its own):
//   npx tsx bench/report-pipeline-child.ts pipeline|writes pglite|postgres  → one JSON line on stdout.
// pipeline: parse both runs → merge → map → diff → generateReport, each step timed.
// writes: the same class and method rows written by our unnest inserts and by drizzle's insert builder.
import { join } from 'node:path';
import type pg from 'pg';
import { type Coverage, diffCoverage, mapPaths, mergeCoverage } from '../packages/coverage/src/index.ts';
import {
  changesBetweenCommits,
  listFiles,
  readCoverageFile,
  resolveCommits,
} from '../packages/coverage/src/node/index.ts';
import { reportDetails } from '../packages/server/src/db/schema/reports.ts';
import { insertColumns } from '../packages/server/src/modules/reports/generate/bulk-insert.ts';
import { classEntries, detailRows } from '../packages/server/src/modules/reports/generate/detail-rows.ts';
import { generateReport } from '../packages/server/src/modules/reports/generate/index.ts';
import { MethodChanges } from '../packages/server/src/modules/reports/generate/method-changes.ts';
import { isTarget, openBenchDatabase } from './report-pipeline-db.ts';

const [mode, target] = process.argv.slice(2);
if ((mode !== 'pipeline' && mode !== 'writes') || !isTarget(target)) {
  throw new Error('usage: report-pipeline-child.ts pipeline|writes pglite|postgres');
}
const dir = new URL('./out/report-pipeline/', import.meta.url).pathname;
const repo = join(dir, 'repo');

/** PGlite in memory (in this process's worker), or a throw-away database on the PostgreSQL server. */

async function newReport(pool: pg.Pool, appId: string | null): Promise<{ appId: string; reportId: string }> {
  let app = appId;
  if (!app) {
    const team = await pool.query(`insert into teams (name) values ('bench') returning id`);
    const created = await pool.query(
      `insert into apps (team_id, name, language, repo_url, default_branch, coverage_source, ingestion_token_hash)
       values ($1, 'bench', 'java', 'file:///bench', 'main', 'upload', 'bench') returning id`,
      [team.rows[0].id],
    );
    app = created.rows[0].id as string;
  }
  const report = await pool.query(
    `insert into reports (app_id, name, base_version, new_version, env_type, test_type, coverage_type)
     values ($1, 'bench', 'base', 'head', 'test', 2, 'incremental') returning id`,
    [app],
  );
  return { appId: app, reportId: report.rows[0].id as string };
}

const steps: Record<string, number> = {};
async function step<T>(name: string, work: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const result = await work();
  steps[name] = (performance.now() - started) / 1000;
  return result;
}

const database = await openBenchDatabase(target);
const rssAtStartMb = process.memoryUsage().rss / 1024 / 1024;
const started = performance.now();
const cpuBefore = process.cpuUsage();
const runs = await step('parse 2 runs', async () => [
  await readCoverageFile(join(dir, 'run-1.xml')),
  await readCoverageFile(join(dir, 'run-2.xml')),
]);
const merged = await step('merge', () => mergeCoverage(runs));
runs.length = 0;
const [base, head] = (await resolveCommits(repo, ['base', 'head'])) as [string, string];
const coverage: Coverage = await step('map paths', async () => mapPaths(merged, await listFiles(repo, head)).coverage);
const changes = await step('diff methods', () => changesBetweenCommits(repo, base, head));
const diff = await step('diff coverage', () => diffCoverage(changes, coverage));

let result: Record<string, unknown>;
if (mode === 'pipeline') {
  const { appId, reportId } = await newReport(database.pool, null);
  const input = {
    reportId,
    appId,
    version: 'head',
    newCommit: head,
    coverageType: 'incremental' as const,
    coverage,
    diff,
    changes,
    requirements: ['REQ-42'],
    passingGrade: 0.6,
  };
  const written = await step('generateReport', () => generateReport(database.db, input));
  const stored = await database.pool.query('select line_covered, line_total from reports where id = $1', [reportId]);
  const line = diff.incremental.totals.line;
  result = {
    written,
    classes: coverage.files.reduce((n, f) => n + f.classes.length, 0),
    changedMethods: diff.incremental.methods.length,
    lineCovered: Number(stored.rows[0].line_covered),
    lineTotal: Number(stored.rows[0].line_total),
    storedLineEqualsEngine:
      Number(stored.rows[0].line_covered) === line?.covered &&
      Number(stored.rows[0].line_total) === line.covered + line.missed,
  };
} else {
  // The same rows both ways, each in a transaction of its own; building them is not timed.
  const entries = classEntries(coverage);
  const ids = await database.pool.query<{ id: string }>(
    `select nextval(pg_get_serial_sequence('report_details', 'id')) as id from generate_series(1, $1)`,
    [entries.length],
  );
  const rows = detailRows(
    entries,
    ids.rows.map((r) => Number(r.id)),
    new MethodChanges(diff, changes),
  );
  const ours = await newReport(database.pool, null);
  const client = await database.pool.connect();
  await step('unnest inserts', async () => {
    await client.query('begin');
    const fixed = [{ column: { name: 'report_id', type: 'uuid' as const }, value: ours.reportId }];
    await insertColumns(client, 'report_details', fixed, rows.classes);
    await insertColumns(client, 'report_details', fixed, rows.methods);
    await client.query('commit');
  });
  client.release();
  await database.pool.query('delete from report_details');
  const orm = await newReport(database.pool, ours.appId);
  const objects = [rows.classes, rows.methods].flatMap((data) =>
    Array.from({ length: data.rowCount }, (_, i) => {
      const v = (column: string) => data.values[data.columns.findIndex((c) => c.name === column)]?.[i] ?? null;
      return {
        id: (v('id') as number | null) ?? undefined,
        reportId: orm.reportId,
        classId: v('class_id') as number | null,
        kind: v('kind') as string,
        name: v('name') as string,
        filePath: v('file_path') as string,
        startLine: v('start_line') as number | null,
        endLine: v('end_line') as number | null,
        changed: v('changed') as boolean,
        changeStatus: v('change_status') as string | null,
        methodCount: v('method_count') as number,
        lineCovered: v('line_covered') as number | null,
        lineTotal: v('line_total') as number | null,
        branchCovered: v('branch_covered') as number | null,
        branchTotal: v('branch_total') as number | null,
        instructionCovered: v('instruction_covered') as number | null,
        instructionTotal: v('instruction_total') as number | null,
        complexityCovered: v('complexity_covered') as number | null,
        complexityTotal: v('complexity_total') as number | null,
        methodCovered: v('method_covered') as number | null,
        methodTotal: v('method_total') as number | null,
        classCovered: v('class_covered') as number | null,
        classTotal: v('class_total') as number | null,
        codeAuthor: v('code_author') as string | null,
      };
    }),
  );
  await step('drizzle insert builder', () =>
    database.db.transaction(async (tx) => {
      for (let i = 0; i < objects.length; i += 1000) await tx.insert(reportDetails).values(objects.slice(i, i + 1000));
    }),
  );
  result = { rows: objects.length };
}

const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const peakRssMb = process.resourceUsage().maxRSS / 1024;
await database.close();
process.stdout.write(
  `${JSON.stringify({ seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, peakRssMb, rssAtStartMb, steps, ...result })}\n`,
);
