import type { Carried, ReportJobStatus } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { apps } from './apps.ts';
import { users } from './users.ts';

/**
 * The six counters as covered/total column pairs; null where the format lacks the counter.
 * Shared by reports and report_details so both answer the same coverage fields (specification point 3).
 */
function counterColumns() {
  return {
    instructionCovered: bigint('instruction_covered', { mode: 'number' }),
    instructionTotal: bigint('instruction_total', { mode: 'number' }),
    branchCovered: bigint('branch_covered', { mode: 'number' }),
    branchTotal: bigint('branch_total', { mode: 'number' }),
    lineCovered: bigint('line_covered', { mode: 'number' }),
    lineTotal: bigint('line_total', { mode: 'number' }),
    complexityCovered: bigint('complexity_covered', { mode: 'number' }),
    complexityTotal: bigint('complexity_total', { mode: 'number' }),
    methodCovered: bigint('method_covered', { mode: 'number' }),
    methodTotal: bigint('method_total', { mode: 'number' }),
    classCovered: bigint('class_covered', { mode: 'number' }),
    classTotal: bigint('class_total', { mode: 'number' }),
    // Issue 38: where merged runs leave a counter a range (JaCoCo XML keeps per-line sums, not
    // probes), `*_covered` is its lower bound and these its upper bound; null: exact (or absent).
    instructionCoveredAtMost: bigint('instruction_covered_at_most', { mode: 'number' }),
    branchCoveredAtMost: bigint('branch_covered_at_most', { mode: 'number' }),
    lineCoveredAtMost: bigint('line_covered_at_most', { mode: 'number' }),
    complexityCoveredAtMost: bigint('complexity_covered_at_most', { mode: 'number' }),
    methodCoveredAtMost: bigint('method_covered_at_most', { mode: 'number' }),
    classCoveredAtMost: bigint('class_covered_at_most', { mode: 'number' }),
  };
}

/** A coverage file sent by CI or an agent (issue 6), kept on disk or in upload_blobs (issue 41). */
export const coverageUploads = pgTable(
  'coverage_uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    /** As sent (sha or ref); `commitSha` once resolved against the app's mirror. */
    commit: text('commit').notNull(),
    commitSha: text('commit_sha'),
    envType: text('env_type').notNull(),
    testType: smallint('test_type').notNull(),
    caseId: text('case_id'),
    agentId: text('agent_id'),
    format: text('format').notNull(),
    /** The repository folder the report was made in (a monorepo's package); null: the top. */
    baseDir: text('base_dir'),
    /**
     * Where the file's bytes are (ADR 0006): `file`, under the data directory at `storedPath`; or
     * `database`, gzipped in upload_blobs (storedPath null), readable by a worker on another machine.
     */
    storage: text('storage').$type<'file' | 'database'>().notNull().default('file'),
    /** Relative to the data directory; null when the bytes are in the database. */
    storedPath: text('stored_path'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    files: integer('files').notNull(),
    unmappedFiles: text('unmapped_files').array().notNull().default(sql`'{}'::text[]`),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('coverage_uploads_app_env_idx').on(t.appId, t.envType, t.testType, t.createdAt),
    // A case's runs (issue 35: the case and requirement lists count them per app and case key).
    index('coverage_uploads_app_case_idx').on(t.appId, t.caseId, t.createdAt).where(sql`${t.caseId} is not null`),
  ],
);

/** A `sextant agent` beside an app under test: its last heart-beat (issue 6). */
export const coverageAgents = pgTable(
  'coverage_agents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    agentId: text('agent_id').notNull(),
    envType: text('env_type').notNull(),
    ip: text('ip'),
    version: text('version'),
    lastStatus: text('last_status').notNull(),
    lastError: text('last_error'),
    lastHeartbeatAt: timestamp('last_heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('coverage_agents_app_agent_unique').on(t.appId, t.agentId)],
);

type ReportColumns = {
  testType: AnyPgColumn;
  id: AnyPgColumn;
  name: AnyPgColumn;
  newVersion: AnyPgColumn;
  createdAt: AnyPgColumn;
  status: AnyPgColumn;
  diffLineCovered: AnyPgColumn;
  diffLineTotal: AnyPgColumn;
} & Record<`${'instruction' | 'branch' | 'method' | 'class' | 'complexity'}${'Covered' | 'Total'}`, AnyPgColumn>;

/**
 * Issue 41: every other sort of searchReports walks an index instead of sorting 100,000 rows. A figure
 * (absent figures last in both directions) needs an index per direction; a column that is never null
 * serves both directions with one, read backwards for descending.
 */
function reportSortIndexes(t: ReportColumns) {
  const fraction = (c: AnyPgColumn, total: AnyPgColumn) => sql`(${c}::float8 / nullif(${total}, 0))`;
  const figures: [string, SQL][] = [
    ['branch_coverage', fraction(t.branchCovered, t.branchTotal)],
    ['instruction_coverage', fraction(t.instructionCovered, t.instructionTotal)],
    ['method_coverage', fraction(t.methodCovered, t.methodTotal)],
    ['class_coverage', fraction(t.classCovered, t.classTotal)],
    ['complexity_coverage', fraction(t.complexityCovered, t.complexityTotal)],
    ['diff_line_coverage', fraction(t.diffLineCovered, t.diffLineTotal)],
  ];
  const columns: [string, AnyPgColumn][] = [
    ['name', t.name],
    ['new_version', t.newVersion],
    ['created_at', t.createdAt],
    ['status', t.status],
  ];
  return [
    ...figures.flatMap(([name, key]) => [
      index(`reports_${name}_idx`).on(t.testType, key, t.id),
      index(`reports_${name}_desc_idx`).on(t.testType, sql`${key} desc nulls last`, sql`${t.id} desc`),
    ]),
    ...columns.map(([name, column]) => index(`reports_${name}_sort_idx`).on(t.testType, column, t.id)),
  ];
}

/** A full or incremental coverage report between two versions of an app (specification point 3). */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    baseVersion: text('base_version').notNull(),
    newVersion: text('new_version').notNull(),
    baseCommit: text('base_commit'),
    newCommit: text('new_commit'),
    envType: text('env_type').notNull(),
    testType: smallint('test_type').notNull(),
    coverageType: text('coverage_type').notNull(),
    status: text('status').$type<ReportJobStatus>().notNull().default('QUEUED'),
    errMsg: text('err_msg'),
    /** Bumped by every (re-)run; a job carries the run it was queued for and stops when outdated. */
    run: integer('run').notNull().default(1),
    /**
     * Issue 41: the generation of report_details and report_files rows readers see. A generation is
     * written in short statements beside the one shown, then made visible by setting this in one short
     * transaction (stage and swap), so the embedded database is never held for a whole report.
     */
    rowsGeneration: bigint('rows_generation', { mode: 'number' }).notNull().default(0),
    ...counterColumns(),
    diffLineCovered: bigint('diff_line_covered', { mode: 'number' }),
    diffLineTotal: bigint('diff_line_total', { mode: 'number' }),
    codeAuthor: text('code_author'),
    /** A monorepo's package folders at the new commit (npm/pnpm/yarn, Nx, Maven, Gradle, Go; issue 39). */
    packages: text('packages').array().notNull().default(sql`'{}'::text[]`),
    /** Issue 38: carry coverage forward from uploads of older commits made within these days (0: off). */
    carryForwardDays: smallint('carry_forward_days').notNull().default(0),
    /** What carry-forward added at the last run (`Carried` of the API); null: off or nothing carried. */
    carried: jsonb('carried').$type<Carried>(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /**
     * The generation of the summaries (committers, cases, requirements) written with the report's rows
     * (`SUMMARIES_VERSION`); null: finished before it was kept, negative: the backfill could not derive
     * them. Successful reports below the current one are backfilled (summaries-backfill.ts).
     */
    summariesVersion: integer('summaries_version'),
  },
  (t) => [
    index('reports_search_idx').on(t.testType, t.appId, t.newVersion, t.envType),
    index('reports_app_created_idx').on(t.appId, t.createdAt),
    // searchReports' default sort (line coverage, either direction) walks these instead of sorting.
    index('reports_line_coverage_idx').on(
      t.testType,
      sql`(${t.lineCovered}::float8 / nullif(${t.lineTotal}, 0))`,
      t.id,
    ),
    index('reports_line_coverage_desc_idx').on(
      t.testType,
      sql`(${t.lineCovered}::float8 / nullif(${t.lineTotal}, 0)) desc nulls last`,
      sql`${t.id} desc`,
    ),
    ...reportSortIndexes(t),
  ],
);

type DetailColumns = {
  reportId: AnyPgColumn;
  classId: AnyPgColumn;
  id: AnyPgColumn;
} & Record<`${'instruction' | 'branch' | 'line' | 'complexity' | 'method'}${'Covered' | 'Total'}`, AnyPgColumn> & {
    codeAuthor: AnyPgColumn;
  };

/** (report_id, sort key, id) over class rows, per sort key of getReportDetails but the name. */
function classRowSortIndexes(t: DetailColumns) {
  const fraction = (c: AnyPgColumn, total: AnyPgColumn) => sql`(${c}::float8 / nullif(${total}, 0))`;
  const keys: [string, SQL | AnyPgColumn][] = [
    ['line_coverage', fraction(t.lineCovered, t.lineTotal)],
    ['branch_coverage', fraction(t.branchCovered, t.branchTotal)],
    ['instruction_coverage', fraction(t.instructionCovered, t.instructionTotal)],
    ['method_coverage', fraction(t.methodCovered, t.methodTotal)],
    ['complexity_coverage', fraction(t.complexityCovered, t.complexityTotal)],
    ['line_total', t.lineTotal],
    ['line_covered', t.lineCovered],
    ['branch_total', t.branchTotal],
    ['code_author', t.codeAuthor],
  ];
  return keys.map(([name, key]) =>
    index(`report_details_class_rows_${name}_idx`).on(t.reportId, key, t.id).where(sql`${t.classId} is null`),
  );
}

/** Class rows (class_id null) and method rows (class_id = the class row) of a report (point 3). */
export const reportDetails = pgTable(
  'report_details',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    classId: bigint('class_id', { mode: 'number' }),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    filePath: text('file_path'),
    startLine: integer('start_line'),
    endLine: integer('end_line'),
    changed: boolean('changed').notNull().default(false),
    changeStatus: text('change_status'),
    methodCount: integer('method_count').notNull().default(0),
    ...counterColumns(),
    codeAuthor: text('code_author'),
    /** Method rows: the older commit whose carried coverage covers what the fresh runs did not (issue 38). */
    carriedFrom: text('carried_from'),
    /** Shown when equal to its report's rows_generation (issue 41). */
    generation: bigint('generation', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    index('report_details_report_class_idx').on(t.reportId, t.classId),
    // Finds an old (or abandoned) generation's rows to delete a chunk at a time.
    index('report_details_report_generation_idx').on(t.reportId, t.generation),
    index('report_details_class_rows_name_idx').on(t.reportId, t.name, t.id).where(sql`${t.classId} is null`),
    // Issue 41: every other sort of the class table, so a keyset page is an index walk either way
    // (report-views/detail-keyset.ts); method rows (a class's few) are sorted in memory.
    ...classRowSortIndexes(t),
  ],
);

/**
 * Per-file line data for the source view, as parallel arrays (one row per file, not per line:
 * a 20,000-class report would otherwise write millions of rows).
 */
export const reportFiles = pgTable(
  'report_files',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    language: text('language'),
    lineCovered: integer('line_covered').notNull(),
    lineTotal: integer('line_total').notNull(),
    branchCovered: integer('branch_covered').notNull(),
    branchTotal: integer('branch_total').notNull(),
    changed: boolean('changed').notNull().default(false),
    diffLineCovered: integer('diff_line_covered'),
    diffLineTotal: integer('diff_line_total'),
    lineNumbers: integer('line_numbers').array().notNull(),
    lineHits: bigint('line_hits', { mode: 'number' }).array().notNull(),
    branchesCovered: integer('branches_covered').array().notNull(),
    branchesTotal: integer('branches_total').array().notNull(),
    changedLines: integer('changed_lines').array().notNull().default(sql`'{}'::int[]`),
    /** Lines left uncovered by the fresh runs that carried coverage covers (issue 38). */
    carriedLines: integer('carried_lines').array().notNull().default(sql`'{}'::int[]`),
    /** Shown when equal to its report's rows_generation (issue 41). */
    generation: bigint('generation', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.generation, t.path] })],
);

/**
 * The report data's generation (issue 35): one row whose `n` grows in every transaction that changes
 * what the analytics read models show (a report reaching or leaving SUCCESS, finishing, deleted or
 * rewritten while successful; apps, teams, projects, versions, cases, requirements, git identities;
 * uploads, and agents appearing or changing status), bumped at its commit by the deferred triggers
 * `analytics_generation_bump*` (migration 0031), so it becomes visible together with the write. The
 * analytics answer cache (lib/generation-cache.ts, modules/analytics) keeps an answer only while `n`
 * (with risk_generation's) is what it was when the answer was read, in every server process.
 */
export const analyticsGeneration = pgTable('analytics_generation', {
  id: integer('id').primaryKey().default(1),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});
