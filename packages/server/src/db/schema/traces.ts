import { sql } from 'drizzle-orm';
import {
  bigint,
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

/**
 * Received spans (issue 36). Migration 0009 creates this table PARTITIONED BY RANGE (start_time),
 * one partition per UTC day (`spans_pYYYYMMDD`, made on demand by the traces repository), so that
 * retention drops a whole day at once; drizzle-kit cannot express partitioning, hence the
 * hand-written SQL. No foreign key to apps: a per-row check on the ingest path, for a table whose
 * rows age out anyway.
 */
export const spans = pgTable(
  'spans',
  {
    appId: uuid('app_id').notNull(),
    traceId: text('trace_id').notNull(),
    spanId: text('span_id').notNull(),
    parentSpanId: text('parent_span_id'),
    name: text('name').notNull(),
    kind: smallint('kind').notNull(),
    service: text('service').notNull(),
    appVersion: text('app_version'),
    startTime: timestamp('start_time', { withTimezone: true, precision: 6 }).notNull(),
    /** Nanoseconds since the epoch, exactly as sent (timestamptz keeps microseconds). */
    startNs: bigint('start_ns', { mode: 'bigint' }).notNull(),
    durationNs: bigint('duration_ns', { mode: 'bigint' }).notNull(),
    statusCode: smallint('status_code').notNull(),
    statusMessage: text('status_message').notNull(),
    interface: text('interface'),
    exceptionType: text('exception_type'),
    exceptionMessage: text('exception_message'),
    exceptionStack: text('exception_stack'),
    codeFunction: text('code_function'),
    codeNamespace: text('code_namespace'),
    codeFile: text('code_file'),
    codeLine: integer('code_line'),
    testCase: text('test_case'),
    attributes: jsonb('attributes').notNull(),
    resource: jsonb('resource').notNull(),
    events: jsonb('events').notNull(),
    links: jsonb('links').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A partitioned table's keys must hold the partition key; a re-sent span (OTLP clients retry) is kept once.
    primaryKey({ columns: [t.appId, t.traceId, t.spanId, t.startTime] }),
    // Every index costs each span written (bench/otlp-ingest.ts), so those for rarer columns hold
    // only the spans that have them. Search reads each newest first (bench/trace-search.ts).
    index('spans_app_time').on(t.appId, t.startTime),
    index('spans_app_interface_time').on(t.appId, t.interface, t.startTime).where(sql`interface is not null`),
    index('spans_app_case_time').on(t.appId, t.testCase, t.startTime).where(sql`test_case is not null`),
    index('spans_app_error_time').on(t.appId, t.startTime).where(sql`status_code = 2`),
    // An interface's failures: without it a search for them (often empty) read every span of the
    // interface in the range from the heap to check its status (bench/trace-search.ts).
    index('spans_app_interface_error_time')
      .on(t.appId, t.interface, t.startTime)
      .where(sql`status_code = 2 and interface is not null`),
    // Attribute search (`attributes @> {"key": value}`): without it each search read every span of
    // the range; jsonb_path_ops, the smaller GIN form, serves exactly that containment.
    index('spans_attributes').using('gin', t.attributes.op('jsonb_path_ops')),
  ],
);

/**
 * Regression runs (issue 36): a base (a version or a time window) compared with a candidate over
 * one app's traces; the comparison is computed once, when the run is made, and kept whole.
 */
export const regressionRuns = pgTable(
  'regression_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: uuid('app_id').notNull(),
    name: text('name').notNull(),
    base: jsonb('base').notNull(),
    candidate: jsonb('candidate').notNull(),
    result: jsonb('result').notNull(),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('regression_runs_app_created').on(t.appId, t.createdAt)],
);
