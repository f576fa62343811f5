import { isFailureStatus, isRunningStatus, PIPELINE_STEPS } from '@sextant/api';

/** The pipeline's steps in order (DESIGN §5) with their failure statuses: packages/api's table (titles in texts.ts). */
export { PIPELINE_STEPS };

export function isRunning(status: string): boolean {
  return isRunningStatus(status);
}

export function isFailure(status: string): boolean {
  return isFailureStatus(status);
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
