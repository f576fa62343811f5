import type { Db } from '../../../db/client.ts';
import type { GenerateInput, GenerateResult } from './types.ts';

/**
 * Stores a report's figures, class and method rows, per-file line data and risk items in one
 * transaction, replacing what an earlier run of the same report wrote.
 */
export async function generateReport(_db: Db, _input: GenerateInput): Promise<GenerateResult> {
  throw new Error('generateReport: not implemented yet');
}
