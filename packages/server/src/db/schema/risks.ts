import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { apps } from './apps.ts';
import { reports } from './reports.ts';
import { users } from './users.ts';

/**
 * A risk (DESIGN §6, issue 34): a changed method a report shows uncovered or below the passing grade
 * (`coverage`), or, from traces, an interface ending in exceptions or slower than the thresholds.
 * One coverage item per app version and method (file, name, signature), across that version's reports.
 */
export const riskItems = pgTable(
  'risk_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull().default('coverage'),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    /** The latest report that saw the method at risk (the source view link opens it). */
    /** Null for exception and performance items (they come from traces, not from a report). */
    reportId: uuid('report_id').references(() => reports.id, { onDelete: 'cascade' }),
    testType: integer('test_type'),
    version: text('version').notNull(),
    className: text('class_name').notNull(),
    methodName: text('method_name').notNull(),
    signature: text('signature'),
    filePath: text('file_path').notNull(),
    startLine: integer('start_line'),
    endLine: integer('end_line'),
    author: text('author'),
    requirement: text('requirement'),
    lineCovered: integer('line_covered').notNull(),
    lineTotal: integer('line_total').notNull(),
    changedLines: integer('changed_lines').notNull().default(0),
    /** Callers of the method where known (null: unknown); part of the severity. */
    fanIn: integer('fan_in'),
    /** The method's body hash when last seen: an accepted risk is observed anew when it changes. */
    bodyHash: text('body_hash'),
    state: text('state').notNull().default('observing'),
    /** accepted | needs-test | false-positive, while state is judged (kept after a needs-test item resolves). */
    judgment: text('judgment'),
    reason: text('reason'),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    dueDate: date('due_date'),
    resolvedByReportId: uuid('resolved_by_report_id').references(() => reports.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /**
     * `riskSeverity` (packages/api) as of the row's last write: set by the trigger
     * `risk_items_severity` on every insert and update (migration 0010), refreshed daily for items
     * younger than four weeks (the age part); indexed so that the lists sort by it cheaply.
     */
    severity: doublePrecision('severity').notNull().default(0),
    /** Exception and performance items: the spans seen (exceptions, or spans of the slow interface). */
    occurrences: integer('occurrences'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /** A trace showing the risk (the latest exception, or the slowest span), for the trace viewer. */
    sampleTraceId: text('sample_trace_id'),
    /** Performance items: the interface's p95 duration in milliseconds. */
    p95Ms: doublePrecision('p95_ms'),
  },
  (t) => [
    index('risk_items_report_idx').on(t.reportId),
    index('risk_items_app_state_idx').on(t.appId, t.state),
    index('risk_items_app_version_idx').on(t.appId, t.version, t.filePath),
    index('risk_items_state_created_idx').on(t.state, t.createdAt),
    // One index per sort the screens offer (issue 34: index-backed sorts), id breaking ties.
    index('risk_items_severity_idx').on(t.severity, t.id),
    index('risk_items_created_idx').on(t.createdAt, t.id),
    index('risk_items_due_idx').on(t.dueDate, t.id),
    index('risk_items_changed_idx').on(t.changedLines, t.id),
    index('risk_items_ratio_idx').on(
      sql`(case when ${t.lineTotal} > 0 then ${t.lineCovered}::float8 / ${t.lineTotal} else 0 end)`,
      t.id,
    ),
    index('risk_items_resolved_idx').on(t.resolvedAt),
    // The home screen's list (open items, most severe or newest first), the call every user makes: its
    // page read without stepping over judged and resolved items, a deep page's ids without the table.
    index('risk_items_open_severity_idx').on(t.severity, t.id).where(sql`${t.state} in ('observing', 'pending')`),
    index('risk_items_open_created_idx').on(t.createdAt, t.id).where(sql`${t.state} in ('observing', 'pending')`),
    // Overdue items are judged "needs test" ones past their due date: a range of this index, read
    // without the table (their count, and the ids of the overdue part of a page by severity).
    index('risk_items_overdue_due_idx')
      .on(t.dueDate, t.severity, t.id)
      .where(sql`${t.state} = 'judged' and ${t.judgment} = 'needs-test'`),
  ],
);

/** Every transition of a risk item: who (null: a report), when, from, to, why (issue 34). */
export const riskItemHistory = pgTable(
  'risk_item_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    riskItemId: uuid('risk_item_id')
      .notNull()
      .references(() => riskItems.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    reportId: uuid('report_id').references(() => reports.id, { onDelete: 'set null' }),
    fromState: text('from_state'),
    toState: text('to_state').notNull(),
    judgment: text('judgment'),
    reason: text('reason'),
  },
  (t) => [
    index('risk_item_history_item_idx').on(t.riskItemId, t.at),
    // The risk burn-down reads the transitions of a range (issue 35), not every item's whole past.
    index('risk_item_history_at_idx').on(t.at),
  ],
);

/**
 * How many risk items each app has per kind, state and judgment (`''`: none), kept by the statement
 * triggers `risk_item_counts_inserted`/`_updated`/`_deleted` (migration 0018; row triggers before) on
 * every write of `risk_items`, in the writer's transaction: the lists' total and the headline's open and
 * pending figures without counting 100,000 rows (issue 34).
 */
export const riskItemCounts = pgTable(
  'risk_item_counts',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    state: text('state').notNull(),
    judgment: text('judgment').notNull().default(''),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.appId, t.kind, t.state, t.judgment] })],
);

/**
 * Per app and day (UTC), how many risk items a transition opened and how many it closed (issue 35, the
 * risk burn-down), kept by the trigger `risk_open_days_from_history` on every insert into
 * risk_item_history and taken back by `risk_open_days_item_gone` when an item (and so its history) is
 * deleted, in the writer's transaction. The burn-down over many apps reads days × apps rows here
 * instead of every transition of the range joined to its item.
 */
export const riskOpenDays = pgTable(
  'risk_open_days',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    opened: integer('opened').notNull().default(0),
    closed: integer('closed').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.appId, t.day] }), index('risk_open_days_day_idx').on(t.day)],
);

/**
 * The risk data's generation: one row whose `n` grows in every transaction that writes `risk_items`,
 * bumped at its commit by the deferred trigger `risk_generation_bump` (migration 0027; since 0031 it
 * calls the shared `generation_bump`), so it becomes visible together with the write. The home screen's answer cache (lib/generation-cache.ts) keeps
 * an answer only while `n` is what it was when the answer was read, in every server process.
 */
export const riskGeneration = pgTable('risk_generation', {
  id: integer('id').primaryKey().default(1),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});
