import type { Report } from '@sextant/api';
import type { ReportRow } from './repository.ts';

/** covered / total as a fraction; null when the format lacks the counter or nothing counts. */
function fraction(covered: number | null, total: number | null): number | null {
  if (covered === null || total === null || total === 0) return null;
  return covered / total;
}

/** A report row as the API shows it (specification point 3: coverage as fractions between 0 and 1). */
export function presentReport(row: ReportRow, app: { name: string; teamId: string }, riskCount: number): Report {
  return {
    id: row.id,
    appId: row.appId,
    appName: app.name,
    teamId: app.teamId,
    name: row.name,
    newVersion: row.newVersion,
    baseVersion: row.baseVersion,
    newCommit: row.newCommit,
    baseCommit: row.baseCommit,
    envType: row.envType,
    coverageType: row.coverageType as Report['coverageType'],
    testType: row.testType as Report['testType'],
    status: row.status,
    errMsg: row.errMsg,
    instructionCoverage: fraction(row.instructionCovered, row.instructionTotal),
    instructionCovered: row.instructionCovered,
    instructionTotal: row.instructionTotal,
    branchCoverage: fraction(row.branchCovered, row.branchTotal),
    branchCovered: row.branchCovered,
    branchTotal: row.branchTotal,
    cxty: fraction(row.complexityCovered, row.complexityTotal),
    complexityCovered: row.complexityCovered,
    complexityTotal: row.complexityTotal,
    lineCoverage: fraction(row.lineCovered, row.lineTotal),
    lineCovered: row.lineCovered,
    lineTotal: row.lineTotal,
    methodCoverage: fraction(row.methodCovered, row.methodTotal),
    methodCovered: row.methodCovered,
    methodTotal: row.methodTotal,
    classCoverage: fraction(row.classCovered, row.classTotal),
    classCovered: row.classCovered,
    classTotal: row.classTotal,
    instructionCoveredAtMost: row.instructionCoveredAtMost,
    branchCoveredAtMost: row.branchCoveredAtMost,
    lineCoveredAtMost: row.lineCoveredAtMost,
    complexityCoveredAtMost: row.complexityCoveredAtMost,
    methodCoveredAtMost: row.methodCoveredAtMost,
    classCoveredAtMost: row.classCoveredAtMost,
    codeAuthor: row.codeAuthor,
    diffLineCovered: row.diffLineCovered,
    diffLineTotal: row.diffLineTotal,
    diffLineCoverage: fraction(row.diffLineCovered, row.diffLineTotal),
    riskCount,
    carryForwardDays: row.carryForwardDays,
    carried: row.carried ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
