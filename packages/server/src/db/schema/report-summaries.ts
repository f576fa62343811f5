import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { reports } from './reports.ts';

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
