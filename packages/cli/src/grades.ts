import type { Grades } from './table.ts';

/**
 * The system settings' default grades (specification point 9; `DEFAULT_SETTINGS` in
 * @sextant/api, which a test holds these equal to). Restated because importing the contract
 * would bundle zod, most of the CLI's start-up time, into a command that needs two numbers.
 */
export const DEFAULT_GRADES: Grades = { excellent: 0.8, passing: 0.6 };
