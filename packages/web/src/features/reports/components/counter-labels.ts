import type { CoverageFields } from '@sextant/api';

/**
 * Whether the report's instruction counter holds statements: the engine puts statements there for
 * Istanbul, Go and Clover, and only JaCoCo (bytecode instructions) also has the complexity counter.
 */
export const countsStatements = (report: CoverageFields) =>
  report.instructionTotal !== null && report.complexityTotal === null;
