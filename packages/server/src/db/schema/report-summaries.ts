import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { apps } from './apps.ts';
import { reports } from './reports.ts';

/**
 * Per report and blame author, the changed methods' figures (issue 35): written in the report's
 * generation transaction from its diff, so committer analytics never scans method rows. A re-run
 * replaces them (the writer deletes the report's rows first).
 */
export const reportCommitters = pgTable(
  'report_committers',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    /** `name <email>` as git blame gives it; '' for changed methods without an author. */
    author: text('author').notNull(),
    changedMethods: integer('changed_methods').notNull(),
    measuredMethods: integer('measured_methods').notNull(),
    coveredMethods: integer('covered_methods').notNull(),
    lineCovered: bigint('line_covered', { mode: 'number' }).notNull(),
    lineTotal: bigint('line_total', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.author] }), index('report_committers_author_idx').on(t.author)],
);

/**
 * Per report and test case (the uploads' case id), the report methods the case's own uploads ran
 * (issue 35, case analytics): written in the report's generation transaction from the case's
 * uploads merged apart from the others, replaced on a re-run. `class_name` and `method` name the
 * method as report_details does (`method` = name + signature), so rows of different reports of an
 * app meet on (file_path, class_name, method).
 */
export const reportCaseMethods = pgTable(
  'report_case_methods',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    caseKey: text('case_key').notNull(),
    filePath: text('file_path').notNull(),
    className: text('class_name').notNull(),
    method: text('method').notNull(),
    /** A changed method of the report (always false in a full report). */
    changed: boolean('changed').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.reportId, t.caseKey, t.filePath, t.className, t.method] }),
    index('report_case_methods_case_idx').on(t.caseKey),
    index('report_case_methods_method_idx').on(t.filePath, t.method),
  ],
);

/** One changed method a requirement's commits wrote, as kept in report_requirements.methods. */
export type RequirementMethodRow = {
  filePath: string;
  className: string | null;
  method: string;
  measured: boolean;
  covered: boolean;
  lineCovered: number;
  lineTotal: number;
};

/**
 * Per incremental report and requirement key named by a commit message between its base and new
 * commit (issue 35, requirement analytics): those commits and the changed methods whose changed lines
 * they last wrote (git blame), with the report's coverage of each. Written in the generation
 * transaction, replaced on a re-run.
 */
export const reportRequirements = pgTable(
  'report_requirements',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    requirementKey: text('requirement_key').notNull(),
    commits: jsonb('commits').$type<{ sha: string; subject: string }[]>().notNull(),
    methods: jsonb('methods').$type<RequirementMethodRow[]>().notNull(),
    changedMethods: integer('changed_methods').notNull(),
    coveredMethods: integer('covered_methods').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.reportId, t.requirementKey] }),
    index('report_requirements_key_idx').on(t.requirementKey),
  ],
);

/**
 * Per report and test case, what its report_case_methods rows add up to (issue 35): how many methods
 * the case ran in the report and how many of them were changed methods. Written beside those rows in
 * the generation transaction, replaced with them, so the case list counts a case's reports and reads
 * its latest version's changed methods without scanning per-method rows.
 */
export const reportCaseSummaries = pgTable(
  'report_case_summaries',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    caseKey: text('case_key').notNull(),
    methods: integer('methods').notNull(),
    changedMethods: integer('changed_methods').notNull(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.caseKey] })],
);

/**
 * Per app and test case, over the app's successful reports holding the case (issue 35): how many, and
 * the latest incremental one's version and changed methods the case reached. Recomputed for the app
 * from report_case_summaries when one of its reports reaches SUCCESS, leaves it or is deleted (the
 * trigger of migration 0022), so the case list over teams or apps reads one row per app and case.
 */
export const appCaseSummaries = pgTable(
  'app_case_summaries',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    caseKey: text('case_key').notNull(),
    reports: integer('reports').notNull(),
    latestVersion: text('latest_version'),
    changedMethods: integer('changed_methods').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.caseKey] })],
);

/**
 * Per app and requirement key, the requirement figures over the app's latest successful incremental
 * report of each version, test type and environment (issue 35): its changed methods counted once per
 * (file, class, method), covered per test type when any such report of that type covered it, measured
 * when one of that type measured it. Recomputed for the app in the transaction that writes one of its
 * reports' requirement rows (and when one of its reports is deleted), so the requirement list over
 * teams, projects or apps reads one row per app and key instead of unpacking every report's methods.
 */
export const requirementAppSummaries = pgTable(
  'requirement_app_summaries',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    requirementKey: text('requirement_key').notNull(),
    changedMethods: integer('changed_methods').notNull(),
    unitMeasured: integer('unit_measured').notNull(),
    unitCovered: integer('unit_covered').notNull(),
    functionalMeasured: integer('functional_measured').notNull(),
    functionalCovered: integer('functional_covered').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.appId, t.requirementKey] }),
    index('requirement_app_summaries_key_idx').on(t.requirementKey),
  ],
);

/**
 * Per app, test case and method, and per test type, environment and version of the app's successful
 * reports holding report_case_methods rows for them (issue 35): when the first such report counted
 * (its finishing time, else its making time) and how many there are. Case impact (cases to re-run, test
 * gaps) and a case's methods read these rows by method or by case instead of every report's method
 * rows, so their cost follows the methods asked about and the versions, not the reports. Recomputed for
 * a report's (app, test type, environment, version) when its case rows are written while it is
 * successful, and when it reaches SUCCESS, leaves it, changes one of those or is deleted (migration 0030).
 */
export const appCaseMethodReach = pgTable(
  'app_case_method_reach',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    filePath: text('file_path').notNull(),
    className: text('class_name').notNull(),
    method: text('method').notNull(),
    caseKey: text('case_key').notNull(),
    testType: smallint('test_type').notNull(),
    envType: text('env_type').notNull(),
    newVersion: text('new_version').notNull(),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
    reports: integer('reports').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'app_case_method_reach_pk',
      columns: [t.appId, t.filePath, t.className, t.method, t.caseKey, t.testType, t.envType, t.newVersion],
    }),
    index('app_case_method_reach_case_idx').on(t.appId, t.caseKey),
    index('app_case_method_reach_group_idx').on(t.appId, t.testType, t.envType, t.newVersion),
  ],
);
