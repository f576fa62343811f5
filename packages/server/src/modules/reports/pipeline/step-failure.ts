import type { NOTIFYING_STATUSES } from '@sextant/api';

export type FailureStatus = Exclude<(typeof NOTIFYING_STATUSES)[number], 'SUCCESS'>;

/** A step's failure with the status it ends the report in and a reason a user can read (DESIGN §5). */
export class StepFailure extends Error {
  override name = 'StepFailure';
  constructor(
    readonly status: FailureStatus,
    message: string,
  ) {
    super(message);
  }
}
