import { z } from 'zod';
import { testTypeSchema } from './reports.ts';

/** Risk kinds (issue 34): coverage from reports; exception and performance from traces. */
export const RISK_KINDS = ['coverage', 'exception', 'performance'] as const;
export type RiskKind = (typeof RISK_KINDS)[number];

/** observing → pending (a decision asked for) → judged, or resolved (covered by a later report). */
export const RISK_STATES = ['observing', 'pending', 'judged', 'resolved'] as const;
export type RiskState = (typeof RISK_STATES)[number];

export const RISK_JUDGMENTS = ['accepted', 'needs-test', 'false-positive'] as const;
export type RiskJudgment = (typeof RISK_JUDGMENTS)[number];

export const RISK_SORTS = ['severity', 'createdAt', 'dueDate', 'changedLines', 'lineCoverage', 'app'] as const;

const idList = z
  .string()
  .max(2000)
  .transform((s) => s.split(',').filter((x) => x !== ''))
  .pipe(z.array(z.uuid()).max(50));

export const RiskListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(200).default(20),
  teamId: z.uuid().optional(),
  appId: z.uuid().optional(),
  projectId: z.uuid().optional(),
  version: z.string().min(1).max(200).optional(),
  testType: testTypeSchema.optional(),
  author: z.string().min(1).max(320).optional(),
  /** Items whose author is the signed-in user (matched by e-mail). */
  mine: z.stringbool().default(false),
  assignedToMe: z.stringbool().default(false),
  kind: z.enum(RISK_KINDS).optional(),
  /** One state, or several separated by commas. */
  state: z
    .string()
    .max(100)
    .transform((s) => s.split(',').filter((x) => x !== ''))
    .pipe(z.array(z.enum(RISK_STATES)).max(RISK_STATES.length))
    .optional(),
  ids: idList.optional(),
  sortBy: z.enum(RISK_SORTS).default('severity'),
  sortDesc: z.stringbool().default(true),
});
export type RiskListQuery = z.infer<typeof RiskListQuerySchema>;

export const RiskItemSchema = z.object({
  id: z.string(),
  kind: z.enum(RISK_KINDS),
  appId: z.string(),
  appName: z.string(),
  teamId: z.string().nullable(),
  /** The latest report that saw a coverage item at risk; null for exception and performance items. */
  reportId: z.string().nullable(),
  testType: z.number().int().nullable(),
  version: z.string(),
  className: z.string(),
  methodName: z.string(),
  signature: z.string().nullable(),
  filePath: z.string(),
  startLine: z.number().int().nullable(),
  endLine: z.number().int().nullable(),
  author: z.string().nullable(),
  requirement: z.string().nullable(),
  lineCovered: z.number().int(),
  lineTotal: z.number().int(),
  changedLines: z.number().int(),
  fanIn: z.number().int().nullable(),
  /** See `riskSeverity`: the same score on every screen and in the sort. */
  severity: z.number(),
  state: z.enum(RISK_STATES),
  judgment: z.enum(RISK_JUDGMENTS).nullable(),
  reason: z.string().nullable(),
  assigneeId: z.string().nullable(),
  dueDate: z.string().nullable(),
  overdue: z.boolean(),
  resolvedByReportId: z.string().nullable(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  /** Exception and performance items (from traces): spans seen, first and last, a sample trace, p95. */
  occurrences: z.number().int().nullable(),
  firstSeenAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  sampleTraceId: z.string().nullable(),
  p95Ms: z.number().nullable(),
  /** Whether the caller may judge this item (its author, a tester of its team, or update Risk). */
  mayJudge: z.boolean(),
});
export type RiskItem = z.infer<typeof RiskItemSchema>;

export const RiskHeadlineSchema = z.object({
  open: z.number().int(),
  newThisWeek: z.number().int(),
  resolvedThisWeek: z.number().int(),
  /** When the oldest open item was opened (null: none open). */
  oldestOpenAt: z.string().nullable(),
  pending: z.number().int(),
  overdue: z.number().int(),
});
export type RiskHeadline = z.infer<typeof RiskHeadlineSchema>;

export const RiskHistoryEntrySchema = z.object({
  at: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  reportId: z.string().nullable(),
  fromState: z.enum(RISK_STATES).nullable(),
  toState: z.enum(RISK_STATES),
  judgment: z.enum(RISK_JUDGMENTS).nullable(),
  reason: z.string().nullable(),
});
export type RiskHistoryEntry = z.infer<typeof RiskHistoryEntrySchema>;

export const AskDecisionRequestSchema = z.object({
  ids: z.array(z.uuid()).min(1).max(200),
  reason: z.string().trim().max(2000).optional(),
});
export type AskDecisionRequest = z.infer<typeof AskDecisionRequestSchema>;

const reason = z.string().trim().min(1, 'Say why.').max(2000);
export const JudgmentRequestSchema = z.discriminatedUnion('judgment', [
  z.object({ judgment: z.literal('accepted'), reason }),
  z.object({ judgment: z.literal('false-positive'), reason }),
  z.object({
    judgment: z.literal('needs-test'),
    assigneeId: z.uuid(),
    dueDate: z.iso.date(),
    reason: z.string().trim().max(2000).optional(),
  }),
]);
export type JudgmentRequest = z.infer<typeof JudgmentRequestSchema>;

/**
 * Severity of a risk item, 0–100 (issue 34), the one score every screen shows and sorts by:
 * missing coverage (1 − covered/coverable lines) scaled by the size of the change and the number of
 * callers, and growing with age: `100 × missing × size × reach × age` where
 * size = min(1, log2(1 + changedLines) / 6) (64 changed lines count fully),
 * reach = 0.7 + 0.3 × min(1, log2(1 + fanIn) / 4) (fan-in unknown: 0.85),
 * age = 0.75 + 0.25 × min(1, days open / 28).
 */
export function riskSeverity(input: {
  lineCovered: number;
  lineTotal: number;
  changedLines: number;
  fanIn: number | null;
  ageDays: number;
}): number {
  const missing = input.lineTotal > 0 ? 1 - input.lineCovered / input.lineTotal : 1;
  const size = Math.min(1, Math.log2(1 + Math.max(1, input.changedLines)) / 6);
  const reach = input.fanIn === null ? 0.85 : 0.7 + 0.3 * Math.min(1, Math.log2(1 + input.fanIn) / 4);
  const age = 0.75 + 0.25 * Math.min(1, Math.max(0, input.ageDays) / 28);
  return Math.round(1000 * missing * size * reach * age) / 10;
}

export const RiskHistorySchema = z.array(RiskHistoryEntrySchema);
export const AskDecisionResultSchema = z.object({ asked: z.number().int() });
export const RiskPageSchema = z.object({ items: z.array(RiskItemSchema), total: z.number().int().nonnegative() });

/** The home screen's treemap colours (issue 34): covered at the grade, or below it and changed or new. */
export const TREEMAP_STATUSES = ['covered', 'changed-uncovered', 'new-uncovered'] as const;
export type TreemapStatus = (typeof TREEMAP_STATUSES)[number];

export const RiskTreemapQuerySchema = z.object({
  appId: z.uuid(),
  version: z.string().min(1).max(200),
  testType: testTypeSchema.optional(),
});
export type RiskTreemapQuery = z.infer<typeof RiskTreemapQuerySchema>;

export const TreemapMethodSchema = z.object({
  className: z.string(),
  name: z.string(),
  filePath: z.string(),
  startLine: z.number().int().nullable(),
  changedLines: z.number().int().nonnegative(),
  lineCovered: z.number().int().nonnegative(),
  lineTotal: z.number().int().nonnegative(),
  status: z.enum(TREEMAP_STATUSES),
});
export type TreemapMethod = z.infer<typeof TreemapMethodSchema>;

/** The changed methods of the latest successful incremental report of an app's version; none without one. */
export const RiskTreemapSchema = z.object({
  reportId: z.string().nullable(),
  methods: z.array(TreemapMethodSchema),
});
export type RiskTreemap = z.infer<typeof RiskTreemapSchema>;
