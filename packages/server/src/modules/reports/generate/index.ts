export { generateReport } from './generate-report.ts';
export type { GenerateInput, GenerateResult } from './types.ts';
