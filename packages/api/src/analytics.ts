import { z } from 'zod';
import { AgentsNowSchema, RiskBurnDownSchema, UploadDaySchema } from './analytics-activity.ts';
import { testTypeSchema } from './reports.ts';

/**
 * Analytics read models (issue 35). Every figure comes from what the report pipeline stored; coverage
 * values are fractions between 0 and 1, or null where nothing was measured.
 */
// Any 8-4-4-4-12 hex id (PostgreSQL's uuid type takes them all; generated ids need not carry RFC 4122 bits).
const id = z.guid();
const day = z.iso.date();

/** The filters every analytics screen takes (and keeps in its URL). */
export const AnalyticsFilterSchema = z.object({
  teamId: id.optional(),
  appId: id.optional(),
  projectId: id.optional(),
  version: z.string().min(1).max(200).optional(),
  testType: testTypeSchema.optional(),
  envType: z.string().min(1).max(100).optional(),
  /** Reports finished on or after this day (UTC). */
  from: day.optional(),
  /** Reports finished on or before this day (UTC). */
  to: day.optional(),
});
export type AnalyticsFilter = z.infer<typeof AnalyticsFilterSchema>;

export const paging = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(20),
  sortDesc: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
};

export const COMMITTER_SORTS = [
  'author',
  'changedMethods',
  'coveredMethods',
  'uncoveredMethods',
  'methodCoverage',
  'lineCoverage',
] as const;
export const CommitterQuerySchema = AnalyticsFilterSchema.extend({
  ...paging,
  sortBy: z.enum(COMMITTER_SORTS).default('uncoveredMethods'),
});
export type CommitterQuery = z.infer<typeof CommitterQuerySchema>;

/** One blame author's changed methods over the latest incremental report of each app, version, test type and environment. */
export const CommitterRowSchema = z.object({
  author: z.string().nullable(),
  changedMethods: z.number().int(),
  measuredMethods: z.number().int(),
  coveredMethods: z.number().int(),
  uncoveredMethods: z.number().int(),
  methodCoverage: z.number().nullable(),
  lineCovered: z.number().int(),
  lineTotal: z.number().int(),
  lineCoverage: z.number().nullable(),
  reports: z.number().int(),
});
export type CommitterRow = z.infer<typeof CommitterRowSchema>;
export const CommitterPageSchema = z.object({ items: z.array(CommitterRowSchema), total: z.number().int() });

/** A committer's figures per version, for the trend chart (versions in the order their latest reports finished). */
export const CommitterTrendSchema = z.object({
  versions: z.array(z.string()),
  series: z.array(z.object({ author: z.string().nullable(), methodCoverage: z.array(z.number().nullable()) })),
});
export type CommitterTrend = z.infer<typeof CommitterTrendSchema>;

export const APP_ANALYTIC_SORTS = ['appName', 'version', 'lineCoverage', 'diffLineCoverage', 'finishedAt'] as const;
export const AppAnalyticQuerySchema = AnalyticsFilterSchema.extend({
  ...paging,
  sortBy: z.enum(APP_ANALYTIC_SORTS).default('finishedAt'),
});
export type AppAnalyticQuery = z.infer<typeof AppAnalyticQuerySchema>;

/** Per app, version and test type: the latest successful full and incremental report's figures. */
export const AppVersionRowSchema = z.object({
  appId: z.string(),
  appName: z.string(),
  teamName: z.string(),
  version: z.string(),
  testType: z.union([z.literal(1), z.literal(2)]),
  fullReportId: z.string().nullable(),
  lineCoverage: z.number().nullable(),
  branchCoverage: z.number().nullable(),
  incrementalReportId: z.string().nullable(),
  diffLineCoverage: z.number().nullable(),
  changedMethods: z.number().int().nullable(),
  coveredMethods: z.number().int().nullable(),
  reports: z.number().int(),
  finishedAt: z.string(),
});
export type AppVersionRow = z.infer<typeof AppVersionRowSchema>;
export const AppVersionPageSchema = z.object({ items: z.array(AppVersionRowSchema), total: z.number().int() });

/** Reports per day (by the day they finished), successful and failed. */
export const ActivityDaySchema = z.object({ day: z.string(), succeeded: z.number().int(), failed: z.number().int() });
export type ActivityDay = z.infer<typeof ActivityDaySchema>;

/** Coverage over time: per ISO week and test type, the line coverage summed over the week's full reports. */
export const CoverageWeekSchema = z.object({
  week: z.string(),
  testType: z.union([z.literal(1), z.literal(2)]),
  lineCoverage: z.number().nullable(),
  diffLineCoverage: z.number().nullable(),
  reports: z.number().int(),
});
export type CoverageWeek = z.infer<typeof CoverageWeekSchema>;

export const AppOverviewSchema = z.object({
  activity: z.array(ActivityDaySchema),
  trend: z.array(CoverageWeekSchema),
  uploads: z.array(UploadDaySchema),
  agents: z.array(AgentsNowSchema),
  burnDown: RiskBurnDownSchema,
});
export type AppOverview = z.infer<typeof AppOverviewSchema>;

/** One app's latest successful full report per test type: the cockpit's grade distribution and worst list. */
export const AppStandingSchema = z.object({
  appId: z.string(),
  appName: z.string(),
  teamId: z.string(),
  teamName: z.string(),
  testType: z.union([z.literal(1), z.literal(2)]),
  reportId: z.string(),
  version: z.string(),
  lineCoverage: z.number().nullable(),
  diffLineCoverage: z.number().nullable(),
});
export type AppStanding = z.infer<typeof AppStandingSchema>;

export const CockpitSchema = z.object({
  standings: z.array(AppStandingSchema),
  trend: z.array(CoverageWeekSchema),
  activity: z.array(ActivityDaySchema),
  uploads: z.array(UploadDaySchema),
  agents: z.array(AgentsNowSchema),
  burnDown: RiskBurnDownSchema,
  apps: z.number().int(),
  reports: z.number().int(),
});
export type Cockpit = z.infer<typeof CockpitSchema>;

/** Per project or version: its apps' latest reports summed (counters added, then divided). */
export const GroupFiguresSchema = z.object({
  key: z.string(),
  name: z.string(),
  apps: z.number().int(),
  unitLineCoverage: z.number().nullable(),
  functionalLineCoverage: z.number().nullable(),
  diffLineCoverage: z.number().nullable(),
  changedMethods: z.number().int(),
  coveredMethods: z.number().int(),
  reports: z.number().int(),
  lastReportAt: z.string().nullable(),
});
export type GroupFigures = z.infer<typeof GroupFiguresSchema>;
export const GroupFiguresListSchema = z.array(GroupFiguresSchema);

/** A project dashboard: the project's figures, its apps' standings and its latest version rows. */
export const ProjectDashboardSchema = z.object({
  project: GroupFiguresSchema,
  standings: z.array(AppStandingSchema),
  versions: z.array(AppVersionRowSchema),
});
export type ProjectDashboard = z.infer<typeof ProjectDashboardSchema>;

/**
 * `/dashboard/myAnalytic` (issue 34): the signed-in user's changed methods in the latest incremental
 * report of each app, version, test type and environment, matched by blame author to the account's
 * e-mail and its git identities; newest report first.
 */
export const MyCoverageReportSchema = z.object({
  reportId: z.string(),
  appId: z.string(),
  appName: z.string(),
  version: z.string(),
  testType: testTypeSchema,
  envType: z.string(),
  at: z.string(),
  changedMethods: z.number().int(),
  coveredMethods: z.number().int(),
  methodCoverage: z.number().nullable(),
  lineCovered: z.number().int(),
  lineTotal: z.number().int(),
  lineCoverage: z.number().nullable(),
});
export type MyCoverageReport = z.infer<typeof MyCoverageReportSchema>;
export const MyCoverageSchema = z.object({
  /** What was matched: the account's e-mail and the user's git identities. */
  identities: z.array(z.string()),
  /** The blame authors found under them. */
  authors: z.array(z.string()),
  reports: z.array(MyCoverageReportSchema),
});
export type MyCoverage = z.infer<typeof MyCoverageSchema>;
/** How many reports `/api/analytics/mine` answers at most (the newest). */
export const MY_COVERAGE_REPORTS = 100;
