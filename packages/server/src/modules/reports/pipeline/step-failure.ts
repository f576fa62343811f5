import type { FailureStatus } from '@sextant/api';

export type { FailureStatus };

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
