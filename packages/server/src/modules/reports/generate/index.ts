export { generateReport } from './generate-report.ts';
export type { CoverageRiskInput, CoverageRiskOutcome, CoverageRisks, GenerateInput, GenerateResult } from './types.ts';
