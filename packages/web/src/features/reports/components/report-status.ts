import { NOTIFYING_STATUSES, RUNNING_STATUSES } from '@sextant/api';

/** The pipeline's steps in order (DESIGN §5) and the failure status each one can end with (titles in texts.ts). */
export const PIPELINE_STEPS = [
  { status: 'QUEUED', failure: null },
  { status: 'CLONING', failure: 'CLONE_FAIL' },
  { status: 'COMPILING', failure: 'COMPILE_FAIL' },
  { status: 'DIFF_METHODS', failure: 'DIFF_METHOD_FAIL' },
  { status: 'ADDING_MODULE', failure: 'FAILADDMODULE' },
  { status: 'ENV_REPORT', failure: 'ENVREPORT_FAIL' },
  { status: 'GENERATING_REPORT', failure: 'GENERATEREPORT_FAIL' },
] as const;

export function isRunning(status: string): boolean {
  return (RUNNING_STATUSES as readonly string[]).includes(status);
}

export function isFailure(status: string): boolean {
  return status !== 'SUCCESS' && (NOTIFYING_STATUSES as readonly string[]).includes(status);
}

/** Index of the step a status belongs to; SUCCESS is past the last step. */
export function stepIndex(status: string): number {
  if (status === 'SUCCESS') return PIPELINE_STEPS.length;
  const i = PIPELINE_STEPS.findIndex((s) => s.status === status || s.failure === status);
  return Math.max(i, 0);
}

/** The step a status reports on (a failure belongs to the step that failed). */
export function stepStatusOf(status: string): string {
  if (status === 'SUCCESS') return status;
  return PIPELINE_STEPS[stepIndex(status)]?.status ?? status;
}
