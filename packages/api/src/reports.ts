import { z } from 'zod';
import { envTypeSchema } from './admin/apps.ts';
import { gitRefSchema, nameSchema } from './admin/common.ts';
import { REPORT_JOB_STATUSES } from './report-status.ts';

/**
 * Coverage reports (issue 6, specification points 3 and 7). Coverage values are fractions between
 * 0 and 1, or null where the report's format lacks the counter (LCOV has no instructions).
 */
export const TEST_TYPES = [1, 2] as const;
export const COVERAGE_TYPES = ['full', 'incremental'] as const;
export type CoverageType = (typeof COVERAGE_TYPES)[number];
export const testTypeSchema = z.coerce.number().pipe(z.union([z.literal(1), z.literal(2)]));

/** The coverage fields a report and each report detail row carry (specification point 3). */
export const CoverageFieldsSchema = z.object({
  instructionCoverage: z.number().nullable(),
  instructionCovered: z.number().int().nullable(),
  instructionTotal: z.number().int().nullable(),
  branchCoverage: z.number().nullable(),
  branchCovered: z.number().int().nullable(),
  branchTotal: z.number().int().nullable(),
  /** Complexity coverage (JaCoCo's COMPLEXITY counter: covered / total), null where absent. */
  cxty: z.number().nullable(),
  complexityCovered: z.number().int().nullable(),
  complexityTotal: z.number().int().nullable(),
  lineCoverage: z.number().nullable(),
  lineCovered: z.number().int().nullable(),
  lineTotal: z.number().int().nullable(),
  methodCoverage: z.number().nullable(),
  methodCovered: z.number().int().nullable(),
  methodTotal: z.number().int().nullable(),
  classCoverage: z.number().nullable(),
  classCovered: z.number().int().nullable(),
  classTotal: z.number().int().nullable(),
  /**
   * Issue 38: set only where merged runs leave the counter a range (JaCoCo's XML keeps per-line
   * sums, not probes): `*Covered` and the coverage fraction are then its lower bound, this its upper
   * bound. Null: exact, or the counter is absent. Grades use the lower bound.
   */
  instructionCoveredAtMost: z.number().int().nullable(),
  branchCoveredAtMost: z.number().int().nullable(),
  lineCoveredAtMost: z.number().int().nullable(),
  complexityCoveredAtMost: z.number().int().nullable(),
  methodCoveredAtMost: z.number().int().nullable(),
  classCoveredAtMost: z.number().int().nullable(),
  codeAuthor: z.string().nullable(),
});
export type CoverageFields = z.infer<typeof CoverageFieldsSchema>;

/**
 * Issue 38: coverage carried forward from runs on older commits of the same app, environment and
 * test type, for the methods and lines unchanged since. Never mixed into the report's own figures:
 * these are the same counters with the carried coverage added.
 */
export const CarriedSchema = z.object({
  /** The report's line counter (full, or over its changed methods) with carried lines added. */
  lineCovered: z.number().int().nullable(),
  lineCoverage: z.number().nullable(),
  methodCovered: z.number().int().nullable(),
  methodCoverage: z.number().nullable(),
  /** Incremental reports: changed coverable lines covered with the carried ones. */
  diffLineCovered: z.number().int().nullable(),
  diffLineCoverage: z.number().nullable(),
  /** The older commits the coverage came from, newest first, with the uploads read and what each carried. */
  sources: z.array(
    z.object({
      commit: z.string(),
      uploads: z.number().int(),
      lastUploadAt: z.string(),
      lines: z.number().int(),
      methods: z.number().int(),
      /** The newest finished report over that commit (same app, environment, test type); null: none. */
      report: z.object({ id: z.string(), name: z.string() }).nullable(),
    }),
  ),
});
export type Carried = z.infer<typeof CarriedSchema>;

/** Carry-forward window in days: uploads of older commits made within it count (0: off). */
export const carryForwardDaysSchema = z.number().int().min(0).max(365);

export const ReportSchema = CoverageFieldsSchema.extend({
  id: z.string(),
  appId: z.string(),
  appName: z.string(),
  teamId: z.string(),
  name: z.string(),
  newVersion: z.string(),
  baseVersion: z.string(),
  /** The commits the versions resolved to at the last run; null before the clone step. */
  newCommit: z.string().nullable(),
  baseCommit: z.string().nullable(),
  envType: z.string(),
  coverageType: z.enum(COVERAGE_TYPES),
  testType: z.union([z.literal(1), z.literal(2)]),
  /** Name of the last pipeline status: a running step, a failure status, or SUCCESS. */
  status: z.enum(REPORT_JOB_STATUSES),
  errMsg: z.string().nullable(),
  /** Changed coverable lines covered / total (diff-cover's definition); null for full reports. */
  diffLineCovered: z.number().int().nullable(),
  diffLineTotal: z.number().int().nullable(),
  diffLineCoverage: z.number().nullable(),
  /** Open risk items (changed methods uncovered or below the passing grade). */
  riskCount: z.number().int(),
  /** Carry-forward window in days (0: off). */
  carryForwardDays: z.number().int(),
  /** What carry-forward added; null when it is off or nothing older was carried. */
  carried: CarriedSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Report = z.infer<typeof ReportSchema>;

export const REPORT_SORTS = [
  'lineCoverage',
  'branchCoverage',
  'instructionCoverage',
  'methodCoverage',
  'classCoverage',
  'cxty',
  'diffLineCoverage',
  'name',
  'appName',
  'newVersion',
  'createdAt',
  'status',
] as const;

/** POST /api/searchReports (specification point 7): equality filters apply only when given. */
export const SearchReportsSchema = z.object({
  appName: z.string().max(200).optional(),
  newVersion: z.string().max(200).optional(),
  envType: z.string().max(64).optional(),
  testType: testTypeSchema.default(1),
  perPage: z.coerce.number().int().min(1).max(200).default(10),
  page: z.coerce.number().int().min(1).default(1),
  sortBy: z.enum(REPORT_SORTS).default('lineCoverage'),
  sortDesc: z.union([z.boolean(), z.stringbool()]).default(false),
});
export type SearchReports = z.infer<typeof SearchReportsSchema>;
export const ReportPageSchema = z.object({
  reports: z.array(ReportSchema),
  /** Reports the filters find: counted when few (a narrow filter), else the planner's estimate. */
  total: z.number().int(),
  /** False when `total` is an estimate (more than SEARCH_EXACT_TOTAL_BELOW reports estimated; issue 41). */
  totalExact: z.boolean(),
});
/** Below this many estimated reports a search's total is counted exactly; above it, the estimate stands. */
export const SEARCH_EXACT_TOTAL_BELOW = 10_000;

export const GetReportQuerySchema = z.object({ reportId: z.string().min(1).max(64) });

/** A class row (classId '') or a method row (classId = its class row's id). */
export const ReportDetailSchema = CoverageFieldsSchema.extend({
  id: z.string(),
  reportId: z.string(),
  classId: z.string(),
  /** Class name (`pkg/Class$Inner`) or method signature (`name(I)V`). */
  name: z.string(),
  kind: z.enum(['class', 'method']),
  filePath: z.string().nullable(),
  startLine: z.number().int().nullable(),
  endLine: z.number().int().nullable(),
  /** A changed method, or a class holding one. */
  changed: z.boolean(),
  /** Method rows: added or modified between the versions; null when unchanged. */
  changeStatus: z.enum(['added', 'modified']).nullable(),
  methodCount: z.number().int(),
  /** Method rows the fresh runs left uncovered that carried coverage covers: the older commit; else null. */
  carriedFrom: z.string().nullable(),
});
export type ReportDetail = z.infer<typeof ReportDetailSchema>;

export const DETAIL_SORTS = [
  'name',
  'lineCoverage',
  'branchCoverage',
  'instructionCoverage',
  'methodCoverage',
  'cxty',
  'lineTotal',
  'lineCovered',
  'branchTotal',
  'codeAuthor',
] as const;
/** GET /api/getReportDetails: classId '' or absent lists class rows, a class id lists its methods. */
export const ReportDetailsQuerySchema = z.object({
  reportId: z.string().min(1).max(64),
  classId: z.string().max(64).optional().default(''),
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(100_000).default(10),
  sortBy: z.enum(DETAIL_SORTS).default('name'),
  sortDesc: z.stringbool().default(false),
  changedOnly: z.stringbool().default(false),
  uncoveredOnly: z.stringbool().default(false),
  q: z.string().max(200).optional(),
  /**
   * Keyset paging (issue 41): the `next` of the page before, in the same sort and filters. Given, the rows
   * after that one come (`page` is not read) and the total is not counted again (null).
   */
  after: z.string().max(1024).optional(),
});
export const ReportDetailPageSchema = z.object({
  reports: z.array(ReportDetailSchema),
  /** Rows matching the filters; null on a keyset page (`after` given): the first page's total stands. */
  total: z.number().int().nullable(),
  /** The `after` of the next page; null when this page is the last. */
  next: z.string().nullable(),
});

export const CreateReportSchema = z
  .object({
    /** App name or id. */
    app: z.string().trim().min(1).max(200),
    name: nameSchema(200),
    baseVersion: gitRefSchema,
    newVersion: gitRefSchema,
    envType: envTypeSchema,
    testType: testTypeSchema,
    coverageType: z.enum(COVERAGE_TYPES),
    carryForwardDays: carryForwardDaysSchema.optional(),
  })
  .strict();
export type CreateReport = z.infer<typeof CreateReportSchema>;

/** coverageEdit: rename, change versions or environment, and/or run the pipeline again. */
export const UpdateReportSchema = z
  .object({
    name: nameSchema(200).optional(),
    baseVersion: gitRefSchema.optional(),
    newVersion: gitRefSchema.optional(),
    envType: envTypeSchema.optional(),
    coverageType: z.enum(COVERAGE_TYPES).optional(),
    carryForwardDays: carryForwardDaysSchema.optional(),
    rerun: z.boolean().optional(),
  })
  .strict();
export type UpdateReport = z.infer<typeof UpdateReportSchema>;

/** One file of the source view's tree with its figures. */
export const ReportFileSchema = z.object({
  path: z.string(),
  language: z.string().nullable(),
  lineCovered: z.number().int(),
  lineTotal: z.number().int(),
  branchCovered: z.number().int(),
  branchTotal: z.number().int(),
  changed: z.boolean(),
  diffLineCovered: z.number().int().nullable(),
  diffLineTotal: z.number().int().nullable(),
  /**
   * The monorepo package (npm/pnpm/yarn workspace, Nx project, Maven or Gradle module, Go module) the
   * file belongs to, as its repository folder; null outside a monorepo or outside every package.
   */
  package: z.string().nullable(),
});
export type ReportFile = z.infer<typeof ReportFileSchema>;

export const LineMarkSchema = z.object({
  line: z.number().int(),
  hits: z.number().int(),
  branchesCovered: z.number().int(),
  branchesTotal: z.number().int(),
});
export type LineMark = z.infer<typeof LineMarkSchema>;

export const SourceMethodSchema = z.object({
  /** As the report names it: JaCoCo's `summary(I)Ljava/lang/String;`, LCOV's function name. */
  name: z.string(),
  /** Its class as the report names it (`demo/inventory/Alerts`): Java constructors are named after it. */
  className: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  lineCoverage: z.number().nullable(),
  branchCoverage: z.number().nullable(),
  changed: z.boolean(),
});

/** GET /api/reports/:id/source?path=: the file at the report's new commit with its marks. */
export const SourceViewSchema = z.object({
  path: z.string(),
  commit: z.string(),
  language: z.string().nullable(),
  /** The file's text split into lines; the client renders it as text, never as markup. */
  lines: z.array(z.string()),
  marks: z.array(LineMarkSchema),
  changedLines: z.array(z.number().int()),
  /** Lines the fresh runs left uncovered that coverage carried from an older commit covers. */
  carriedLines: z.array(z.number().int()),
  methods: z.array(SourceMethodSchema),
});
export type SourceView = z.infer<typeof SourceViewSchema>;

/** POST /api/coverage/uploads answer. */
export const UploadResultSchema = z.object({
  uploadId: z.string(),
  format: z.string(),
  files: z.number().int(),
  unmappedFiles: z.array(z.string()),
});
export type UploadResult = z.infer<typeof UploadResultSchema>;

/**
 * A folder of the repository, as git names it from the top: `packages/web`, no leading or trailing
 * slash, no `.`/`..` part, no backslash (a Windows separator is the sender's to turn into `/`).
 */
export const repositoryFolderSchema = z
  .string()
  .trim()
  .max(1000, 'At most 1000 characters.')
  .transform((folder) => folder.replace(/\/+$/, ''))
  .refine(
    (folder) =>
      folder === '' ||
      (!folder.startsWith('/') &&
        !folder.includes('\\') &&
        ![...folder].some((char) => char < ' ') &&
        folder.split('/').every((part) => part !== '' && part !== '.' && part !== '..')),
    'A folder of the repository, relative to its top: "packages/web" (no leading "/", no "." or ".." part, no backslash).',
  );

/** Upload metadata: query string (raw body) or multipart fields. */
export const UploadMetaSchema = z.object({
  app: z.string().trim().min(1).max(200),
  commit: gitRefSchema,
  envType: envTypeSchema,
  testType: testTypeSchema,
  caseId: z.string().trim().max(200).optional(),
  agentId: z.string().trim().max(200).optional(),
  format: z
    .enum(['auto', 'jacoco', 'jacoco-exec', 'lcov', 'cobertura', 'istanbul', 'go', 'coveragepy', 'clover'])
    .default('auto'),
  /**
   * The folder the report was made in (a monorepo's package): its relative paths are looked up
   * there first, and of several files with the same name the one inside it is taken.
   */
  baseDir: repositoryFolderSchema.optional(),
});
export type UploadMeta = z.infer<typeof UploadMetaSchema>;

export const UploadSchema = z.object({
  id: z.string(),
  appId: z.string(),
  commit: z.string(),
  envType: z.string(),
  testType: z.number().int(),
  caseId: z.string().nullable(),
  agentId: z.string().nullable(),
  format: z.string(),
  baseDir: z.string().nullable(),
  sizeBytes: z.number().int(),
  files: z.number().int(),
  createdAt: z.string(),
});

/** An agent's heart-beat (sextant agent), authorised by the app's ingestion token or an upload right. */
export const AgentHeartbeatRequestSchema = z.object({
  app: z.string().trim().min(1).max(200),
  /** At most 128: the message centre's agent_id limit. */
  agentId: z.string().trim().min(1).max(128),
  envType: envTypeSchema,
  status: z.enum(['HEART_BEAT_DONE', 'HEART_BEAT_ERROR']),
  error: z.string().max(2000).optional(),
  version: z.string().max(64).optional(),
  /**
   * The commit (sha or ref, as its uploads name it) and test type the agent sends coverage for: the
   * heart-beat is kept per report for the reports of its app and environment made for that commit.
   */
  commit: z.string().trim().min(1).max(200).optional(),
  testType: z.union([z.literal(1), z.literal(2)]).optional(),
});

export const AgentSchema = z.object({
  id: z.string(),
  appId: z.string(),
  agentId: z.string(),
  envType: z.string(),
  ip: z.string().nullable(),
  version: z.string().nullable(),
  lastStatus: z.string(),
  lastError: z.string().nullable(),
  lastHeartbeatAt: z.string(),
});
export type Agent = z.infer<typeof AgentSchema>;

/** A heart-beat's answer: the agent, and the reports the beat was kept for (none: the agent serves none yet). */
export const AgentBeatAnswerSchema = AgentSchema.extend({ reportIds: z.array(z.string()) });

/** Latest full and incremental figures of one app for one test type, and its trend. */
export const AppCoverageSummarySchema = z.object({
  appId: z.string(),
  appName: z.string(),
  teamId: z.string(),
  teamName: z.string(),
  testType: z.union([z.literal(1), z.literal(2)]),
  latestFull: ReportSchema.nullable(),
  latestIncremental: ReportSchema.nullable(),
  /**
   * The last successful reports' line and branch coverage, by version: ordered by the version's date
   * (when a report of it was first asked for: reports of two versions running side by side may finish
   * in either order), then by the report's own date.
   */
  trend: z.array(
    z.object({
      reportId: z.string(),
      name: z.string(),
      date: z.string(),
      /** The report's new version, as written in it. */
      version: z.string(),
      versionDate: z.string(),
      coverageType: z.enum(COVERAGE_TYPES),
      lineCoverage: z.number().nullable(),
      branchCoverage: z.number().nullable(),
      diffLineCoverage: z.number().nullable(),
    }),
  ),
});
export const DashboardSchema = z.object({
  apps: z.array(AppCoverageSummarySchema),
  running: z.array(ReportSchema),
  openRisks: z.number().int(),
});
export type Dashboard = z.infer<typeof DashboardSchema>;
export const DashboardQuerySchema = z.object({ teamId: z.uuid().optional(), appId: z.uuid().optional() });
