import type { CoverageFields, Report, ReportJobStatus } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import { withoutServerPaths } from '../../lib/server-paths.ts';

/** A uuid as PostgreSQL accepts it; anything else cannot name a report (404, never a 500 cast error). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

const COUNTERS = ['instruction', 'branch', 'line', 'complexity', 'method', 'class'] as const;
type Counter = (typeof COUNTERS)[number];

/** covered/total as a fraction in SQL: null when either is null or the total is 0 (never 0 % for "absent"). */
export function fractionSql(alias: string, counter: Counter): SQL {
  return sql.raw(`(${alias}.${counter}_covered::float8 / nullif(${alias}.${counter}_total, 0))`);
}

/**
 * The report columns of a query over `reports r join apps a`, with its open risk items counted (observing,
 * or waiting for a judgment: DESIGN §6).
 */
export const REPORT_COLUMNS = sql.raw(`r.id, r.app_id, a.name as app_name, a.team_id, r.name, r.new_version,
  r.base_version, r.new_commit, r.base_commit, r.env_type, r.coverage_type, r.test_type, r.status, r.err_msg,
  r.instruction_covered, r.instruction_total, r.branch_covered, r.branch_total, r.line_covered, r.line_total,
  r.complexity_covered, r.complexity_total, r.method_covered, r.method_total, r.class_covered, r.class_total,
  r.instruction_covered_at_most, r.branch_covered_at_most, r.line_covered_at_most, r.complexity_covered_at_most,
  r.method_covered_at_most, r.class_covered_at_most, r.diff_line_covered, r.diff_line_total, r.code_author, r.carry_forward_days, r.carried, r.created_at, r.updated_at, r.finished_at,
  (select count(*)::int from risk_items ri where ri.report_id = r.id
    and ri.state in ('observing', 'pending')) as risk_count`);

type Row = Record<string, unknown>;

function num(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function fraction(covered: number | null, total: number | null): number | null {
  return covered === null || total === null || total === 0 ? null : covered / total;
}

export function iso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

/** The coverage fields of a report or report-detail row (specification point 3); fractions in 0..1. */
export function toCoverageFields(row: Row): CoverageFields {
  const c = (counter: Counter) => {
    const covered = num(row[`${counter}_covered`]);
    const total = num(row[`${counter}_total`]);
    return { covered, total, fraction: fraction(covered, total), atMost: num(row[`${counter}_covered_at_most`]) };
  };
  const [instruction, branch, line, complexity, method, klass] = COUNTERS.map(c) as [
    ReturnType<typeof c>,
    ReturnType<typeof c>,
    ReturnType<typeof c>,
    ReturnType<typeof c>,
    ReturnType<typeof c>,
    ReturnType<typeof c>,
  ];
  return {
    instructionCoverage: instruction.fraction,
    instructionCovered: instruction.covered,
    instructionTotal: instruction.total,
    branchCoverage: branch.fraction,
    branchCovered: branch.covered,
    branchTotal: branch.total,
    cxty: complexity.fraction,
    complexityCovered: complexity.covered,
    complexityTotal: complexity.total,
    lineCoverage: line.fraction,
    lineCovered: line.covered,
    lineTotal: line.total,
    methodCoverage: method.fraction,
    methodCovered: method.covered,
    methodTotal: method.total,
    classCoverage: klass.fraction,
    classCovered: klass.covered,
    classTotal: klass.total,
    instructionCoveredAtMost: instruction.atMost,
    branchCoveredAtMost: branch.atMost,
    lineCoveredAtMost: line.atMost,
    complexityCoveredAtMost: complexity.atMost,
    methodCoveredAtMost: method.atMost,
    classCoveredAtMost: klass.atMost,
    codeAuthor: (row.code_author as string | null) ?? null,
  };
}

export function toReport(row: Row): Report {
  const diffLineCovered = num(row.diff_line_covered);
  const diffLineTotal = num(row.diff_line_total);
  return {
    ...toCoverageFields(row),
    id: String(row.id),
    appId: String(row.app_id),
    appName: String(row.app_name),
    teamId: String(row.team_id),
    name: String(row.name),
    newVersion: String(row.new_version),
    baseVersion: String(row.base_version),
    newCommit: (row.new_commit as string | null) ?? null,
    baseCommit: (row.base_commit as string | null) ?? null,
    envType: String(row.env_type),
    coverageType: row.coverage_type === 'incremental' ? 'incremental' : 'full',
    testType: Number(row.test_type) === 2 ? 2 : 1,
    status: String(row.status) as ReportJobStatus,
    // A step's reason may name a mirror, work folder or local repository: each keeps only its last name.
    errMsg: row.err_msg ? withoutServerPaths(String(row.err_msg)) : null,
    diffLineCovered,
    diffLineTotal,
    diffLineCoverage: fraction(diffLineCovered, diffLineTotal),
    riskCount: Number(row.risk_count ?? 0),
    carryForwardDays: Number(row.carry_forward_days ?? 0),
    carried: (row.carried as Report['carried'] | null | undefined) ?? null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    finishedAt: row.finished_at ? iso(row.finished_at) : null,
  };
}
