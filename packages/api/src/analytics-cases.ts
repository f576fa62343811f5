import { z } from 'zod';
import { AnalyticsFilterSchema, paging } from './analytics.ts';

/**
 * Requirement and case analytics (issue 35): read models over the summaries the report pipeline
 * writes when a report succeeds (report_requirements, report_case_methods) and the uploads' case ids.
 */
const id = z.guid();

/** A method as the reports name it: file, class (null for a free function), name with signature. */
export const MethodRefSchema = z.object({
  appName: z.string(),
  filePath: z.string(),
  className: z.string().nullable(),
  method: z.string(),
});
export type MethodRef = z.infer<typeof MethodRefSchema>;

export const REQUIREMENT_ANALYTIC_SORTS = [
  'key',
  'changedMethods',
  'unitCoverage',
  'functionalCoverage',
  'casesRun',
  'openRisks',
] as const;
export const RequirementAnalyticQuerySchema = AnalyticsFilterSchema.extend({
  ...paging,
  sortBy: z.enum(REQUIREMENT_ANALYTIC_SORTS).default('key'),
});
export type RequirementAnalyticQuery = z.infer<typeof RequirementAnalyticQuerySchema>;

/** A changed method a requirement's commits wrote; covered per test type, null where no report of it measured. */
export const RequirementMethodSchema = MethodRefSchema.extend({
  unitCovered: z.boolean().nullable(),
  functionalCovered: z.boolean().nullable(),
});
export const RequirementCaseSchema = z.object({
  key: z.string(),
  title: z.string(),
  appName: z.string(),
  runs: z.number().int(),
});

/**
 * One requirement over the latest incremental report of each app, version, test type and environment
 * in scope: the commits naming its key, the changed methods they wrote and how unit and functional
 * tests covered them, its cases and whether they ran (uploads carrying the case key), its open risks.
 */
export const RequirementAnalyticRowSchema = z.object({
  requirementId: z.string().nullable(),
  key: z.string(),
  title: z.string().nullable(),
  status: z.string().nullable(),
  commits: z.array(z.object({ appName: z.string(), sha: z.string(), subject: z.string() })),
  changedMethods: z.number().int(),
  unitMeasured: z.number().int(),
  unitCovered: z.number().int(),
  unitCoverage: z.number().nullable(),
  functionalMeasured: z.number().int(),
  functionalCovered: z.number().int(),
  functionalCoverage: z.number().nullable(),
  methods: z.array(RequirementMethodSchema),
  cases: z.array(RequirementCaseSchema),
  casesRun: z.number().int(),
  openRisks: z.number().int(),
});
export type RequirementAnalyticRow = z.infer<typeof RequirementAnalyticRowSchema>;
export const RequirementAnalyticPageSchema = z.object({
  items: z.array(RequirementAnalyticRowSchema),
  total: z.number().int(),
});

export const CASE_ANALYTIC_SORTS = [
  'caseKey',
  'runs',
  'methods',
  'aloneMethods',
  'changedMethods',
  'lastRunAt',
] as const;
export const CaseAnalyticQuerySchema = AnalyticsFilterSchema.extend({
  ...paging,
  sortBy: z.enum(CASE_ANALYTIC_SORTS).default('caseKey'),
});
export type CaseAnalyticQuery = z.infer<typeof CaseAnalyticQuerySchema>;

/**
 * One test case of an app (a case of the cases list, or a case key its uploads carry): its runs
 * (uploads), the methods its runs covered in the reports in scope, those no other case covered, and
 * the changed methods it reached in the latest incremental report holding it.
 */
export const CaseAnalyticRowSchema = z.object({
  appId: z.string(),
  appName: z.string(),
  caseKey: z.string(),
  title: z.string().nullable(),
  runs: z.number().int(),
  lastRunAt: z.string().nullable(),
  reports: z.number().int(),
  methods: z.number().int(),
  aloneMethods: z.number().int(),
  latestVersion: z.string().nullable(),
  changedMethods: z.number().int(),
});
export type CaseAnalyticRow = z.infer<typeof CaseAnalyticRowSchema>;
export const CaseAnalyticPageSchema = z.object({ items: z.array(CaseAnalyticRowSchema), total: z.number().int() });

/** One case's methods: those it alone covers, and the changed methods of its latest version it reached. */
export const CaseMethodsQuerySchema = AnalyticsFilterSchema.extend({
  appId: id,
  caseKey: z.string().min(1).max(200),
});
export type CaseMethodsQuery = z.infer<typeof CaseMethodsQuerySchema>;
export const CaseMethodsSchema = z.object({
  latestVersion: z.string().nullable(),
  alone: z.array(MethodRefSchema),
  changed: z.array(MethodRefSchema),
});
export type CaseMethods = z.infer<typeof CaseMethodsSchema>;

export const CaseImpactQuerySchema = AnalyticsFilterSchema.extend({ ...paging });
export type CaseImpactQuery = z.infer<typeof CaseImpactQuerySchema>;

/**
 * A version's changed methods (per app: the filter's version, else the version of its latest
 * incremental report) against the cases' earlier coverage (reports of the app's other versions, finished before):
 * the cases to re-run, ranked by how many changed methods they reach, and the test gaps, the changed
 * methods no case has ever reached (paged).
 */
export const CaseImpactSchema = z.object({
  versions: z.array(z.object({ appName: z.string(), version: z.string() })),
  changedMethods: z.number().int(),
  reachedMethods: z.number().int(),
  reruns: z.array(
    z.object({
      appId: z.string(),
      appName: z.string(),
      caseKey: z.string(),
      title: z.string().nullable(),
      reached: z.number().int(),
    }),
  ),
  gaps: z.object({
    items: z.array(MethodRefSchema.extend({ version: z.string(), changeStatus: z.string().nullable() })),
    total: z.number().int(),
  }),
});
export type CaseImpact = z.infer<typeof CaseImpactSchema>;
